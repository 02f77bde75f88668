// Firehose → Iceberg: reads the table bucket's outputs from its remote state (Terragrunt's dependency block).
import type { FirehoseInputs } from '@loglake/stacks/firehose/inputs';
import { defineUnit } from '../../../lib/define';

export default defineUnit<FirehoseInputs>({
  inputs: { buffering: { sizeMb: 1, intervalSeconds: 60 } },
  dependencies: {
    table_bucket: {
      configPath: '../table-bucket',
      outputs: ['table_bucket_arn', 'table_bucket_name', 'namespace', 'table_name', 'table_arn'],
      // Stand-in values, used ONLY before table-bucket has been applied…
      mockOutputs: {
        table_bucket_arn: 'arn:aws:s3tables:us-east-1:123456789012:bucket/mock-bucket',
        table_bucket_name: 'mock-bucket',
        namespace: 'network',
        table_name: 'vpc_flow_logs',
        table_arn: 'arn:aws:s3tables:us-east-1:123456789012:bucket/mock-bucket/table/mock-table-id',
      },
      // …and never for apply: fake values there would be an error.
      mockOutputsAllowedTerraformCommands: ['init', 'validate', 'plan'],
    },
  },
});
