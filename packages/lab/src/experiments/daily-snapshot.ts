// Part 3: the daily snapshot. The snapshots unit's state machine runs against the lab's own flow table: locally
// the real definition on aws-local-stepfunctions with both handlers in-process (as `pnpm lab snapshot`), on AWS
// the deployed state machine (as `pnpm lab snapshot --target aws`). Then the analysts' query is asked of the
// published snapshot and of the full history, and both answers and bytes scanned are compared.
//
// The lab's flows span the 24 h before it started, so they hold no complete UTC day: the first run is refused by
// the completeness rule (the partial day, with its missing hours). The experiment then sends one extra day of
// history — the UTC day before the lab's first flow, a few flows in every hour, through Firehose like every other
// load — and runs again: that day is complete (all hours present, data landed beyond its end) and is published.
import { resolve } from 'node:path';
import { ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import { GetExecutionHistoryCommand, SFNClient } from '@aws-sdk/client-sfn';
import type { FlowRecord } from '@loglake/flowgen';
import {
  compareAnalystsQuery,
  localSnapshotClients,
  provisionLocalSnapshots,
  publishedSnapshot,
  runSnapshotOffline,
  runSnapshotOnAws,
  type HandlerClients,
  type LocalClients,
} from '@loglake/snapshot-lambdas/offline';
import { STATE } from '@loglake/snapshot-lambdas';
import { resolveLab, type SnapshotsInputs } from '@loglake/units';
import { makeSnapshotClients } from './snapshot-clients';
import { metricHoursSent } from './run-usage';
import { ExperimentFailedError } from '../errors';
import { formatBytes, formatCount } from '../report/format';
import { DEFAULT_OUTPUTS_FILE } from '../target/aws-outputs';
import {
  readStateMachineArn,
  snapshotHandlerConfig,
  snapshotOutputsCommand,
  snapshotWorkgroupCutoff,
} from '../target/snapshots-unit';
import type { Experiment, ExperimentContext } from './context';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** What one execution used, for the run's cost: state transitions, Lambda invocations, wall time. */
export interface ExecutionUse {
  transitions: number;
  lambdaInvocations: number;
  ms: number;
  startedAt: string;
  finishedAt: string;
}

/** One state-machine execution, however it ran. */
interface SnapshotRun {
  status: string;
  error: string | null;
  cause: string | null;
  use: ExecutionUse;
  /** Custom metrics the handlers published (EMF), as `snapshot/metric`; empty when not captured. */
  metrics: string[];
}

const LAMBDA_STATES: ReadonlySet<string> = new Set([STATE.resolve, STATE.build]);

/**
 * Transitions and Lambda invocations from the offline run's event lines ("→ State", "  ↻ State retried"): every
 * state entered is a transition, and so is every retry (Step Functions bills retries as transitions); a Lambda
 * state entered or retried is one invocation.
 */
export function offlineExecutionCounts(events: readonly string[]) {
  let transitions = 0;
  let lambdaInvocations = 0;
  for (const line of events) {
    const entered = /^→ (\S+)/.exec(line)?.[1];
    const retried = /^\s*↻ (\S+) retried/.exec(line)?.[1];
    const state = entered ?? retried;
    if (!state) continue;
    transitions++;
    if (LAMBDA_STATES.has(state)) lambdaInvocations++;
  }
  return { transitions, lambdaInvocations };
}

/** The same from an AWS execution history: each state entered, and each Lambda task scheduled. */
export function historyExecutionCounts(events: readonly { type?: string }[]) {
  return {
    transitions: events.filter((e) => e.type?.endsWith('StateEntered')).length,
    lambdaInvocations: events.filter(
      (e) => e.type === 'LambdaFunctionScheduled' || e.type === 'TaskScheduled',
    ).length,
  };
}

async function awsExecutionCounts(sfn: SFNClient, executionArn: string) {
  const events: { type?: string }[] = [];
  let nextToken: string | undefined;
  do {
    const page = await sfn.send(
      new GetExecutionHistoryCommand({ executionArn, maxResults: 1000, nextToken }),
    );
    events.push(...(page.events ?? []));
    nextToken = page.nextToken;
  } while (nextToken);
  return historyExecutionCounts(events);
}

const timed = async <T>(work: () => Promise<T>) => {
  const startedAt = new Date();
  const t0 = performance.now();
  const result = await work();
  return {
    result,
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    ms: Math.round(performance.now() - t0),
  };
};

type Runner = (date?: string) => Promise<SnapshotRun>;

/** `snapshots.state_machine_arn` from the deployed stacks' outputs, or why the experiment is skipped. */
export function deployedStateMachineArn(file: string, units: readonly string[]): string | { skip: string } {
  const arn = readStateMachineArn(file);
  if (typeof arn === 'string') return arn;
  return {
    skip: `${arn.missing}; deploy the snapshots unit and write its outputs (\`${snapshotOutputsCommand(file, units)}\`)`,
  };
}

/** Flows in every hour of one UTC day (so the completeness rule sees all 24 hours), in arrival order per hour. */
function historyDay(ctx: ExperimentContext, day: string, perHour: number): FlowRecord[] {
  const gen = ctx.generator();
  const start = Date.parse(`${day}T00:00:00Z`);
  const records: FlowRecord[] = [];
  for (let h = 0; h < 24; h++) {
    const from = new Date(start + h * HOUR_MS);
    records.push(...gen.batch({ count: perHour, from, to: new Date(from.getTime() + HOUR_MS) }));
  }
  return records;
}

/** Flows per hour of the extra day: a tenth of the main load's hourly rate, at least 5. */
export const historyPerHour = (records: number, hours: number) =>
  Math.max(5, Math.round(records / Math.max(1, hours) / 10));

/** The Lambda's message from a Step Functions cause (`{"errorType","errorMessage"}` JSON), first line. */
function firstLine(cause: string | null): string {
  let text = cause ?? '';
  try {
    text = (JSON.parse(text) as { errorMessage?: string }).errorMessage ?? text;
  } catch {
    // Not JSON: print it as it is.
  }
  return text.split('\n')[0]?.slice(0, 900) ?? '';
}

export const snapshots: Experiment = {
  name: 'daily-snapshot',
  title: 'Daily snapshot vs full history',
  part: 3,
  async run(ctx) {
    const lab = await resolveLab();
    const config = snapshotHandlerConfig(lab, ctx.target.resources);
    if (!config) return skipped(`lab ${lab.labId} has no snapshots unit (${lab.path}/snapshots.ts)`);
    const def = config.definitions[0];
    if (!def) return skipped('the snapshots unit defines no snapshot');
    const clients: LocalClients = ctx.target.localUrl
      ? localSnapshotClients(ctx.target.localUrl)
      : makeSnapshotClients(ctx.target.resources.region);
    const sfn = ctx.target.localUrl ? undefined : new SFNClient({ region: ctx.target.resources.region });
    let roleClients: HandlerClients | undefined;
    try {
      let runner: Runner;
      if (ctx.target.localUrl) {
        // The lab provisioned the source table; this adds the snapshot bucket, Glue database and table.
        await provisionLocalSnapshots(clients, config, {
          workgroupCutoffBytes: snapshotWorkgroupCutoff(lab),
        });
        // With authorization, each handler runs as its own execution role, as Lambda runs it.
        const handlerClients = await lambdaRoleClients(ctx);
        roleClients = handlerClients;
        runner = async (date) => {
          const { result: run, ...time } = await timed(() =>
            runSnapshotOffline(clients, config, { snapshot: def.name, date }, undefined, handlerClients),
          );
          const e = run.execution;
          // The execution fails as SnapshotPipelineFailed; the step's own error is in the captured alert.
          const alert = e.alerts[0]?.message ?? '';
          return {
            status: e.status,
            error: /^Error: (.*)$/m.exec(alert)?.[1] ?? e.error?.error ?? null,
            cause: /^Cause: (.*)$/m.exec(alert)?.[1] ?? e.error?.cause ?? null,
            use: { ...offlineExecutionCounts(e.events), ...time },
            metrics: run.metrics.flatMap((m) =>
              Object.entries(m.values)
                .filter(([, v]) => v !== undefined)
                .map(([k]) => `${m.snapshot}/${k}`),
            ),
          };
        };
      } else {
        const arn = deployedStateMachineArn(
          resolve(ctx.target.outputsFile ?? DEFAULT_OUTPUTS_FILE),
          lab.order,
        );
        if (typeof arn !== 'string') return skipped(arn.skip);
        ctx.log(`  starting ${arn} — this is AWS, not the local endpoint`);
        runner = async (date) => {
          const { result: r, ...time } = await timed(() =>
            runSnapshotOnAws(sfn as SFNClient, { stateMachineArn: arn, snapshot: def.name, date }),
          );
          const use = { ...(await awsExecutionCounts(sfn as SFNClient, r.executionArn)), ...time };
          // The handlers' EMF metrics reach CloudWatch through their logs: not seen from here.
          if (r.status === 'SUCCEEDED')
            return { status: r.status, error: null, cause: null, use, metrics: [] };
          return {
            status: r.status,
            ...(await caughtError(sfn as SFNClient, r.executionArn)),
            use,
            metrics: [],
          };
        };
      }

      const first = await runner();
      const refused = first.status !== 'SUCCEEDED';
      if (refused && first.error !== 'NoCompleteDayError') {
        throw new ExperimentFailedError(
          `The snapshot state machine failed: ${first.error}: ${firstLine(first.cause)}`,
          { value: first },
        );
      }
      let extra: { day: string; records: number } | undefined;
      let rerunDay: string | undefined;
      if (refused) {
        // The evidence lists every day of the lookback; the days that hold flows are the story.
        const evidence = firstLine(first.cause).replace(
          /\d{4}-\d\d-\d\d: hours missing 00-23 \(24 of 24; present none\)( \| )?/g,
          '',
        );
        ctx.log(`  run 1 refused (${first.error}): ${evidence}`);
        const windowEnd = Date.parse(ctx.require('windowEnd', 'load'));
        const day = dayOf(Date.parse(`${dayOf(windowEnd - ctx.scale.hours * HOUR_MS)}T00:00:00Z`) - DAY_MS);
        const perHour = historyPerHour(ctx.scale.records, ctx.scale.hours);
        if (ctx.state.snapshotHistoryDay !== day) {
          ctx.log(
            `  loading one extra day of history, ${day}: ${perHour} flows in each hour, through Firehose`,
          );
          const report = await ctx.send(`history ${day}`, historyDay(ctx, day, perHour));
          ctx.state.snapshotHistoryDay = day;
          ctx.saveState();
          extra = { day, records: report.accepted };
        } else {
          // A re-run (`pnpm lab run daily-snapshot`): the day was sent and may be published already; ask for it.
          extra = { day, records: perHour * 24 };
          rerunDay = day;
        }
      }
      const second = refused ? await runner(rerunDay) : first;
      if (second.status !== 'SUCCEEDED') {
        throw new ExperimentFailedError(
          `The snapshot state machine did not publish${extra ? ` after ${extra.day} was loaded` : ''}: ${second.error}: ${firstLine(second.cause)}`,
          { value: second },
        );
      }
      const published = await publishedSnapshot(clients, config, def.name);
      const day = published.watermark;
      const runs = refused ? [first, second] : [first];
      const written = published.location ? await objectsUnder(clients.s3, published.location) : undefined;
      if (!day)
        throw new ExperimentFailedError('The execution succeeded but no watermark is published.', {
          value: published,
        });

      const t0 = performance.now();
      // The question as the lab's SQL asks it (the lab role, which holds the grants on both tables).
      const cmp = await compareAnalystsQuery({ ...clients, athena: ctx.target.sqlAthena }, config, def, day);
      // compareAnalystsQuery runs both sides back to back; their time is measured together.
      const ms = Math.round(performance.now() - t0);
      ctx.queries.push(
        {
          experiment: ctx.current,
          query: `analysts' query on the snapshot (ms: both queries together)`,
          dataScannedInBytes: cmp.snapshot.bytesScanned,
          ms,
        },
        {
          experiment: ctx.current,
          query: `analysts' query on the full history, ${day} (ms: both queries together)`,
          dataScannedInBytes: cmp.source.bytesScanned,
          ms,
        },
      );
      const how = [
        refused ? 'partial days refused first' : '',
        extra ? `${formatCount(extra.records)} flows of history sent` : '',
      ].filter(Boolean);
      const ratio = cmp.ratio.toFixed(1);
      return {
        result:
          `${cmp.sameAnswer ? 'same answer' : 'DIFFERENT answers'} for ${day}${how.length ? ` (${how.join(', ')})` : ''}; ` +
          `${formatBytes(cmp.source.bytesScanned)} vs ${formatBytes(cmp.snapshot.bytesScanned)} read: ` +
          (cmp.ratio >= 1 ? `${ratio}× less on the snapshot` : `${ratio}×: the snapshot read MORE`),
        measures: {
          watermark: day,
          historyDay: extra?.day ?? '',
          historyRecords: extra?.records ?? 0,
          partialDayRefused: refused ? 'yes' : 'no',
          sameAnswer: cmp.sameAnswer && cmp.snapshot.rows.length > 0 ? 'yes' : 'no',
          snapshotBytes: cmp.snapshot.bytesScanned,
          historyBytes: cmp.source.bytesScanned,
          ratio: cmp.ratio,
          topSources: cmp.snapshot.rows.length,
          // What the pipeline used (the cost estimate): all executions, and the one that published (a day's run).
          executions: runs.length,
          failedExecutions: runs.filter((r) => r.status !== 'SUCCEEDED').length,
          stateTransitions: runs.reduce((n, r) => n + r.use.transitions, 0),
          lambdaInvocations: runs.reduce((n, r) => n + r.use.lambdaInvocations, 0),
          executionMs: runs.reduce((n, r) => n + r.use.ms, 0),
          dailyStateTransitions: second.use.transitions,
          dailyLambdaInvocations: second.use.lambdaInvocations,
          dailyExecutionMs: second.use.ms,
          dailyStartedAt: second.use.startedAt,
          dailyFinishedAt: second.use.finishedAt,
          dailyObjectsWritten: written?.objects ?? 0,
          snapshotBytesStored: written?.bytes ?? 0,
          lambdaMemoryMb: lambdaMemoryMb(lab),
          customMetrics: new Set(runs.flatMap((r) => r.metrics)).size,
          // Metric-hours: CloudWatch meters a custom metric only in the hours it is sent.
          customMetricHours: metricHoursSent(runs.map((r) => ({ metrics: r.metrics, ...r.use }))),
          dailyCustomMetricHours: metricHoursSent([{ metrics: second.metrics, ...second.use }]),
          workgroup: config.workgroup,
        },
        checks: {},
      };
    } finally {
      clients.destroy();
      roleClients?.resolveWatermark.destroy();
      roleClients?.buildSnapshot.destroy();
      sfn?.destroy();
    }
  },
};

/**
 * The handlers' clients as Lambda would run them: with the session credentials of each function's execution role
 * (the endpoint's stand-in for Lambda assuming it, which the role's trust policy must allow; handed out in-process
 * only). Undefined when the endpoint does not enforce authorization (any credentials do) or is not in-process (the
 * banner says the handlers run as the deployer then).
 */
async function lambdaRoleClients(ctx: ExperimentContext): Promise<HandlerClients | undefined> {
  const url = ctx.target.localUrl;
  const { resolveWatermark, buildSnapshot } = ctx.target.resources.roles;
  const serviceCredentials = ctx.target.serviceCredentials;
  if (!url || !ctx.target.authorized || !serviceCredentials) return undefined;
  if (!resolveWatermark || !buildSnapshot)
    throw new ExperimentFailedError(
      'The synthesized snapshots stack names no Lambda roles (outputs resolve_watermark_role_arn, build_snapshot_role_arn).',
      { value: ctx.target.resources.roles },
    );
  const asRole = async (roleArn: string) =>
    localSnapshotClients(url, serviceCredentials({ service: 'lambda.amazonaws.com', roleArn }));
  return { resolveWatermark: await asRole(resolveWatermark), buildSnapshot: await asRole(buildSnapshot) };
}

/**
 * What the failed step threw, on AWS: the execution itself fails as SnapshotPipelineFailed, so read the alert
 * the NotifyFailure state was given (the caught error and its cause) from the execution history.
 */
export async function caughtError(
  sfn: SFNClient,
  executionArn: string,
): Promise<Pick<SnapshotRun, 'error' | 'cause'>> {
  const history = await sfn.send(
    new GetExecutionHistoryCommand({ executionArn, reverseOrder: true, maxResults: 100 }),
  );
  const entered = history.events?.find(
    (e) => e.type === 'TaskStateEntered' && e.stateEnteredEventDetails?.name === STATE.notify,
  );
  const input = JSON.parse(entered?.stateEnteredEventDetails?.input ?? '{}') as {
    alert?: { error?: string; cause?: string };
  };
  return { error: input.alert?.error ?? null, cause: input.alert?.cause ?? null };
}

/** Objects and bytes under an s3:// location (the published run's files). */
async function objectsUnder(s3: S3Client, location: string): Promise<{ objects: number; bytes: number }> {
  const m = /^s3:\/\/([^/]+)\/?(.*)$/.exec(location);
  if (!m) return { objects: 0, bytes: 0 };
  let objects = 0;
  let bytes = 0;
  let token: string | undefined;
  do {
    const page = await s3.send(
      new ListObjectsV2Command({ Bucket: m[1], Prefix: m[2], ContinuationToken: token }),
    );
    for (const o of page.Contents ?? []) {
      objects++;
      bytes += o.Size ?? 0;
    }
    token = page.NextContinuationToken;
  } while (token);
  return { objects, bytes };
}

/** The handlers' memory, as the snapshots unit sizes them. */
function lambdaMemoryMb(lab: Awaited<ReturnType<typeof resolveLab>>): number {
  return (lab.units.snapshots?.inputs as SnapshotsInputs | undefined)?.lambda.memoryMb ?? 0;
}

function skipped(reason: string) {
  return { result: `skipped: ${reason}`, measures: { skipped: reason }, checks: {} };
}

export const PART3: Experiment[] = [snapshots];
