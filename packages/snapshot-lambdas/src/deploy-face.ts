// @loglake/snapshot-lambdas/deploy: what the snapshots stack deploys, without loading a handler or an AWS client —
// the definitions, the state machine and its checks, the handlers' environment and metrics, the table and workgroup shapes.
export type { StateMachineDefinition } from './asl';
export { parseSnapshotDefinitions, type SnapshotDefinition } from './definitions';
export { handlerEnvironment } from './env';
export { DIMENSION_SNAPSHOT, METRIC, METRICS_NAMESPACE, METRICS_SERVICE } from './metric-names';
export {
  EXAMPLE_ARNS,
  snapshotStateMachine,
  structuralProblems,
  validateStateMachine,
} from './state-machine';
export { snapshotTableShape } from './table-shape';
export {
  DEFAULT_SNAPSHOT_CUTOFF_BYTES,
  QUERY_RESULTS_PREFIX,
  snapshotWorkGroupShape,
} from './workgroup-shape';
