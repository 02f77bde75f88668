// A read-only analyst role: it queries the lab's tables in network, ref and enriched (Lake Formation SELECT and
// DESCRIBE) in the analysts' own workgroup (loglake-01-analyst), and nothing else. The deployer may assume it (the lab's analyst experiment does);
// list other analysts' role or user ARNs in trustedPrincipalArns.
import type { AnalystInputs } from '@loglake/stacks/inputs';
import { defineUnit } from '../../../lib/define';

export default defineUnit<AnalystInputs>({
  inputs: { namespaces: ['network', 'ref', 'enriched'], trustedPrincipalArns: [] },
  dependencies: {
    table_bucket: {
      configPath: '../table-bucket',
      outputs: ['table_bucket_name', 'table_catalog_id'],
      mockOutputs: {
        table_bucket_name: 'mock-bucket',
        table_catalog_id: '123456789012:s3tablescatalog/mock-bucket',
      },
      mockOutputsAllowedTerraformCommands: ['init', 'validate', 'plan'],
    },
    ref_data: {
      configPath: '../ref-data',
      outputs: ['namespaces'],
      mockOutputs: { namespaces: 'ref,enriched,lab' },
      mockOutputsAllowedTerraformCommands: ['init', 'validate', 'plan'],
    },
  },
});
