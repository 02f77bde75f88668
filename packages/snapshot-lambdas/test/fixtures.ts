// Shared test fixtures: one snapshot definition over the lab's flow-log table and a handler config around it, and
// the pieces the mocked-SDK tests build their responses and metrics from.
import type { SnapshotDefinition } from '../src/definitions';
import type { HandlerConfig } from '../src/env';
import type { MetricsSink, SnapshotMetricValues } from '../src/metrics';

export const flowLogsDaily: SnapshotDefinition = {
  name: 'vpc_flow_logs_daily',
  source: { namespace: 'network', table: 'vpc_flow_logs', timeColumn: 'start_time' },
  columns: [
    { name: 'srcaddr', type: 'string' },
    { name: 'dstaddr', type: 'string' },
    { name: 'dstport', type: 'int' },
    { name: 'protocol', type: 'int' },
    { name: 'bytes', type: 'bigint' },
    { name: 'action', type: 'string' },
    { name: 'start_time', type: 'timestamp' },
  ],
  filters: [],
  latenessGraceMinutes: 30,
  minRecordsPerHour: 1,
  lookbackDays: 7,
  runsToKeep: 2,
};

export function testConfig(overrides: Partial<HandlerConfig> = {}): HandlerConfig {
  return {
    sourceTableBucket: 'loglake-01-tables',
    snapshotDatabase: 'loglake_01_snapshots',
    snapshotBucket: 'loglake-01-snapshots',
    workgroup: 'loglake-01-lab',
    queryTimeoutMs: 30_000,
    definitions: [flowLogsDaily],
    ...overrides,
  };
}

/** A metrics sink that records every publish into `seen`. */
export function recordingMetrics(seen: SnapshotMetricValues[]): MetricsSink {
  return { publish: (_snapshot, values) => void seen.push(values) };
}

/** A GetQueryResults page as Athena returns it: a header row, then the rows, every value as text. */
export function athenaResult(
  columns: readonly (readonly [name: string, type: string])[],
  rows: readonly (readonly string[])[],
) {
  return {
    ResultSet: {
      ResultSetMetadata: { ColumnInfo: columns.map(([Name, Type]) => ({ Name, Type })) },
      Rows: [columns.map(([name]) => name), ...rows].map((r) => ({
        Data: r.map((VarCharValue) => ({ VarCharValue })),
      })),
    },
  };
}
