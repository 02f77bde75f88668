// Amazon Athena (awsJson1_1, `AmazonAthena.<Op>`): workgroups and query executions over the SQL front end.
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
  QueryExecution,
  UnprocessedQueryExecutionId,
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
import type { PreparedStatement, QueryContext, SqlEngine, TableAccess } from '@loglake/lakehouse';
import { randomUUID } from 'node:crypto';
import type { AthenaS3Write } from '../authz/athena-statements';
import type { Caller } from '../iam/principals';
import { serviceApi, type ServiceApi, type Wire } from '../model/api';
import { awsJsonService, type ServiceModule, type WireOperation } from '../protocol';
import type { JsonStore } from '../store';
import { columnInfo } from './columns';
import { QueryRunner, type QueryRecord } from './queries';
import { checkStatementAgainstWorkGroup, enforcesConfiguration } from './workgroup-rules';
import {
  ATHENA_MIN_CUTOFF_BYTES,
  engineVersion,
  invalidRequest,
  WorkGroups,
  type WorkGroupRecord,
} from './workgroups';
import { tagList, tagsFromList, withoutTags, withTags } from '../tags';
import { wireError } from '../model/wire-errors';

export interface AthenaOptions {
  store: JsonStore;
  sqlEngine: () => Promise<SqlEngine>;
  /** Lowest BytesScannedCutoffPerQuery accepted (Athena: 10,000,000). Tests lower it to exercise the cutoff. */
  minCutoffBytes: number;
  /** With authorization: what the caller may not do with a statement (fails the query), and what follows success. */
  statements?: StatementAuthorization;
  /** A table of the default catalog (AwsDataCatalog): its S3 location, which a query reads as its caller. */
  glueTableLocation?: (database: string, table: string) => string | undefined;
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

interface AthenaOperations {
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

/**
 * The workgroup a tagging call's ARN names (`arn:aws:athena:<region>:<account>:workgroup/<name>`); data catalogs and
 * capacity reservations, which Athena tags too, are not kept locally.
 */
function workgroupOfArn(arn: string): string {
  const match = /^arn:aws[a-z-]*:athena:[^:]*:[^:]*:workgroup\/(.+)$/.exec(arn);
  if (!match)
    throw wireError(
      'athena',
      'ResourceNotFoundException',
      `Resource ${arn} was not found: the local Athena keeps tags of workgroups (arn:aws:athena:<region>:<account>:workgroup/<name>).`,
      { fields: { ResourceName: arn } },
    );
  return match[1] as string;
}

export function createAthenaService(
  options: AthenaOptions,
): ServiceModule & { workgroupOfQuery(id: string): string | undefined } {
  const workgroups = new WorkGroups(options.store);
  const runner = new QueryRunner(options.store, options.sqlEngine);

  /** The workgroup an ARN names; one that does not exist is ResourceNotFoundException, as Athena answers. */
  const workgroupGroup = (arn: string): WorkGroupRecord => {
    const name = workgroupOfArn(arn);
    const group = safeWorkGroup(workgroups, name);
    if (!group)
      throw wireError('athena', 'ResourceNotFoundException', `WorkGroup ${name} is not found.`, {
        fields: {
          ResourceName: arn,
        },
      });
    return group;
  };

  /** Where a query's results are (its output location; undefined for managed results only). */
  const outputOf = (record: QueryRecord, group: WorkGroupRecord | undefined) => {
    const enforced = group ? enforcesConfiguration(group) : true;
    return (
      (enforced ? outputLocationOf(group) : undefined) ?? record.outputLocation ?? outputLocationOf(group)
    );
  };
  const describe = (record: QueryRecord) => {
    const group = safeWorkGroup(workgroups, record.workgroup);
    const outputLocation = outputOf(record, group);
    const end = record.completedAt;
    return {
      QueryExecutionId: record.id,
      Query: record.query,
      ...(record.statementType ? { StatementType: record.statementType } : {}),
      ...(record.substatementType ? { SubstatementType: record.substatementType } : {}),
      ResultConfiguration: outputLocation
        ? { OutputLocation: `${outputLocation.replace(/\/?$/, '/')}${record.id}.csv` }
        : {},
      ...(managedResults(group) ? { ManagedQueryResultsConfiguration: { Enabled: true } } : {}),
      QueryExecutionContext: {
        ...(record.database ? { Database: record.database } : {}),
        ...(record.catalog ? { Catalog: record.catalog } : {}),
      },
      Status: {
        State: record.state,
        ...(record.stateChangeReason ? { StateChangeReason: record.stateChangeReason } : {}),
        SubmissionDateTime: record.submittedAt / 1000,
        ...(end ? { CompletionDateTime: end / 1000 } : {}),
        ...(record.athenaError ? { AthenaError: record.athenaError } : {}),
      },
      Statistics: {
        EngineExecutionTimeInMillis: record.engineExecutionTimeInMillis,
        DataScannedInBytes: record.dataScannedInBytes,
        TotalExecutionTimeInMillis: end ? end - record.submittedAt : Date.now() - record.submittedAt,
        QueryQueueTimeInMillis: (record.startedAt ?? end ?? Date.now()) - record.submittedAt,
        ServicePreProcessingTimeInMillis: 0,
        QueryPlanningTimeInMillis: 0,
        ServiceProcessingTimeInMillis:
          end && record.startedAt
            ? Math.max(0, end - record.startedAt - record.engineExecutionTimeInMillis)
            : 0,
        ResultReuseInformation: { ReusedPreviousResult: false },
      },
      WorkGroup: record.workgroup,
      EngineVersion: engineVersion(group?.Configuration.EngineVersion?.SelectedEngineVersion ?? undefined),
    };
  };

  /**
   * The S3 locations of the default catalog's tables a statement reads: Athena reads them as its caller (Athena User
   * Guide, "Control access to Amazon S3 from Athena"). S3 Tables' data is Lake Formation's (its GetDataAccess).
   */
  const s3Reads = (prepared: PreparedStatement, context: QueryContext): string[] => {
    let accesses: readonly TableAccess[];
    try {
      accesses = prepared.tableAccesses?.(context) ?? [];
    } catch {
      return []; // a name the engine cannot qualify: the statement fails the same way when it runs
    }
    return accesses.flatMap((a) => {
      if (a.catalog !== 'awsdatacatalog' || a.kind !== 'read' || !a.table) return [];
      const location = options.glueTableLocation?.(a.schema, a.table);
      return location ? [location] : [];
    });
  };

  const operations: AthenaOperations = {
    async CreateWorkGroup(input) {
      workgroups.create(input);
      return {};
    },
    async GetWorkGroup(input) {
      const { tags: _tags, ...group } = workgroups.get(input.WorkGroup as string);
      return { WorkGroup: group };
    },
    async UpdateWorkGroup(input) {
      workgroups.update(input);
      return {};
    },
    async DeleteWorkGroup(input) {
      workgroups.delete(input.WorkGroup as string);
      return {};
    },
    async ListWorkGroups(input) {
      const max = input.MaxResults ?? 50;
      const start = decodeToken(input.NextToken);
      const all = workgroups.list();
      return {
        WorkGroups: all.slice(start, start + max).map((g) => ({
          Name: g.Name,
          State: g.State,
          ...(g.Description ? { Description: g.Description } : {}),
          CreationTime: g.CreationTime,
          EngineVersion: engineVersion(g.Configuration.EngineVersion?.SelectedEngineVersion ?? undefined),
        })),
        ...(start + max < all.length ? { NextToken: encodeToken(start + max) } : {}),
      };
    },
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
          ? (options.statements?.check(caller, prepared, queryContext) ??
            options.statements?.checkS3Reads(caller, s3Reads(prepared, queryContext)) ??
            options.statements?.checkS3Writes(caller, s3Writes(group, requestedOutput, prepared, id)))
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
          caller && prepared
            ? () => options.statements?.succeeded(caller, prepared, queryContext)
            : undefined,
      });
      return { QueryExecutionId: id };
    },
    async GetQueryExecution(input) {
      return { QueryExecution: describe(runner.get(input.QueryExecutionId as string)) };
    },
    async BatchGetQueryExecution(input) {
      const found: Wire<QueryExecution>[] = [];
      const missing: Wire<UnprocessedQueryExecutionId>[] = [];
      for (const id of input.QueryExecutionIds ?? []) {
        try {
          found.push(describe(runner.get(id)));
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
    async ListTagsForResource(input) {
      const group = workgroupGroup(input.ResourceARN as string);
      const all = tagList(group.tags);
      const max = input.MaxResults ?? 100;
      const start = decodeToken(input.NextToken);
      return {
        Tags: all.slice(start, start + max),
        ...(start + max < all.length ? { NextToken: encodeToken(start + max) } : {}),
      };
    },
    async TagResource(input) {
      const group = workgroupGroup(input.ResourceARN as string);
      workgroups.setTags(
        group.Name,
        withTags(group.tags, tagsFromList(input.Tags), (m) => invalidRequest(m)),
      );
      return {};
    },
    async UntagResource(input) {
      const group = workgroupGroup(input.ResourceARN as string);
      workgroups.setTags(group.Name, withoutTags(group.tags, input.TagKeys ?? []));
      return {};
    },
    async GetQueryResults(input, request) {
      const id = input.QueryExecutionId as string;
      const max = input.MaxResults ?? 1000;
      const start = decodeToken(input.NextToken);
      const record = runner.get(id);
      // "To stream query results successfully, the IAM principal with permission to call GetQueryResults also must
      // have permissions to the Amazon S3 GetObject action for the Athena query results location" (API reference,
      // GetQueryResults): the results object, where Athena wrote it (managed results have no S3 location).
      const group = safeWorkGroup(workgroups, record.workgroup);
      const output = managedResults(group) ? undefined : outputOf(record, group);
      const denied =
        request.caller && output
          ? options.statements?.resultsReadDenied(request.caller, `${output.replace(/\/?$/, '/')}${id}.csv`)
          : undefined;
      if (denied)
        throw invalidRequest(
          `You do not seem to have access to the S3 location of your query results. Please confirm your account has access to the S3 location where your query results are saved and try again. (${denied})`,
        );
      const result = runner.results(id);
      const rows = record.hasHeaderRow
        ? [result.columns.map((c) => c.name as string | null), ...result.rows]
        : result.rows;
      const page = rows.slice(start, start + max);
      return {
        UpdateCount: record.updateCount ?? 0,
        ResultSet: {
          Rows: page.map((row) => ({
            Data: row.map((value) => (value === null ? {} : { VarCharValue: value })),
          })),
          ResultSetMetadata: { ColumnInfo: result.columns.map(columnInfo) },
        },
        ...(start + max < rows.length ? { NextToken: encodeToken(start + max) } : {}),
      };
    },
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

/**
 * What Athena writes to S3 for a query, as its caller: the results file in the output location (unless the workgroup
 * keeps results in managed storage) and, for a CTAS with external_location, its data under that location.
 */
function s3Writes(
  group: WorkGroupRecord,
  requested: string | undefined,
  prepared: PreparedStatement,
  id: string,
): AthenaS3Write[] {
  const writes: AthenaS3Write[] = [];
  const output = enforcesConfiguration(group)
    ? (outputLocationOf(group) ?? requested)
    : (requested ?? outputLocationOf(group));
  if (output && !managedResults(group))
    writes.push({ object: `${output.replace(/\/?$/, '/')}${id}.csv`, purpose: 'results' });
  if (prepared.externalLocation)
    writes.push({ object: `${prepared.externalLocation.replace(/\/?$/, '/')}${id}`, purpose: 'ctas' });
  return writes;
}

function safeWorkGroup(workgroups: WorkGroups, name: string): WorkGroupRecord | undefined {
  try {
    return workgroups.get(name);
  } catch {
    return undefined;
  }
}

function outputLocationOf(group: WorkGroupRecord | undefined): string | undefined {
  return group?.Configuration.ResultConfiguration?.OutputLocation;
}

function managedResults(group: WorkGroupRecord | undefined): boolean {
  return group?.Configuration.ManagedQueryResultsConfiguration?.Enabled === true;
}

function encodeToken(offset: number): string {
  return Buffer.from(`offset:${offset}`).toString('base64');
}

function decodeToken(token: string | undefined): number {
  if (!token) return 0;
  const match = /^offset:(\d+)$/.exec(Buffer.from(token, 'base64').toString('utf8'));
  if (!match)
    throw invalidRequest(
      `Invalid NextToken ${JSON.stringify(token)}: pass the token from the previous response.`,
    );
  return Number(match[1]);
}
