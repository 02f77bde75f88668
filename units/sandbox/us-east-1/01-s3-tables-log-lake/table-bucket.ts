// The table bucket, namespace `network`, table `vpc_flow_logs`, the lab principals' Lake Formation grants, Athena
// workgroup and the lab's alerts topic. Every other unit of the lab depends on this one, so it deploys first, is
// destroyed last, and carries the teardown check; what the whole lab shares lives here. It sits in the region's S3
// Tables analytics integration (the region-level unit).
import type { TableBucketInputs } from '@loglake/stacks/inputs';
import { defineUnit } from '../../../lib/define';

export default defineUnit<TableBucketInputs>({
  inputs: {
    namespace: 'network',
    table: { name: 'vpc_flow_logs' },
    maintenance: { compactionTargetFileSizeMb: 512, minSnapshotsToKeep: 1, maxSnapshotAgeHours: 120 },
    workgroup: { bytesScannedCutoffPerQuery: 1024 * 1024 * 1024 },
    verifyTeardown: { enabled: true, checkAttempts: 4 },
    // The lab's alerts (Firehose's failed rows, snapshot failures and staleness) mail this address; confirm the
    // subscription mail after deploy. Required to deploy (synth for apply refuses a missing or placeholder address),
    // like Terragrunt's get_env: set LOGLAKE_ALERT_EMAIL.
    alertEmail: process.env.LOGLAKE_ALERT_EMAIL ?? '',
  },
  dependencies: {
    s3tables_integration: {
      configPath: '../../_regional/s3tables-integration',
      outputs: ['glue_catalog_name'],
      mockOutputs: { glue_catalog_name: 's3tablescatalog' },
      mockOutputsAllowedTerraformCommands: ['init', 'validate', 'plan'],
    },
  },
});
