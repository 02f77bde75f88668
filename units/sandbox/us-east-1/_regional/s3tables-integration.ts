// The account's S3 Tables analytics integration in this region: the Glue catalog `s3tablescatalog` (every table
// bucket of the region as a child catalog), the Lake Formation registration of all table buckets with federation,
// and Lake Formation's data-access role. One per account and region, so it sits at the region level, shared by the
// region's labs: labs depend on it, `pnpm lab destroy` leaves it in place (`--include-regional` removes it too).
import type { S3TablesIntegrationInputs } from '@loglake/stacks/inputs';
import { defineUnit } from '../../../lib/define';

export default defineUnit<S3TablesIntegrationInputs>({
  inputs: {
    // 'create' in an account without the integration. If the account already has it (the S3 console's "Enable
    // integration", another lab or tool), the first apply stops and says so: set 'adopt' to use it as it is.
    mode: 'create',
  },
});
