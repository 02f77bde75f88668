// TEST SUPPORT: a run's usage with round figures (7.3 h is a hundredth of a 730-hour month), and a whole report
// built from experiments' measures as a run builds it, for the cost and HTML report tests.
import { judge } from '../../src/article';
import { estimateCost, GB } from '../../src/cost/estimate';
import type { RunUsage } from '../../src/cost/usage';
import { labCharts } from '../../src/report/charts';
import type { ExperimentReport, LabReport } from '../../src/report/lab-report';

const MiB = 1024 * 1024;

export function sampleUsage(): RunUsage {
  return {
    wallHours: 7.3,
    firehose: { records: 1000, bytes: GB },
    athena: {
      source: "the workgroups' query history",
      queries: [
        { workgroup: 'loglake-01', state: 'SUCCEEDED', bytesScanned: 1, statementType: 'DML' }, // → 10 MiB
        { workgroup: 'loglake-01', state: 'SUCCEEDED', bytesScanned: 0, statementType: 'DML' }, // free
        { workgroup: 'loglake-01', state: 'FAILED', bytesScanned: 100 * MiB, statementType: 'DML' }, // free
        { workgroup: 'loglake-01', state: 'SUCCEEDED', bytesScanned: 0, statementType: 'DDL' }, // free
        // A CTAS (Athena may type it DDL) is billed for what it scans.
        {
          workgroup: 'loglake-01-snapshots',
          state: 'SUCCEEDED',
          bytesScanned: 50 * MiB,
          statementType: 'DDL',
        },
        { workgroup: 'loglake-01', state: 'SUCCEEDED', bytesScanned: 20 * MiB + 1, statementType: 'DML' }, // 21
        { workgroup: 'loglake-01-snapshots', state: 'CANCELLED', bytesScanned: 5 * MiB }, // 10
      ],
    },
    tables: {
      source: 'every object in the table folders',
      objects: 1000,
      bytes: 10 * GB,
      commits: 10,
      objectsWritten: 2000,
      queriesReadingData: 4,
      compaction: [
        { strategy: 'binpack', commits: 1, objects: 1000, bytes: GB },
        { strategy: 'sort', commits: 1, objects: 4, bytes: MiB },
      ],
    },
    // 10 objects held, 10 of them written by this run.
    buckets: [{ role: 'error output', objects: 10, bytes: GB, written: 10 }],
    alarms: { count: 3, source: 'test' },
    // 4 metrics, sent in 2 clock hours by the run's executions and in 1 by the daily one.
    customMetrics: { count: 4, metricHours: 8, dailyMetricHours: 4, source: 'test' },
    notifications: 2,
    snapshots: {
      executions: 2,
      memoryMb: 1024,
      all: { stateTransitions: 8, lambdaInvocations: 3, lambdaMs: 10_000 },
      daily: {
        stateTransitions: 4,
        lambdaInvocations: 2,
        lambdaMs: 5000,
        queryBytes: [1, 30 * MiB],
        objectsWritten: 5,
      },
    },
  };
}

const ENV = { target: 'local' as const, records: 50_000 };
const T0 = Date.parse('2026-11-29T10:00:00.000Z');
const at = (s: number) => new Date(T0 + s * 1000).toISOString();

function row(
  name: string,
  title: string,
  measures: Record<string, number | string>,
  extra: Partial<ExperimentReport> = {},
): ExperimentReport {
  const judged = judge(name, measures, ENV);
  return {
    name,
    title,
    part: 1,
    article: `the article's words for ${name}`,
    result: `what this run saw for ${name}`,
    measures,
    comparisons: judged.comparisons,
    checks: judged.checks,
    durationMs: 10_000,
    ...extra,
  };
}

/** A report of seven rows, one of each verdict (the daily snapshot not run), every picture's figures but its. */
export function sampleReport(): LabReport {
  const experiments: ExperimentReport[] = [
    row(
      'load',
      'Load 50,000 records',
      {
        records: 50_000,
        accepted: 50_000,
        jsonBytes: 14_543_421,
        parquetBytes: 1_210_912,
        mainCommits: 3,
        sendParts: 3,
        smokeCommits: 1,
        rowsLoaded: 50_010,
      },
      { startedAt: at(0), durationMs: 20_000 },
    ),
    row(
      'time-travel',
      'Time travel to the smoke test',
      { rows: 10, bytesScanned: 0 },
      { startedAt: at(20), article: '10 rows back, 0 bytes scanned (answered from metadata)' },
    ),
    row(
      'compaction',
      'Wait for compaction',
      {
        jobStatus: 'Successful',
        runs: 2,
        replaceSnapshots: 1,
        dataFilesBefore: 15,
        dataFilesAfter: 1,
        deleteFilesBefore: 3,
        deleteFilesAfter: 0,
      },
      { startedAt: at(30), checks: { someCheck: false } },
    ),
    row(
      'undo-window',
      'The undo window',
      { snapshotsBefore: 21, snapshotsAfter: 1, storedBytesBefore: 3_500_000, storedBytesAfter: 920_000 },
      {
        part: 2,
        startedAt: at(40),
        checks: { expiredPastTheWindow: true },
        details: [{ label: 'DELETE', text: 'refused: Required Delete on <t>' }],
      },
    ),
    row(
      'one-hour',
      'The one-hour question',
      {
        hourStart: '2026-11-29 09:00:00.000000',
        sameAnswer: 'yes',
        unpartitionedBytes: 359_997,
        partitionedBytes: 22_360,
        ratio: 359_997 / 22_360,
      },
      { part: 2, startedAt: at(50) },
    ),
    row(
      'sort-order',
      'A declared sort order',
      {},
      {
        part: 2,
        startedAt: at(60),
        measures: {},
        comparisons: [],
        checks: {},
        result: '',
        error: 'boom <b>',
      },
    ),
    row(
      'daily-snapshot',
      'Daily snapshot vs full history',
      {},
      {
        part: 3,
        startedAt: at(70),
        measures: {},
        comparisons: [],
        checks: {},
        result: '',
        durationMs: 0,
        skipped:
          "sort-order failed before it, and the lab's later steps continue what the earlier ones leave",
      },
    ),
  ];
  const usage = sampleUsage();
  return {
    startedAt: at(0),
    finishedAt: at(180),
    target: 'local',
    banner: ['target local: in-process endpoint <http://127.0.0.1:1> & friends, data in .lab/local'],
    scale: { records: 50000, hours: 24, bursts: 10, burstSize: 200, seed: 1 },
    experiments,
    timeline: [
      {
        table: 'network.vpc_flow_logs',
        committedAt: at(1),
        snapshotId: '1',
        operation: 'append',
        addedRecords: 10,
        experiment: 'load',
        expired: true,
      },
      {
        table: 'network.vpc_flow_logs',
        committedAt: at(12),
        snapshotId: '2',
        operation: 'append',
        addedRecords: 50_000,
        experiment: 'load',
      },
      {
        table: 'network.vpc_flow_logs',
        committedAt: at(35),
        snapshotId: '3',
        operation: 'replace',
        addedRecords: 0,
        experiment: 'compaction',
      },
      {
        table: 'ref.host_inventory',
        committedAt: at(55),
        snapshotId: '4',
        operation: 'overwrite',
        addedRecords: 2,
        experiment: 'one-hour',
      },
    ],
    charts: labCharts(experiments),
    queries: [
      {
        experiment: 'time-travel',
        query: 'network/time_travel_smoke',
        dataScannedInBytes: 0,
        ms: 5,
        sql: 'SELECT count(*) FROM network.vpc_flow_logs FOR VERSION AS OF 1 -- <rows>',
      },
      {
        experiment: 'one-hour',
        query: 'network/one_hour',
        dataScannedInBytes: 359_997,
        ms: 40,
        sql: 'SELECT 1',
      },
      {
        experiment: 'one-hour',
        query: 'enriched/one_hour',
        dataScannedInBytes: 22_360,
        ms: 30,
        sql: 'SELECT 2',
      },
    ],
    usage,
    cost: estimateCost(usage),
    wallMs: 180_000,
  };
}
