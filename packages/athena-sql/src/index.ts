// @loglake/athena-sql: the SQL of sql/ — loaded, checked, rendered and run on Athena — for the lab and the
// snapshot Lambdas (bundled into them). ./light: the errors and quoting alone, for code a synth loads.
export { sqlDir, listTemplates, readTemplate, SQL_EXTENSIONS, type SqlTemplate } from './templates';
export { renderSql, renderTemplate, splitStatements } from './render';
export { PARAM_KINDS, parseParamPairs, timestampParam } from './params';
export { sqlIdentifier } from './quoting';
export { rowObjects, runQuery, type AthenaTarget, type QueryResult } from './run-query';
export { AthenaQueryFailedError, SqlFolderNotFoundError } from './errors';
