// What Athena's operation handlers share: the handler table typed by the SDK's shapes (AthenaOperations), the
// authorization hooks a query's statement is checked through, and the endpoint's Athena parts they work on. Its own
// module so the workgroup, tagging, execution and results handlers (workgroup-operations.ts, workgroup-tagging.ts,
// execution-operations.ts, results-operation.ts) and service.ts, which puts their tables together, agree on one shape.
import type {
  BatchGetQueryExecutionInput,
  BatchGetQueryExecutionOutput,
  CreateWorkGroupInput,
  CreateWorkGroupOutput,
  DeleteWorkGroupInput,
  DeleteWorkGroupOutput,
  GetQueryExecutionInput,
  GetQueryExecutionOutput,
  GetQueryResultsInput,
  GetQueryResultsOutput,
  GetWorkGroupInput,
  GetWorkGroupOutput,
  ListQueryExecutionsInput,
  ListQueryExecutionsOutput,
  ListWorkGroupsInput,
  ListWorkGroupsOutput,
  StartQueryExecutionInput,
  StartQueryExecutionOutput,
  StopQueryExecutionInput,
  StopQueryExecutionOutput,
  UpdateWorkGroupInput,
  UpdateWorkGroupOutput,
  ListTagsForResourceInput,
  ListTagsForResourceOutput,
  TagResourceInput,
  TagResourceOutput,
  UntagResourceInput,
  UntagResourceOutput,
} from '@aws-sdk/client-athena';
import type { PreparedStatement, QueryContext } from '@loglake/lakehouse';
import type { AthenaS3Write } from '../authz/athena-statements';
import type { Caller } from '../iam/principals';
import type { WireOperation } from '../protocol';
import type { QueryRunner } from './queries';
import type { WorkGroups } from './workgroups';

export interface AthenaOperations {
  [operation: string]: WireOperation<never, unknown>;
  CreateWorkGroup: WireOperation<CreateWorkGroupInput, CreateWorkGroupOutput>;
  GetWorkGroup: WireOperation<GetWorkGroupInput, GetWorkGroupOutput>;
  UpdateWorkGroup: WireOperation<UpdateWorkGroupInput, UpdateWorkGroupOutput>;
  DeleteWorkGroup: WireOperation<DeleteWorkGroupInput, DeleteWorkGroupOutput>;
  ListWorkGroups: WireOperation<ListWorkGroupsInput, ListWorkGroupsOutput>;
  StartQueryExecution: WireOperation<StartQueryExecutionInput, StartQueryExecutionOutput>;
  GetQueryExecution: WireOperation<GetQueryExecutionInput, GetQueryExecutionOutput>;
  BatchGetQueryExecution: WireOperation<BatchGetQueryExecutionInput, BatchGetQueryExecutionOutput>;
  StopQueryExecution: WireOperation<StopQueryExecutionInput, StopQueryExecutionOutput>;
  ListQueryExecutions: WireOperation<ListQueryExecutionsInput, ListQueryExecutionsOutput>;
  GetQueryResults: WireOperation<GetQueryResultsInput, GetQueryResultsOutput>;
  ListTagsForResource: WireOperation<ListTagsForResourceInput, ListTagsForResourceOutput>;
  TagResource: WireOperation<TagResourceInput, TagResourceOutput>;
  UntagResource: WireOperation<UntagResourceInput, UntagResourceOutput>;
}

export interface StatementAuthorization {
  check(caller: Caller, statement: PreparedStatement, context: QueryContext): Error | undefined;
  /** The caller's permissions for what Athena writes to S3 for the query (results, a CTAS's data). */
  checkS3Writes(caller: Caller, writes: readonly AthenaS3Write[]): Error | undefined;
  /** The caller's permissions on the S3 locations (`s3://bucket/prefix/`) of the Glue tables the query reads. */
  checkS3Reads(caller: Caller, locations: readonly string[]): Error | undefined;
  succeeded(caller: Caller, statement: PreparedStatement, context: QueryContext): void;
  /** Why the caller may not read the results object (`s3://bucket/key`) GetQueryResults streams, or undefined. */
  resultsReadDenied(caller: Caller, object: string): string | undefined;
}

/** The options (AthenaOptions) that say what a query may read and write as its caller. */
export interface AthenaAccess {
  /** With authorization: what the caller may not do with a statement (fails the query), and what follows success. */
  statements?: StatementAuthorization;
  /** A table of the default catalog (AwsDataCatalog): its S3 location, which a query reads as its caller. */
  glueTableLocation?: (database: string, table: string) => string | undefined;
}

/** What the handlers work on: the service's workgroups, its query runner and its options (read at each call). */
export interface AthenaContext {
  readonly workgroups: WorkGroups;
  readonly runner: QueryRunner;
  readonly access: AthenaAccess;
}
