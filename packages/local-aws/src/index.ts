// @loglake/local-aws: the AWS API endpoint on loopback (the services of served-services.ts) over the embedded engine.
export { startLocalEndpoint, type LocalEndpoint, type LocalEndpointOptions } from './server';
export { FaultInjector, type FaultOptions } from './faults';
export { LocalAwsError, LocalEndpointConfigError, AwsServiceError } from './errors';
export {
  runLocalMaintenance,
  flushLocalFirehose,
  localFirehoseStats,
  advanceLocalMaintenanceClock,
  advanceLocalCloudWatchClock,
  evaluateLocalAlarms,
  localAlarmNotifications,
  type LocalAlarmChange,
  type LocalServiceCredentials,
  type AdminCaller,
} from './admin-client';
export type { CapturedNotification } from './cloudwatch/alarms';
export type { ServiceCredentialsRequest } from './authz';
export type {
  AuthorizationOptions,
  LakeFormationGrantSpec,
  LocalCredentialsSpec,
  LocalRoleSpec,
} from './authz';
export { PolicyNotUnderstoodError } from './iam';
export type { EngineFactories } from './engine';
export type { DeliveryStats } from './firehose/delivery';
export type { LocalStreamStats } from './firehose/service';
export type { MaintenanceRunReport, SnapshotManagementHold } from './s3tables/maintenance';
export { LOCAL_ACCOUNT_ID } from './arn';
export { MAX_BATCH_BYTES, MAX_BATCH_RECORDS, MAX_RECORD_BYTES } from './firehose/service';
export { localClientConfig, LOCAL_CREDENTIALS, type LocalClientCredentials } from './client-config';
export { LOCAL_DATA_DIR_ENTRIES } from './data-dir';
export {
  assertDataFolderFree,
  dataFolderHolder,
  DataFolderHeldError,
  DataFolderLock,
  type DataFolderHolder,
} from './data-lock';
