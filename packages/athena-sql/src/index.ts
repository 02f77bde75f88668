// @loglake/athena-sql: the SQL of sql/ — loaded, checked, rendered and run on Athena — for the lab and the
// snapshot Lambdas (bundled into them).
export { sqlDir, listTemplates, readTemplate, SQL_EXTENSIONS, type SqlTemplate } from './templates';
export { renderSql, renderTemplate, splitStatements } from './render';
export {
  PARAM_KINDS,
  parseParamPairs,
  timestampParam,
  type ParamDeclaration,
  type ParamKind,
} from './params';
export { sqlIdentifier, sqlString } from './quoting';
export { rowObjects, runQuery, type AthenaTarget, type QueryResult, type RunOptions } from './run-query';
export {
  AthenaQueryFailedError,
  AthenaQueryTimeoutError,
  AthenaSqlError,
  AthenaTransientError,
  SqlFolderNotFoundError,
  TemplateParameterError,
  type QueryFailure,
} from './errors';
