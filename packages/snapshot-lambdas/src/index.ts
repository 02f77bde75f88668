// @loglake/snapshot-lambdas: the daily snapshot pipeline's handlers, their state machine and its offline runner.
export * from './errors';
export * from './definitions';
export * from './env';
export * from './params';
export * from './completeness';
export * from './resolve-watermark';
export * from './build-snapshot';
export * from './metrics';
export * from './sql';
export * from './glue-table';
export * from './retention';
export * from './state-machine';
export * from './local-run';
export type * from './asl';
export * from './bundle';
export * from './local-lab';
export * from './offline';
export * from './aws-run';
