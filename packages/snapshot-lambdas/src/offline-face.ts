// @loglake/snapshot-lambdas/offline: the pipeline run by the lab without Step Functions — on the local endpoint
// (clients, provisioning, flows) or against AWS — and what a run leaves behind.
export { runSnapshotOnAws } from './aws-run';
export {
  flowRows,
  hoursOf,
  loadFlows,
  type LocalClients,
  localSnapshotClients,
  provisionLocalSnapshots,
} from './local-lab';
export {
  compareAnalystsQuery,
  type HandlerClients,
  type OfflineRun,
  publishedSnapshot,
  runSnapshotOffline,
  snapshotContents,
} from './offline';
