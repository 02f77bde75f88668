// @loglake/athena-sql/light: the runner's errors and SQL quoting without the Athena client or nunjucks, for code a
// cdktf synth loads (the snapshot Lambdas' errors and parameters): the main face would pull both into every synth.
export { AthenaQueryFailedError, AthenaQueryTimeoutError, AthenaTransientError } from './errors';
export { sqlString } from './quoting';
