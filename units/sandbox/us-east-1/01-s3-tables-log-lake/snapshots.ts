// Daily snapshots of the biggest tables: the latest COMPLETE day as a small Parquet table, queried exactly like
// its source. Reads the table bucket (the source catalog) through its remote state; queries run in the unit's own
// Athena workgroup (the lab workgroup enforces its settings, which fails a CTAS with external_location). The snapshot
// definitions are data: source, columns, filters, target name, lateness grace, runs to keep.
import { type SnapshotsInputs, VPC_FLOW_LOG_COLUMNS } from '@loglake/stacks/inputs';
import { defineUnit } from '../../../lib/define';

// The flow-log columns a daily snapshot copies, typed as the table types them (one schema: Iceberg long is Glue
// bigint, every other type keeps its name). The snapshot keeps the table's column order.
const COPIED_COLUMNS = new Set([
  'interface_id',
  'srcaddr',
  'dstaddr',
  'srcport',
  'dstport',
  'protocol',
  'packets',
  'bytes',
  'start_time',
  'end_time',
  'action',
]);

export default defineUnit<SnapshotsInputs>({
  inputs: {
    // 06:00 in the analysts' time zone, after the night's data has landed.
    schedule: { hour: 6, minute: 0, timezone: 'Europe/Paris' },
    staleAfterHours: 48,
    snapshots: [
      {
        name: 'vpc_flow_logs_daily',
        source: { namespace: 'network', table: 'vpc_flow_logs', timeColumn: 'start_time' },
        columns: VPC_FLOW_LOG_COLUMNS.filter((c) => COPIED_COLUMNS.has(c.name)).map((c) => ({
          name: c.name,
          type: c.type === 'long' ? 'bigint' : c.type,
        })),
        filters: [],
        // A day counts once a record 30 minutes past its midnight exists (Firehose buffers ≤ 60 s).
        latenessGraceMinutes: 30,
        minRecordsPerHour: 1,
        lookbackDays: 7,
        // The published run and the one it replaced (for queries planned just before the swap).
        runsToKeep: 2,
      },
    ],
  },
  dependencies: {
    table_bucket: {
      configPath: '../table-bucket',
      // The lab-wide alerts topic: failures and staleness alarms publish there.
      outputs: ['table_bucket_name', 'table_bucket_arn', 'alerts_topic_arn', 'lab_role_arn', 'lab_role_name'],
      mockOutputs: {
        lab_role_arn: 'arn:aws:iam::123456789012:role/mock-lab',
        lab_role_name: 'mock-lab',
        table_bucket_name: 'mock-bucket',
        table_bucket_arn: 'arn:aws:s3tables:us-east-1:123456789012:bucket/mock-bucket',
        alerts_topic_arn: 'arn:aws:sns:us-east-1:123456789012:mock-alerts',
      },
      mockOutputsAllowedTerraformCommands: ['init', 'validate', 'plan'],
    },
  },
});
