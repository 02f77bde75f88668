// Amazon Athena (awsJson1_1, `AmazonAthena.<Op>`): workgroups and query executions over the SQL front end.
import type { PreparedStatement, QueryContext, SqlEngine } from '@loglake/lakehouse';
import type { Caller } from '../iam/principals';
import { InputReader } from '../input';
import { awsJsonService, type ServiceModule } from '../protocol';
import type { JsonStore } from '../store';
import { columnInfo } from './columns';
import { QueryRunner, type QueryRecord } from './queries';
import { checkStatementAgainstWorkGroup, enforcesConfiguration } from './workgroup-rules';
import { invalidRequest, WorkGroups, type WorkGroupRecord } from './workgroups';

export interface AthenaOptions {
  store: JsonStore;
  sqlEngine: () => Promise<SqlEngine>;
  /** Lowest BytesScannedCutoffPerQuery accepted (Athena: 10,000,000). Tests lower it to exercise the cutoff. */
  minCutoffBytes: number;
  /** With authorization: what the caller may not do with a statement (fails the query), and what follows success. */
  statements?: StatementAuthorization;
}

export interface StatementAuthorization {
  check(caller: Caller, statement: PreparedStatement, context: QueryContext): Error | undefined;
  succeeded(caller: Caller, statement: PreparedStatement, context: QueryContext): void;
}

const MAX_QUERY_LENGTH = 262_144;
const ENGINE_VERSION = { SelectedEngineVersion: 'AUTO', EffectiveEngineVersion: 'Athena engine version 3' };

export function createAthenaService(
  options: AthenaOptions,
): ServiceModule & { workgroupOfQuery(id: string): string | undefined } {
  const workgroups = new WorkGroups(options.store, options.minCutoffBytes);
  const runner = new QueryRunner(options.store, options.sqlEngine);
  const reader = (input: Record<string, unknown>) => new InputReader(input, (m) => invalidRequest(m));

  const describe = (record: QueryRecord) => {
    const group = safeWorkGroup(workgroups, record.workgroup);
    const enforced = group ? enforcesConfiguration(group) : true;
    const outputLocation =
      (enforced ? outputLocationOf(group) : undefined) ?? record.outputLocation ?? outputLocationOf(group);
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
      EngineVersion: ENGINE_VERSION,
    };
  };

  const service = awsJsonService({
    name: 'Athena',
    targetPrefix: 'AmazonAthena',
    messageKey: 'Message',
    internalErrorCode: 'InternalServerException',
    close: () => runner.settle(),
    operations: {
      async CreateWorkGroup(input) {
        workgroups.create(input);
        return {};
      },
      async GetWorkGroup(input) {
        return { WorkGroup: workgroups.get(reader(input).requiredString('WorkGroup')) };
      },
      async UpdateWorkGroup(input) {
        workgroups.update(input);
        return {};
      },
      async DeleteWorkGroup(input) {
        workgroups.delete(reader(input).requiredString('WorkGroup'));
        return {};
      },
      async ListWorkGroups(input) {
        const r = reader(input);
        const max = r.optionalInteger('MaxResults', 1, 50) ?? 50;
        const start = decodeToken(r.optionalString('NextToken'));
        const all = workgroups.list();
        return {
          WorkGroups: all.slice(start, start + max).map((g) => ({
            Name: g.Name,
            State: g.State,
            ...(g.Description ? { Description: g.Description } : {}),
            CreationTime: g.CreationTime,
            EngineVersion: ENGINE_VERSION,
          })),
          ...(start + max < all.length ? { NextToken: encodeToken(start + max) } : {}),
        };
      },
      async StartQueryExecution(input, request) {
        const r = reader(input);
        const query = r.requiredString('QueryString');
        if (query.length > MAX_QUERY_LENGTH)
          throw invalidRequest(`QueryString is ${query.length} bytes; the maximum is ${MAX_QUERY_LENGTH}.`);
        const group = workgroups.get(r.optionalString('WorkGroup') ?? 'primary');
        if (group.State !== 'ENABLED') throw invalidRequest(`WorkGroup ${group.Name} is disabled.`);
        const resultConfig = r.optionalObject('ResultConfiguration');
        if (
          !outputLocationOf(group) &&
          !managedResults(group) &&
          typeof resultConfig?.OutputLocation !== 'string'
        ) {
          throw invalidRequest(
            'No output location provided. An output location is required either through the Workgroup result configuration setting or as an API input.',
          );
        }
        const submission = await runner.prepare(query);
        if ('prepared' in submission) checkStatementAgainstWorkGroup(submission.prepared, group);
        const context = r.child('QueryExecutionContext');
        const queryContext = {
          catalog: context?.optionalString('Catalog'),
          database: context?.optionalString('Database'),
        };
        // With authorization, the caller's permissions on the statement's tables (Glue, Lake Formation).
        const caller = request.caller;
        const prepared = 'prepared' in submission ? submission.prepared : undefined;
        const denied =
          caller && prepared ? options.statements?.check(caller, prepared, queryContext) : undefined;
        const id = runner.start({
          query,
          submission: denied ? { failure: denied } : submission,
          workgroup: group.Name,
          ...queryContext,
          outputLocation:
            typeof resultConfig?.OutputLocation === 'string' ? resultConfig.OutputLocation : undefined,
          cutoff: workgroups.cutoffOf(group),
          onSucceeded:
            caller && prepared
              ? () => options.statements?.succeeded(caller, prepared, queryContext)
              : undefined,
        });
        return { QueryExecutionId: id };
      },
      async GetQueryExecution(input) {
        return { QueryExecution: describe(runner.get(reader(input).requiredString('QueryExecutionId'))) };
      },
      async BatchGetQueryExecution(input) {
        const ids = (reader(input).optionalArray('QueryExecutionIds') ?? []) as string[];
        const found: unknown[] = [];
        const missing: unknown[] = [];
        for (const id of ids) {
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
        runner.stop(reader(input).requiredString('QueryExecutionId'));
        return {};
      },
      async ListQueryExecutions(input) {
        const r = reader(input);
        const group = workgroups.get(r.optionalString('WorkGroup') ?? 'primary');
        const max = r.optionalInteger('MaxResults', 0, 50) ?? 50;
        const start = decodeToken(r.optionalString('NextToken'));
        const ids = runner.list(group.Name);
        return {
          QueryExecutionIds: ids.slice(start, start + max),
          ...(start + max < ids.length ? { NextToken: encodeToken(start + max) } : {}),
        };
      },
      async GetQueryResults(input) {
        const r = reader(input);
        const id = r.requiredString('QueryExecutionId');
        const max = r.optionalInteger('MaxResults', 1, 1000) ?? 1000;
        const start = decodeToken(r.optionalString('NextToken'));
        const record = runner.get(id);
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
    },
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

function safeWorkGroup(workgroups: WorkGroups, name: string): WorkGroupRecord | undefined {
  try {
    return workgroups.get(name);
  } catch {
    return undefined;
  }
}

function outputLocationOf(group: WorkGroupRecord | undefined): string | undefined {
  const location = (group?.Configuration.ResultConfiguration as { OutputLocation?: unknown } | undefined)
    ?.OutputLocation;
  return typeof location === 'string' ? location : undefined;
}

function managedResults(group: WorkGroupRecord | undefined): boolean {
  return (
    (group?.Configuration.ManagedQueryResultsConfiguration as { Enabled?: unknown } | undefined)?.Enabled ===
    true
  );
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
