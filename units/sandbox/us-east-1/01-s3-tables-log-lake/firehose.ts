// Firehose → Iceberg: reads the table bucket's outputs from its remote state (Terragrunt's dependency block). Its
// alarm on DeliveryToIceberg.FailedRowCount mails the lab's alerts topic (table-bucket's).
import type { FirehoseInputs } from '@loglake/stacks/inputs';
import { defineUnit } from '../../../lib/define';

export default defineUnit<FirehoseInputs>({
  inputs: {
    buffering: { sizeMb: 1, intervalSeconds: 60 },
    // ALARM when a minute's deliveries sent any row to the error output; OK after a minute without.
    failedRowsAlarm: { periodSeconds: 60, evaluationPeriods: 1, threshold: 0 },
  },
  dependencies: {
    table_bucket: {
      configPath: '../table-bucket',
      outputs: [
        'table_bucket_arn',
        'table_bucket_name',
        'namespace',
        'table_name',
        'table_arn',
        'alerts_topic_arn',
      ],
      // Stand-in values, used ONLY before table-bucket has been applied…
      mockOutputs: {
        table_bucket_arn: 'arn:aws:s3tables:us-east-1:123456789012:bucket/mock-bucket',
        table_bucket_name: 'mock-bucket',
        namespace: 'network',
        table_name: 'vpc_flow_logs',
        table_arn: 'arn:aws:s3tables:us-east-1:123456789012:bucket/mock-bucket/table/mock-table-id',
        alerts_topic_arn: 'arn:aws:sns:us-east-1:123456789012:mock-alerts',
      },
      // …and never for apply: fake values there would be an error.
      mockOutputsAllowedTerraformCommands: ['init', 'validate', 'plan'],
    },
  },
});
