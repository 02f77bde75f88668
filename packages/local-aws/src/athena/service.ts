// Amazon Athena (awsJson1_1, `AmazonAthena.<Op>`): workgroups and query executions over the SQL front end. The
// handlers are by job: workgroups (workgroup-operations.ts), their tags (workgroup-tagging.ts), query executions
// (execution-operations.ts, described by execution-description.ts, their S3 access read by statement-access.ts) and
// results (results-operation.ts). This module puts their tables together into the one awsJson service, which reads
// each request once (its operationOf) for the authorizer and the handler alike.
import type { SqlEngine } from '@loglake/lakehouse';
import { serviceApi, type ServiceApi } from '../model/api';
import { awsJsonService, type ServiceModule } from '../protocol';
import type { JsonStore } from '../store';
import { executionHandlers } from './execution-operations';
import type { AthenaAccess, AthenaContext, AthenaOperations } from './operation';
import { QueryRunner } from './queries';
import { resultsHandlers } from './results-operation';
import { workgroupHandlers } from './workgroup-operations';
import { taggingHandlers } from './workgroup-tagging';
import { ATHENA_MIN_CUTOFF_BYTES, invalidRequest, WorkGroups } from './workgroups';
import { wireError } from '../model/wire-errors';

export type { StatementAuthorization } from './operation';

export interface AthenaOptions extends AthenaAccess {
  store: JsonStore;
  sqlEngine: () => Promise<SqlEngine>;
  /** Lowest BytesScannedCutoffPerQuery accepted (Athena: 10,000,000). Tests lower it to exercise the cutoff. */
  minCutoffBytes: number;
}

/**
 * Athena answers input that breaks its model with InvalidRequestException ("Indicates that something is wrong with
 * the input to the request. For example, a required parameter may be missing or out of range.", API reference),
 * carrying AthenaErrorCode INVALID_INPUT; JSON of the wrong types is a SerializationException.
 * `minCutoffBytes` lowers the model's minimum BytesScannedCutoffPerQuery (10,000,000) for tests.
 */
export function athenaApi(minCutoffBytes: number): ServiceApi {
  return serviceApi(
    'athena',
    {
      invalid: (message) => invalidRequest(message),
      malformed: (message) => wireError('athena', 'SerializationException', message),
    },
    minCutoffBytes === ATHENA_MIN_CUTOFF_BYTES
      ? {}
      : { BytesScannedCutoffValue: { range: { min: minCutoffBytes } } },
  );
}

/** Operations of Athena's model the local endpoint does not serve, with a reason more precise than the default. */
const ATHENA_NOT_SERVED: Record<string, string> = {
  GetQueryRuntimeStatistics: 'the local engine reports its statistics in GetQueryExecution only',
  GetTableMetadata: 'read tables through Glue or S3 Tables locally',
  ListTableMetadata: 'read tables through Glue or S3 Tables locally',
  GetDatabase: 'read databases through Glue or S3 Tables locally',
  ListDatabases: 'read databases through Glue or S3 Tables locally',
};

export function createAthenaService(
  options: AthenaOptions,
): ServiceModule & { workgroupOfQuery(id: string): string | undefined } {
  const workgroups = new WorkGroups(options.store);
  const runner = new QueryRunner(options.store, options.sqlEngine);
  const context: AthenaContext = { workgroups, runner, access: options };

  // Served in this order (the module's `served` list): workgroups, executions, tags, results.
  const operations: AthenaOperations = {
    ...workgroupHandlers(context),
    ...executionHandlers(context),
    ...taggingHandlers(context),
    ...resultsHandlers(context),
  };

  const service = awsJsonService({
    name: 'Athena',
    api: athenaApi(options.minCutoffBytes),
    messageKey: 'Message',
    internalErrorCode: 'InternalServerException',
    close: () => runner.settle(),
    operations,
    notServed: (operation) =>
      ATHENA_NOT_SERVED[operation] ??
      'the local Athena serves workgroups and query executions (named queries, prepared statements, data catalogs, capacity, notebooks and sessions are not kept)',
  });
  return Object.assign(service, {
    workgroupOfQuery: (id: string) => {
      try {
        return runner.get(id).workgroup;
      } catch {
        return undefined;
      }
    },
  });
}
