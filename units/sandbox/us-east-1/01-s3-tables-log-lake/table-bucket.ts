// The table bucket, namespace `network`, table `vpc_flow_logs`, s3tablescatalog, Lake Formation, Athena workgroup.
// Every other unit depends on this one, so it deploys first, is destroyed last, and carries the teardown check.
import type { TableBucketInputs } from '@loglake/stacks/table-bucket/inputs';
import { defineUnit } from '../../../lib/define';

export default defineUnit<TableBucketInputs>({
  inputs: {
    namespace: 'network',
    table: { name: 'vpc_flow_logs' },
    maintenance: { compactionTargetFileSizeMb: 512, minSnapshotsToKeep: 1, maxSnapshotAgeHours: 120 },
    workgroup: { bytesScannedCutoffPerQuery: 1024 * 1024 * 1024 },
    verifyTeardown: { enabled: true, checkAttempts: 4 },
  },
});
