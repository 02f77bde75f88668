// Part 2's "still to come": bad records on purpose, with a CloudWatch alarm. A batch of good flows with bad
// records among them (malformed JSON, wrong types, not an object: flowgen's bad-record kinds) goes through
// Firehose; then: the good ones are in the table, the bad ones are in the error output with an error code and their
// raw bytes, the stream's DeliveryToIceberg.FailedRowCount counted them, and the firehose unit's alarm on that
// metric went to ALARM. A clean batch follows; once its period has passed without failures the alarm is OK again.
// Both targets run the same calls; only waiting differs (alarm-watch.ts).
import { BAD_RECORD_KINDS, makeBadRecords } from '@loglake/flowgen';
import { ExperimentFailedError } from '../errors';
import { badLines, flowRecords, formatAccounting, loadFailed, sendRecords } from '../load/send-flows';
import { tableRowCount, waitForDelivery } from '../load/wait-for-delivery';
import type { OutgoingRecord } from '../load/batches';
import { formatCount } from '../report/format';
import type { LabTarget } from '../target/lab-target';
import {
  actionsRun,
  alarmState,
  awsAlarmWatch,
  localAlarmWatch,
  metricSum,
  stateHistory,
  type Waiting,
} from './alarm-watch';
import { badRecordsChecks, countCodes } from './bad-records-checks';
import type { Experiment, ExperimentContext, ExperimentOutcome } from './context';
import { readErrorOutput } from './error-output';

/** Bad records in the batch: two of each kind flowgen makes. */
export const BAD_RECORDS = BAD_RECORD_KINDS.length * 2;

/** What the experiment reaches outside the target's clients; tests replace them so nothing really waits. */
export interface BadRecordsDeps {
  readonly now?: () => number;
  readonly sleep?: (ms: number) => Promise<void>;
  /** The flow table's row count (default: Athena's count(*), answered from metadata). */
  readonly rowCount?: (target: LabTarget) => Promise<number>;
  /** Waits until Firehose delivered the batch (default: the endpoint's counters locally, the row count on AWS). */
  readonly delivered?: (target: LabTarget, expectedRows: number) => Promise<void>;
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** `bad` spread evenly among `good`, so a buffer holds both. */
export function interleave(good: OutgoingRecord[], bad: OutgoingRecord[]): OutgoingRecord[] {
  const out: OutgoingRecord[] = [];
  const every = Math.max(1, Math.floor(good.length / Math.max(1, bad.length)));
  let b = 0;
  good.forEach((record, i) => {
    out.push(record);
    if ((i + 1) % every === 0 && b < bad.length) out.push(bad[b++] as OutgoingRecord);
  });
  while (b < bad.length) out.push(bad[b++] as OutgoingRecord);
  return out;
}

async function sendBatch(
  ctx: ExperimentContext,
  deps: BadRecordsDeps,
  label: string,
  records: OutgoingRecord[],
  goodCount: number,
): Promise<number> {
  const { target } = ctx;
  const rowCount = deps.rowCount ?? tableRowCount;
  const before = await rowCount(target);
  const report = await sendRecords(target, records, {
    label,
    progress: true,
    ...(ctx.signal ? { signal: ctx.signal } : {}),
  });
  ctx.recordSend(label, report);
  ctx.log(`  ${formatAccounting(label, report).split('\n').join('\n  ')}`);
  if (loadFailed(report))
    throw new ExperimentFailedError(
      `${label}: ${report.failedForGood + report.notSent} records were not accepted by Firehose.`,
      { value: report },
    );
  await (
    deps.delivered ??
    ((t, rows) =>
      waitForDelivery(t, { expectedRows: rows, ...(ctx.signal ? { signal: ctx.signal } : {}) }).then(
        () => undefined,
      ))
  )(target, before + goodCount);
  return (await rowCount(target)) - before;
}

/** Polls (AWS) or reads once (local, where delivery has settled) until `done`, within the waiting bound. */
async function until<T>(
  local: boolean,
  waiting: Waiting,
  read: () => Promise<T>,
  done: (value: T) => boolean,
  what: (value: T) => string,
): Promise<T> {
  const started = waiting.now();
  for (;;) {
    const value = await read();
    const waited = waiting.now() - started;
    if (local || done(value) || waited >= waiting.timeoutMs) return value;
    waiting.onWait?.(
      `waiting for ${what(value)}; ${Math.round(waited / 1000)} s of ${Math.round(waiting.timeoutMs / 1000)} s`,
    );
    await waiting.sleep(Math.min(30_000, waiting.timeoutMs - waited));
  }
}

export function badRecordsExperiment(deps: BadRecordsDeps = {}): Experiment {
  return {
    name: 'bad-records',
    title: 'Bad records on purpose, with a CloudWatch alarm',
    part: 2,
    async run(ctx): Promise<ExperimentOutcome> {
      const { target } = ctx;
      const r = target.resources;
      const alarm = r.failedRowsAlarm;
      if (!alarm)
        return {
          result:
            'skipped: the deployed stacks have no failed-rows alarm (outputs failed_rows_alarm_name and alerts_topic_arn); ' +
            'deploy table-bucket and firehose again and write the outputs file',
          measures: { skipped: 'no failed-rows alarm in the outputs' },
          checks: {},
        };
      const local = target.localUrl !== undefined;
      const waiting: Waiting = {
        now: deps.now ?? Date.now,
        sleep: deps.sleep ?? pause,
        timeoutMs: ctx.waits.alarmMs,
        onWait: (line) => ctx.log(`  ${line}`),
      };
      const cw = target.cloudwatch;
      const watch = local
        ? localAlarmWatch(cw, target.localUrl as string, alarm)
        : awsAlarmWatch(cw, alarm, waiting);
      const periodMs = alarm.Period * 1000;
      const startedAt = await watch.now();
      const wallStart = waiting.now();
      const stateBefore = (await alarmState(cw, alarm.AlarmName)).state;

      // The bad batch: good flows with the bad records among them.
      const gen = ctx.generator();
      const good = gen.burst({ at: new Date(waiting.now()), count: ctx.scale.burstSize, seconds: 30 });
      const bad = makeBadRecords(
        ctx.scale.seed * 1000 + (ctx.state.generatorRuns ?? 0),
        gen.burst({ at: new Date(waiting.now()), count: BAD_RECORDS, seconds: 30 }),
      );
      ctx.log(
        `  sending ${good.length} good flows with ${bad.length} bad records among them (${BAD_RECORD_KINDS.join(', ')})`,
      );
      const goodLanded = await sendBatch(
        ctx,
        deps,
        'bad batch',
        interleave(flowRecords(good), badLines(bad)),
        good.length,
      );

      // The error output: every bad record, by its bytes.
      const sent = new Set(bad.map((b) => b.line));
      const errors = await until(
        local,
        waiting,
        async () =>
          (
            await readErrorOutput(target.s3, r.errorBucketName, r.errorPrefix, new Date(wallStart - 60_000))
          ).filter((d) => sent.has(d.raw.toString('utf8'))),
        (found) => found.length >= bad.length,
        (found) => `the error output: ${found.length} of ${bad.length} bad records there`,
      );

      // The metric, then the alarm.
      const sum = () => watch.now().then((now) => metricSum(cw, alarm, startedAt - periodMs, now + periodMs));
      const counted = await until(
        local,
        waiting,
        sum,
        (m) => m.sum >= bad.length,
        (m) => `${alarm.MetricName} to count ${bad.length}: ${m.sum} so far`,
      );
      const fired = await watch.until('ALARM', counted.latestAt ?? (await watch.now()));
      ctx.log(`  alarm ${alarm.AlarmName}: ${fired.state} (${fired.reason})`);

      // A clean period: good flows only; once its period ends without failures the alarm clears.
      const clean = gen.burst({
        at: new Date(waiting.now()),
        count: Math.max(10, Math.round(ctx.scale.burstSize / 10)),
        seconds: 10,
      });
      await sendBatch(ctx, deps, 'clean batch', flowRecords(clean), clean.length);
      const afterClean = await sum();
      const cleared = await watch.until('OK', afterClean.latestAt ?? (await watch.now()));
      ctx.log(`  alarm ${alarm.AlarmName}: ${cleared.state} (${cleared.reason})`);

      const history = await stateHistory(cw, alarm.AlarmName, startedAt - 1000);
      const states = history.length > 0 ? history : [stateBefore, fired.state, cleared.state];
      const notifications = await actionsRun(cw, alarm.AlarmName, startedAt - 1000);
      const codes = errors.map((e) => e.errorCode);
      const topic = alarm.AlarmActions[0]?.split(':').at(-1) ?? '';
      return {
        result:
          `${formatCount(goodLanded)} of ${formatCount(good.length)} good rows landed; ${errors.length} of ${bad.length} bad ` +
          `in the error output with their raw bytes (${countCodes(codes)}); ${alarm.MetricName} ${counted.sum}; ` +
          `alarm ${states.join(' → ')}, ${notifications} notification${notifications === 1 ? '' : 's'} to ${topic}`,
        measures: {
          goodSent: good.length,
          goodLanded,
          badSent: bad.length,
          badInErrorOutput: errors.length,
          errorCodes: countCodes(codes),
          failedRowCount: counted.sum,
          alarmStates: states.join(' → '),
          alarmReason: fired.reason,
          notifications,
          alarmName: alarm.AlarmName,
          ...(local ? {} : { waitedForAlarmSeconds: Math.round((fired.waitedMs + cleared.waitedMs) / 1000) }),
        },
        checks: badRecordsChecks({
          goodSent: good.length,
          goodLanded,
          badSent: bad.length,
          badInErrorOutput: errors.length,
          errorCodes: codes,
          failedRowCount: counted.sum,
          alarmStates: states,
        }),
      };
    },
  };
}

export const badRecords: Experiment = badRecordsExperiment();
