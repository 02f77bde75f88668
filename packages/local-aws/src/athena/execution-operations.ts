// Athena's query execution operations: start (the workgroup's rules, the one parse, the caller's permissions, then
// the run), get, batch get, stop and list. Its own module beside queries.ts (how an execution runs and is kept):
// these are the handlers, in the order of Athena's checks at submission.
import type { QueryExecution, UnprocessedQueryExecutionId } from '@aws-sdk/client-athena';
import { randomUUID } from 'node:crypto';
import type { Caller } from '../iam/principals';
import type { Wire } from '../model/api';
import { describeExecution } from './execution-description';
import type { AthenaContext, AthenaOperations } from './operation';
import { decodeToken, encodeToken } from './paging';
import { managedResults, outputLocationOf } from './result-location';
import { s3Reads, s3Writes } from './statement-access';
import { checkStatementAgainstWorkGroup } from './workgroup-rules';
import { invalidRequest } from './workgroups';

type ExecutionHandlers = Pick<
  AthenaOperations,
  | 'StartQueryExecution'
  | 'GetQueryExecution'
  | 'BatchGetQueryExecution'
  | 'StopQueryExecution'
  | 'ListQueryExecutions'
>;

export function executionHandlers({ workgroups, runner, access }: AthenaContext): ExecutionHandlers {
  return {
    async StartQueryExecution(input, request) {
      const query = input.QueryString as string;
      const group = workgroups.get(input.WorkGroup ?? 'primary');
      if (group.State !== 'ENABLED') throw invalidRequest(`WorkGroup ${group.Name} is disabled.`);
      const requestedOutput = input.ResultConfiguration?.OutputLocation;
      if (!outputLocationOf(group) && !managedResults(group) && requestedOutput === undefined) {
        throw invalidRequest(
          'No output location provided. An output location is required either through the Workgroup result configuration setting or as an API input.',
        );
      }
      const submission = await runner.prepare(query);
      if ('prepared' in submission) checkStatementAgainstWorkGroup(submission.prepared, group);
      const queryContext = {
        catalog: input.QueryExecutionContext?.Catalog,
        database: input.QueryExecutionContext?.Database,
      };
      // With authorization, the caller's permissions on the statement's tables (Glue, Lake Formation).
      const caller: Caller | undefined = request.caller;
      const prepared = 'prepared' in submission ? submission.prepared : undefined;
      const id = randomUUID();
      const denied =
        caller && prepared
          ? (access.statements?.check(caller, prepared, queryContext) ??
            access.statements?.checkS3Reads(caller, s3Reads(access, prepared, queryContext)) ??
            access.statements?.checkS3Writes(caller, s3Writes(group, requestedOutput, prepared, id)))
          : undefined;
      runner.start({
        id,
        query,
        submission: denied ? { failure: denied } : submission,
        workgroup: group.Name,
        ...queryContext,
        outputLocation: requestedOutput,
        cutoff: workgroups.cutoffOf(group),
        onSucceeded:
          caller && prepared ? () => access.statements?.succeeded(caller, prepared, queryContext) : undefined,
      });
      return { QueryExecutionId: id };
    },
    async GetQueryExecution(input) {
      return { QueryExecution: describeExecution(workgroups, runner.get(input.QueryExecutionId as string)) };
    },
    async BatchGetQueryExecution(input) {
      const found: Wire<QueryExecution>[] = [];
      const missing: Wire<UnprocessedQueryExecutionId>[] = [];
      for (const id of input.QueryExecutionIds ?? []) {
        try {
          found.push(describeExecution(workgroups, runner.get(id)));
        } catch {
          missing.push({
            QueryExecutionId: id,
            ErrorCode: 'INVALID_INPUT',
            ErrorMessage: `QueryExecution ${id} was not found`,
          });
        }
      }
      return { QueryExecutions: found, UnprocessedQueryExecutionIds: missing };
    },
    async StopQueryExecution(input) {
      runner.stop(input.QueryExecutionId as string);
      return {};
    },
    async ListQueryExecutions(input) {
      const group = workgroups.get(input.WorkGroup ?? 'primary');
      const max = input.MaxResults ?? 50;
      const start = decodeToken(input.NextToken);
      const ids = runner.list(group.Name);
      return {
        QueryExecutionIds: ids.slice(start, start + max),
        ...(start + max < ids.length ? { NextToken: encodeToken(start + max) } : {}),
      };
    },
  };
}
