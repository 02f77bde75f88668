// @loglake/local-aws: the AWS API endpoint on loopback (the services of served-services.ts) over
// the embedded engine — starting it, the clients' config and credentials for it, and the lab's hooks into its clocks,
// Firehose stats and maintenance. Test support for other packages is in ./testing.
export {
  advanceLocalCloudWatchClock,
  advanceLocalMaintenanceClock,
  evaluateLocalAlarms,
  localFirehoseStats,
  type LocalServiceCredentials,
  runLocalMaintenance,
} from './admin-client';
export { LOCAL_ACCOUNT_ID } from './arn';
export type { ServiceCredentialsRequest } from './authz';
export type { AuthorizationOptions } from './authz/options';
export { LOCAL_CREDENTIALS, localClientConfig, type LocalClientCredentials } from './client-config';
export { LOCAL_DATA_DIR_ENTRIES } from './data-dir';
export { assertDataFolderFree } from './data-lock';
export { LocalAwsError } from './errors';
export { DataFolderNotInPlaceError } from './data-place';
export type { FaultOptions } from './faults';
export type { LocalStreamStats } from './firehose/service';
export type { MaintenanceRunReport } from './s3tables/maintenance';
export { type LocalEndpoint, type LocalEndpointOptions, startLocalEndpoint } from './server';
