// Namespaces for reference data, the enriched table and experiments. Terraform owns the namespaces; SQL owns the
// tables in them, and a destroy-time step drops those tables so the namespace delete succeeds.
import type { RefDataInputs } from '@loglake/stacks/inputs';
import { defineUnit } from '../../../lib/define';

export default defineUnit<RefDataInputs>({
  inputs: { namespaces: ['ref', 'enriched', 'lab'], dropTablesOnDestroy: true },
  dependencies: {
    table_bucket: {
      configPath: '../table-bucket',
      outputs: ['table_bucket_arn', 'table_bucket_name', 'table_catalog_id', 'lab_role_arn'],
      mockOutputs: {
        lab_role_arn: 'arn:aws:iam::123456789012:role/mock-lab',
        table_bucket_arn: 'arn:aws:s3tables:us-east-1:123456789012:bucket/mock-bucket',
        table_bucket_name: 'mock-bucket',
        table_catalog_id: '123456789012:s3tablescatalog/mock-bucket',
      },
    },
  },
});
