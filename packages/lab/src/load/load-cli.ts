// `pnpm load`: generate flows with flowgen and send them through Firehose with PutRecordBatchLoader. Each step
// waits for its delivery (visibly: a countdown in a terminal, a line every few seconds otherwise; Ctrl-C stops the
// wait at once), unless --no-wait; the last line says what was delivered, what failed and where bad records went.
import { FlowGenerator, makeBadRecords, type FlowRecord } from '@loglake/flowgen';
import { InvalidOptionError } from '../errors';
import { formatCount } from '../report/format';
import { requireAwsCredentials } from '../target/aws-credentials';
import { bufferIntervalFrom } from '../target/buffer-interval';
import { loadCommand, type LoadOptions } from './load-command';

/** Seconds between progress lines while waiting, when stderr is not a terminal (CI, `| tee`). */
export const WAIT_LINE_EVERY_SECONDS = 5;
import { diagnoseDataFolder } from '../target/data-folder';
import type { LabTarget } from '../target/lab-target';
import { openTarget, parseTargetKind } from '../target/open-target';
import { localFirehoseStats, type LocalStreamStats } from '@loglake/local-aws';
import {
  abortOnSigint,
  badLines,
  flowRecords,
  formatAccounting,
  loadFailed,
  sendRecords,
} from './send-flows';
import { waitForDelivery, WaitInterruptedError, type WaitStatus } from './wait-for-delivery';
import type { OutgoingRecord } from './batches';
import type { LoadReport } from './put-record-batch-loader';

export async function loadCli(argv: string[]): Promise<number> {
  const program = loadCommand();
  program.parse(argv, { from: 'user' });
  return loadMain(program.opts<LoadOptions & { data?: string }>());
}

export async function loadMain(o: LoadOptions & { data?: string }): Promise<number> {
  if (o.data !== undefined && o.dataDir !== undefined && o.data !== o.dataDir)
    throw new InvalidOptionError('--data is --data-dir: give one of them.', { value: o.data });
  const dataDir = o.dataDir ?? o.data;
  const kind = parseTargetKind(o.target);
  const end = o.end ? new Date(o.end) : new Date();
  if (Number.isNaN(end.getTime()))
    throw new InvalidOptionError(`--end ${o.end} is not a date/time (e.g. 2026-11-29T12:00:00Z).`, {
      value: o.end,
    });
  if (
    kind !== 'local' &&
    (o.bufferInterval !== undefined ||
      o.faultThrottle !== undefined ||
      o.faultRecordFailures !== undefined ||
      o.endpointUrl !== undefined)
  ) {
    throw new InvalidOptionError(
      '--buffer-interval, --fault-* and --endpoint-url apply to --target local only.',
      { value: o.target },
    );
  }
  // An in-process endpoint uses the lab's short interval unless told; a running one has its own.
  const interval =
    kind === 'local' && o.endpointUrl === undefined ? bufferIntervalFrom(o.bufferInterval) : {};
  if (o.endpointUrl !== undefined && o.bufferInterval !== undefined)
    throw new InvalidOptionError(
      '--buffer-interval belongs to the running endpoint: give it to `pnpm lab local`.',
      { value: o.bufferInterval },
    );

  const steps = loadSteps(o, end);
  const faults =
    o.faultThrottle !== undefined || o.faultRecordFailures !== undefined
      ? { throttleShare: o.faultThrottle ?? 0, recordFailureShare: o.faultRecordFailures ?? 0, seed: o.seed }
      : undefined;
  const target = await openTarget({
    target: kind,
    dataDir,
    ...(o.endpointUrl !== undefined ? { endpointUrl: o.endpointUrl } : {}),
    outputsFile: o.outputsFile,
    ...(interval.seconds !== undefined ? { bufferIntervalSeconds: interval.seconds } : {}),
    ...(interval.reason ? { bufferIntervalReason: interval.reason } : {}),
    ...(faults ? { faults } : {}),
  });
  const interrupt = abortOnSigint();
  const reports: LoadReport[] = [];
  let interruptedWait = false;
  try {
    await requireAwsCredentials(target);
    // The endpoint's counters cover its whole life (a running endpoint's, or a lake's): this load is the difference.
    const before = await streamStats(target);
    console.error(`${target.headline ?? target.banner[0]} · ${await bufferLine(target, interval)}`);
    for (const step of steps) {
      if (interrupt.signal.aborted) {
        console.log(`${step.label}: not sent (interrupted)`);
        continue;
      }
      const report = await sendRecords(target, step.records, {
        label: step.label,
        concurrency: o.concurrency,
        progress: o.progress,
        signal: interrupt.signal,
      });
      reports.push(report);
      console.log(formatAccounting(step.label, report));
      if (loadFailed(report) && target.dataDir) {
        // Retries and failures on a local target can be its data folder (gone, read-only, full): say so.
        const problem = diagnoseDataFolder(target.dataDir, '--data-dir', target.dataDirIdentity);
        if (problem) console.error(`${problem.name}: ${problem.message}`);
      }
      if (target.kind === 'aws') {
        console.error(awsStepLine(report, target.resources.buffering.intervalSeconds));
        continue;
      }
      if (!o.wait || interrupt.signal.aborted) continue;
      // Each step lands before the next is sent, so the smoke test and each burst are commits of their own.
      try {
        await waitForDelivery(target, { onWait: waitRenderer(), signal: interrupt.signal });
      } catch (error) {
        if (!(error instanceof WaitInterruptedError)) throw error;
        interruptedWait = true;
      } finally {
        if (process.stderr.isTTY) process.stderr.write('\r\x1b[K');
      }
    }
    const after = await streamStats(target);
    console.log(
      closingLine(target, reports, after && since(after, before), {
        interrupted: interrupt.signal.aborted || interruptedWait,
      }),
    );
    const failed = reports.some(loadFailed) || interrupt.signal.aborted || reports.length < steps.length;
    return failed ? 1 : 0;
  } finally {
    interrupt.dispose();
    await target.close();
  }
}

function loadSteps(o: LoadOptions, end: Date): { label: string; records: OutgoingRecord[] }[] {
  const gen = new FlowGenerator({ seed: o.seed });
  const steps: { label: string; records: OutgoingRecord[] }[] = [];
  if (o.smoke)
    steps.push({
      label: 'smoke test',
      records: flowRecords(gen.smoke(new Date(end.getTime() - o.hours * 3600_000))),
    });
  if (o.count > 0) {
    const from = new Date(end.getTime() - o.hours * 3600_000);
    steps.push({ label: `main load`, records: flowRecords(gen.batch({ count: o.count, from, to: end })) });
  }
  for (let i = 0; i < o.bursts; i++) {
    steps.push({
      label: `burst ${i + 1}`,
      records: flowRecords(gen.burst({ at: end, count: o.burstSize, seconds: 30 })),
    });
  }
  if (o.bad > 0) {
    const goodOnes: FlowRecord[] = new FlowGenerator({ seed: o.seed + 1 }).burst({ at: end, count: o.bad });
    steps.push({ label: 'bad records', records: badLines(makeBadRecords(o.seed, goodOnes)) });
  }
  return steps;
}

/** The buffer the steps wait out, and why it is that long. */
async function bufferLine(
  target: LabTarget,
  interval: { seconds?: number; reason?: string },
): Promise<string> {
  const unit = target.resources.buffering.intervalSeconds;
  if (target.kind === 'aws') return `Firehose buffer ${unit} s (as deployed)`;
  if (!target.dataDir) {
    const running = (await streamStats(target))?.intervalSeconds;
    return `Firehose buffer ${running ?? '?'} s (the running endpoint's: \`pnpm lab local --buffer-interval\` sets it)`;
  }
  if (interval.seconds === undefined)
    return `Firehose buffer ${unit} s (the unit's, as on AWS: --buffer-interval unit)`;
  return `Firehose buffer ${interval.seconds} s (${
    interval.reason
      ? `as \`pnpm lab\`; --buffer-interval unit waits the unit's ${unit} s`
      : `--buffer-interval; the unit's is ${unit} s`
  })`;
}

async function streamStats(target: LabTarget): Promise<LocalStreamStats | undefined> {
  if (!target.localUrl) return undefined;
  try {
    return (await localFirehoseStats(target.localUrl))[target.resources.streamName];
  } catch {
    return undefined;
  }
}

/** On AWS nothing is waited for: what the step's accepted records become, and when (never, for none). */
export function awsStepLine(report: Pick<LoadReport, 'accepted'>, intervalSeconds: number): string {
  return report.accepted === 0
    ? 'Firehose accepted none of them: nothing will land in the table.'
    : `Firehose commits the ${formatCount(report.accepted)} accepted within its buffer interval (${intervalSeconds} s).`;
}

/** The counters' growth since `before` (the stream's counters are cumulative). */
function since(after: LocalStreamStats, before: LocalStreamStats | undefined): LocalStreamStats {
  const d = (k: 'recordsReceived' | 'recordsDelivered' | 'recordsFailed' | 'commits') =>
    after[k] - (before?.[k] ?? 0);
  return {
    ...after,
    recordsReceived: d('recordsReceived'),
    recordsDelivered: d('recordsDelivered'),
    recordsFailed: d('recordsFailed'),
    commits: d('commits'),
  };
}

/**
 * How the wait shows itself: in a terminal a countdown redrawn in place; otherwise (CI, a pipe) a line when the
 * wait starts and every WAIT_LINE_EVERY_SECONDS, so a log never goes silent for a whole interval.
 */
export function waitRenderer(
  stream: { isTTY?: boolean; write(text: string): unknown } = process.stderr,
): (message: string, status: WaitStatus) => void {
  let lastLine = -Infinity;
  let lastText = '';
  return (message, status) => {
    if (stream.isTTY) {
      if (message !== lastText) stream.write(`\r\x1b[K${message}`);
      lastText = message;
      return;
    }
    const now = Date.now();
    if (now - lastLine < WAIT_LINE_EVERY_SECONDS * 1000) return;
    lastLine = now;
    stream.write(`${message} (waited ${status.waitedSeconds} s)\n`);
  };
}

/** The last line: what was delivered, what failed and where bad records went, or what was not waited for. */
export function closingLine(
  target: LabTarget,
  reports: readonly LoadReport[],
  stats: LocalStreamStats | undefined,
  how: { interrupted: boolean },
): string {
  const accepted = reports.reduce((n, r) => n + r.accepted, 0);
  const lost = reports.reduce((n, r) => n + r.failedForGood + r.notSent, 0);
  const { namespace, table, errorBucketName, errorPrefix } = target.resources;
  const errors = `s3://${errorBucketName}/${errorPrefix}`;
  const notAccepted = lost > 0 ? `; ${formatCount(lost)} were not accepted (see the accounting above)` : '';
  if (target.kind === 'aws')
    return `done: Firehose accepted ${formatCount(accepted)} records${notAccepted}; it delivers them to ${namespace}.${table} within its buffer interval, bad ones to ${errors}.`;
  if (!stats) return `done: ${formatCount(accepted)} records accepted${notAccepted}.`;
  const pending = stats.recordsReceived - stats.recordsDelivered - stats.recordsFailed;
  const failed =
    stats.recordsFailed > 0
      ? `; ${formatCount(stats.recordsFailed)} failed delivery and went to the error bucket, ${errors}, with their raw bytes`
      : '';
  if (pending > 0) {
    const why = how.interrupted ? 'interrupted' : 'not waited for (--no-wait)';
    return (
      `${why}: ${formatCount(pending)} records are still in Firehose's buffer` +
      (target.dataDir
        ? ', and the endpoint delivers them now, as it stops (they are in its log: nothing acknowledged is lost)'
        : `; the running endpoint delivers them within its buffer interval (${stats.intervalSeconds ?? '?'} s)`) +
      `; delivered so far: ${formatCount(stats.recordsDelivered)} to ${namespace}.${table}${failed}${notAccepted}.`
    );
  }
  return `done: ${formatCount(stats.recordsDelivered)} records delivered to ${namespace}.${table} in ${formatCount(stats.commits)} commits${failed}${notAccepted}.`;
}
