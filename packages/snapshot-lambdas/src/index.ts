// @loglake/snapshot-lambdas: the daily snapshot pipeline (watermark, CTAS build, publish, retention) — its definitions,
// the handlers' config and the state machine's states. Running it without Step Functions (offline, or on AWS from
// the lab) is ./offline; what the snapshots stack deploys is ./deploy; the Lambda bundler is ./bundle.
export { findDefinition, type SnapshotDefinition } from './definitions';
export type { HandlerConfig } from './env';
export { isoDate } from './params';
export { STATE } from './state-machine';
