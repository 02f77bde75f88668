// What a run used of each AWS service, measured at its end through the same APIs on both targets: the lab's
// tables through the Iceberg REST catalog (every commit, what it added and removed, and what the bucket holds),
// Athena's own query history of the lab's workgroups (the snapshot Lambdas' queries too), the general purpose
// buckets through S3, the alarms through CloudWatch; plus what the experiments recorded (every load through
// Firehose, the snapshot pipeline's executions). The cost estimate (src/cost) prices it.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  BatchGetQueryExecutionCommand,
  ListQueryExecutionsCommand,
  ListWorkGroupsCommand,
} from '@aws-sdk/client-athena';
import { DescribeAlarmsCommand } from '@aws-sdk/client-cloudwatch';
import { ListObjectsV2Command, NoSuchBucket } from '@aws-sdk/client-s3';
import type { TableMetadata } from 'iceberg-js';
import type { ResolvedLab, SnapshotsInputs } from '@loglake/units';
import type { AthenaQueryUse, BucketUse, CompactionUse, RunUsage } from '../cost/usage';
import { icebergCatalog } from '../iceberg/catalog';
import type { ExperimentReport, TimelineEvent } from '../report/lab-report';
import type { LabTarget } from '../target/lab-target';
import { snapshotHandlerConfig } from '../target/snapshots-unit';
import type { QueryRecord, SendRecord } from './context';

/** Metadata files each commit writes besides its data and delete files: metadata.json, a manifest list, a manifest. */
export const METADATA_FILES_PER_COMMIT = 3;

export interface LabTable {
  /** `namespace.table` */
  name: string;
  metadata: TableMetadata;
}

/** Every table of the lab's table bucket, with its current metadata (namespaces and tables listed, then loaded). */
export async function readLabTables(target: Pick<LabTarget, 'resources' | 'localUrl' | 's3tables'>) {
  const catalog = icebergCatalog(target);
  const tables: LabTable[] = [];
  for (const ns of (await catalog.listNamespaces()).namespaces) {
    for (const id of (await catalog.listTables(ns)).identifiers) {
      tables.push({ name: `${id.namespace.join('.')}.${id.name}`, metadata: await catalog.loadTable(id) });
    }
  }
  return tables;
}

const summaryNumber = (s: Record<string, string> | undefined, ...keys: string[]) =>
  keys.reduce((n, k) => n + (Number(s?.[k]) || 0), 0);

/** Every commit of the tables, oldest first, with what it added and removed. */
export function timelineOf(tables: readonly LabTable[]): TimelineEvent[] {
  const events: TimelineEvent[] = [];
  for (const t of tables) {
    for (const s of t.metadata.snapshots ?? []) {
      const summary = s.summary as Record<string, string>;
      events.push({
        table: t.name,
        committedAt: new Date(s['timestamp-ms']).toISOString(),
        snapshotId: String(s['snapshot-id']),
        operation: s.summary.operation,
        addedRecords: summaryNumber(summary, 'added-records'),
        addedFiles: summaryNumber(summary, 'added-data-files', 'added-delete-files'),
        removedFiles: summaryNumber(summary, 'deleted-data-files', 'removed-delete-files'),
        addedBytes: summaryNumber(summary, 'added-files-size'),
        removedBytes: summaryNumber(summary, 'removed-files-size'),
      });
    }
  }
  return events.sort((a, b) => a.committedAt.localeCompare(b.committedAt));
}

/** Every commit either reading saw, once, in time order; those gone by the end (expired) say so. */
export function mergeTimelines(early: TimelineEvent[], late: TimelineEvent[]): TimelineEvent[] {
  const key = (e: TimelineEvent) => `${e.table} ${e.snapshotId}`;
  const kept = new Set(late.map(key));
  const byKey = new Map<string, TimelineEvent>();
  for (const e of early) byKey.set(key(e), kept.has(key(e)) ? e : { ...e, expired: true });
  for (const e of late) byKey.set(key(e), e);
  return [...byKey.values()].sort((a, b) => a.committedAt.localeCompare(b.committedAt));
}

/** Names each commit with the experiment that was running when it was made. */
export function attributeCommits(
  events: readonly TimelineEvent[],
  experiments: readonly Pick<ExperimentReport, 'name' | 'startedAt' | 'durationMs'>[],
): TimelineEvent[] {
  const spans = experiments
    .filter((e) => e.startedAt)
    .map((e) => {
      const start = Date.parse(e.startedAt as string);
      return { name: e.name, start, end: start + e.durationMs };
    });
  return events.map((e) => {
    const t = Date.parse(e.committedAt);
    // Commit times are whole milliseconds; a span's end is rounded: allow the last millisecond.
    const span = spans.find((s) => t >= s.start - 1 && t <= s.end + 1);
    return span ? { ...e, experiment: span.name } : e;
  });
}

/**
 * This run's commits: those made at or after its start. A data folder (or a deployed bucket) that an earlier run
 * used keeps that run's commits in the tables' history; they are not this run's usage.
 */
export function commitsSince(events: readonly TimelineEvent[], startedAt: Date): TimelineEvent[] {
  return events.filter((e) => Date.parse(e.committedAt) >= startedAt.getTime());
}

const HOUR_MS = 3_600_000;

/**
 * Metric-hours sent: for each custom metric, the clock hours in which an execution that sent it ran (from its start
 * to its end). CloudWatch prorates a custom metric by the hour and meters it only in the hours it is sent, so these
 * are what a month's fee is divided by, not the hours the lab exists.
 */
export function metricHoursSent(
  runs: readonly { metrics: readonly string[]; startedAt: string; finishedAt: string }[],
): number {
  const hours = new Map<string, Set<number>>();
  for (const r of runs) {
    const from = Math.floor(Date.parse(r.startedAt) / HOUR_MS);
    const to = Math.floor(Date.parse(r.finishedAt) / HOUR_MS);
    if (!Number.isFinite(from) || !Number.isFinite(to)) continue;
    for (const m of r.metrics) {
      const seen = hours.get(m) ?? new Set<number>();
      for (let h = from; h <= to; h++) seen.add(h);
      hours.set(m, seen);
    }
  }
  return [...hours.values()].reduce((n, h) => n + h.size, 0);
}

/** Commits that wrote files (not the compactions S3 Tables runs itself), and the objects they wrote. */
export function commitUse(events: readonly TimelineEvent[]) {
  const writes = events.filter((e) => e.operation !== 'replace');
  return {
    commits: writes.length,
    objectsWritten: writes.reduce((n, e) => n + (e.addedFiles ?? 0) + METADATA_FILES_PER_COMMIT, 0),
  };
}

/** What the compactions read, by the strategy S3 Tables prices them with (sort during the sort-order experiment). */
export function compactionUse(events: readonly TimelineEvent[]): CompactionUse[] {
  const out: CompactionUse[] = [];
  for (const strategy of ['binpack', 'sort'] as const) {
    const runs = events.filter(
      (e) => e.operation === 'replace' && (e.experiment === 'sort-order') === (strategy === 'sort'),
    );
    if (runs.length === 0) continue;
    out.push({
      strategy,
      commits: runs.length,
      objects: runs.reduce((n, e) => n + (e.removedFiles ?? 0), 0),
      bytes: runs.reduce((n, e) => n + (e.removedBytes ?? 0), 0),
    });
  }
  return out;
}

function walk(dir: string): { objects: number; bytes: number } {
  let objects = 0;
  let bytes = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      const inner = walk(path);
      objects += inner.objects;
      bytes += inner.bytes;
    } else if (entry.isFile()) {
      objects++;
      bytes += statSync(path).size;
    }
  }
  return { objects, bytes };
}

/**
 * What the table bucket holds. Locally each table's location is a folder: every object in it is counted (data,
 * delete, manifest and metadata files, those of every kept snapshot). On AWS the objects cannot be listed: the
 * current snapshot's data and delete files, and the metadata files of every kept snapshot, are counted from Iceberg.
 */
export function tableStorage(tables: readonly LabTable[]): {
  objects: number;
  bytes: number;
  source: string;
} {
  let objects = 0;
  let bytes = 0;
  let estimated = false;
  for (const t of tables) {
    const m = t.metadata;
    const location = m.location ?? '';
    if (location.startsWith('file:')) {
      const inner = walk(fileURLToPath(location));
      objects += inner.objects;
      bytes += inner.bytes;
      continue;
    }
    estimated = true;
    const current = m.snapshots?.find((s) => s['snapshot-id'] === m['current-snapshot-id']);
    const summary = current?.summary as Record<string, string> | undefined;
    const log = (m as unknown as { 'metadata-log'?: unknown[] })['metadata-log'] ?? [];
    objects +=
      summaryNumber(summary, 'total-data-files', 'total-delete-files') +
      (m.snapshots?.length ?? 0) * (METADATA_FILES_PER_COMMIT - 1) +
      1 +
      log.length;
    bytes += summaryNumber(summary, 'total-files-size');
  }
  return {
    objects,
    bytes,
    source: estimated
      ? "counted from Iceberg's metadata: the current files, and the metadata of every kept snapshot"
      : 'every object in the table folders',
  };
}

/** The lab's workgroups: its own and those of its units (they share its name prefix). */
const labWorkgroup = (name: string, prefix: string) => name === prefix || name.startsWith(`${prefix}-`);

/** Athena's own history of the lab's workgroups since `since`: every query, whoever ran it. */
export async function athenaHistory(
  target: Pick<LabTarget, 'athena'>,
  prefix: string,
  since: Date,
): Promise<(AthenaQueryUse & { submittedAt: number })[]> {
  const groups: string[] = [];
  let token: string | undefined;
  do {
    const page = await target.athena.send(new ListWorkGroupsCommand({ NextToken: token }));
    groups.push(...(page.WorkGroups ?? []).map((w) => w.Name ?? '').filter((n) => labWorkgroup(n, prefix)));
    token = page.NextToken;
  } while (token);
  const out: (AthenaQueryUse & { submittedAt: number })[] = [];
  for (const workgroup of groups) {
    let next: string | undefined;
    let older = false;
    do {
      const page = await target.athena.send(
        new ListQueryExecutionsCommand({ WorkGroup: workgroup, NextToken: next, MaxResults: 50 }),
      );
      const batch = page.QueryExecutionIds ?? [];
      if (batch.length === 0) break;
      const described = await target.athena.send(
        new BatchGetQueryExecutionCommand({ QueryExecutionIds: batch }),
      );
      for (const q of described.QueryExecutions ?? []) {
        const submitted = q.Status?.SubmissionDateTime?.getTime() ?? 0;
        if (submitted < since.getTime()) {
          older = true;
          continue;
        }
        out.push({
          workgroup,
          state: q.Status?.State ?? 'UNKNOWN',
          bytesScanned: q.Statistics?.DataScannedInBytes ?? 0,
          ...(q.StatementType ? { statementType: q.StatementType } : {}),
          submittedAt: submitted,
        });
      }
      next = page.NextToken;
      // Listed newest first: once a page reaches before the run, the rest are older still.
    } while (next && !older);
  }
  return out.sort((a, b) => a.submittedAt - b.submittedAt);
}

/** What a bucket holds, and the objects written at or after `since` (this run's PUTs; S3 lists LastModified). */
export async function bucketUse(
  target: Pick<LabTarget, 's3'>,
  bucket: string,
  role: string,
  since: Date,
): Promise<BucketUse> {
  let objects = 0;
  let bytes = 0;
  let written = 0;
  let token: string | undefined;
  try {
    do {
      const page = await target.s3.send(
        new ListObjectsV2Command({ Bucket: bucket, ContinuationToken: token }),
      );
      for (const o of page.Contents ?? []) {
        objects++;
        bytes += o.Size ?? 0;
        // AWS lists LastModified to the second: an object written in the run's first second reads as before it and is
        // left out (the lab writes nothing that early), where rounding `since` down would count an earlier run's.
        if ((o.LastModified?.getTime() ?? 0) >= since.getTime()) written++;
      }
      token = page.NextContinuationToken;
    } while (token);
  } catch (error) {
    // A bucket a partial run never created holds nothing.
    if (!(error instanceof NoSuchBucket)) throw error;
  }
  return { role, objects, bytes, written };
}

/**
 * The alarms the stacks deploy. On AWS, those of the lab (its name prefix). Locally the endpoint holds only the
 * stream's alarm; the snapshots stack adds one for a timed-out execution and one per snapshot for staleness
 * (stacks/snapshots/stack.ts), so they are counted from the units.
 */
async function alarmCount(target: LabTarget, lab: ResolvedLab): Promise<{ count: number; source: string }> {
  if (!target.localUrl) {
    let count = 0;
    let token: string | undefined;
    do {
      const page = await target.cloudwatch.send(
        new DescribeAlarmsCommand({ AlarmNamePrefix: `${lab.namePrefix}-`, NextToken: token }),
      );
      count += (page.MetricAlarms ?? []).length;
      token = page.NextToken;
    } while (token);
    return { count, source: `the deployed alarms named ${lab.namePrefix}-*` };
  }
  const snapshots = lab.units.snapshots?.inputs as SnapshotsInputs | undefined;
  const stream = target.resources.failedRowsAlarm ? 1 : 0;
  const pipeline = snapshots ? 1 + snapshots.snapshots.length : 0;
  return {
    count: stream + pipeline,
    source: `the stacks': ${stream} on the stream's failed rows${snapshots ? `, ${pipeline} on the daily snapshot` : ''}`,
  };
}

const numberOf = (m: ExperimentReport['measures'] | undefined, key: string) => Number(m?.[key] ?? 0) || 0;

/** The handlers' custom metrics where they were seen (the local endpoint captures their EMF); null elsewhere. */
function customMetricUse(
  target: Pick<LabTarget, 'localUrl'>,
  daily: ExperimentReport['measures'] | undefined,
): RunUsage['customMetrics'] {
  const unseen = (source: string) => ({ count: null, metricHours: null, dailyMetricHours: null, source });
  if (!target.localUrl)
    return unseen('not seen from the lab on AWS (EMF reaches CloudWatch through the logs)');
  if (daily?.customMetrics === undefined) return unseen('the daily snapshot did not run in this report');
  return {
    count: numberOf(daily, 'customMetrics'),
    metricHours: numberOf(daily, 'customMetricHours'),
    dailyMetricHours: numberOf(daily, 'dailyCustomMetricHours'),
    source: "the snapshot handlers' EMF metrics, captured",
  };
}

export interface UsageInput {
  target: LabTarget;
  lab: ResolvedLab;
  startedAt: Date;
  finishedAt: Date;
  experiments: readonly ExperimentReport[];
  /** The run's timeline, its commits attributed to experiments. */
  timeline: readonly TimelineEvent[];
  tables: readonly LabTable[];
  sends: readonly SendRecord[];
  /** The lab's own record of its queries: used when the workgroups' history cannot be read. */
  queries: readonly QueryRecord[];
}

export async function measureUsage(input: UsageInput): Promise<RunUsage> {
  const { target, lab, experiments } = input;
  const measures = (name: string) => experiments.find((e) => e.name === name && !e.error)?.measures;
  let history: Awaited<ReturnType<typeof athenaHistory>> | undefined;
  let historyError = '';
  try {
    history = await athenaHistory(target, lab.namePrefix, input.startedAt);
  } catch (error) {
    historyError = error instanceof Error ? error.name : String(error);
  }
  const athena: RunUsage['athena'] = history
    ? {
        source: "the workgroups' query history",
        queries: history.map(({ submittedAt: _submitted, ...q }) => q),
      }
    : {
        source: `the lab's own record (the query history could not be read: ${historyError})`,
        queries: input.queries.map((q) => ({
          workgroup: target.resources.workgroup,
          state: 'SUCCEEDED',
          bytesScanned: q.dataScannedInBytes,
        })),
      };
  const config = snapshotHandlerConfig(lab, target.resources);
  const since = input.startedAt;
  const buckets = [await bucketUse(target, target.resources.errorBucketName, 'error output', since)];
  if (config) buckets.push(await bucketUse(target, config.snapshotBucket, 'snapshots', since));
  const timeline = commitsSince(input.timeline, since);
  const daily = measures('daily-snapshot');
  const ranSnapshots = daily !== undefined && daily.executions !== undefined;
  // The daily run's queries: the snapshot workgroup's, while its published execution ran.
  const from = Date.parse(String(daily?.dailyStartedAt));
  const to = Date.parse(String(daily?.dailyFinishedAt));
  const dailyQueries = (history ?? []).filter(
    (q) => q.workgroup === String(daily?.workgroup) && q.submittedAt >= from && q.submittedAt <= to,
  );
  return {
    wallHours: (input.finishedAt.getTime() - input.startedAt.getTime()) / 3_600_000,
    firehose: {
      records: input.sends.reduce((n, s) => n + s.records, 0),
      bytes: input.sends.reduce((n, s) => n + s.jsonBytes, 0),
    },
    athena,
    tables: {
      ...tableStorage(input.tables),
      ...commitUse(timeline),
      queriesReadingData: athena.queries.filter((q) => q.bytesScanned > 0).length,
      compaction: compactionUse(timeline),
    },
    buckets,
    alarms: await alarmCount(target, lab),
    customMetrics: customMetricUse(target, daily),
    notifications: numberOf(measures('bad-records'), 'notifications') + numberOf(daily, 'failedExecutions'),
    ...(ranSnapshots
      ? {
          snapshots: {
            executions: numberOf(daily, 'executions'),
            memoryMb: numberOf(daily, 'lambdaMemoryMb'),
            all: {
              stateTransitions: numberOf(daily, 'stateTransitions'),
              lambdaInvocations: numberOf(daily, 'lambdaInvocations'),
              lambdaMs: numberOf(daily, 'executionMs'),
            },
            daily: {
              stateTransitions: numberOf(daily, 'dailyStateTransitions'),
              lambdaInvocations: numberOf(daily, 'dailyLambdaInvocations'),
              lambdaMs: numberOf(daily, 'dailyExecutionMs'),
              queryBytes: history
                ? dailyQueries.filter((q) => q.state === 'SUCCEEDED').map((q) => q.bytesScanned)
                : null,
              objectsWritten: numberOf(daily, 'dailyObjectsWritten'),
            },
          },
        }
      : {}),
  };
}
