// GetQueryResults: a finished query's rows, paged, with Athena's header row and column info, after checking that the
// caller may read the results object in S3. Its own module because it reads the stored results (queries.ts) and the
// results location (result-location.ts) together, and is the one handler that checks the caller's S3 reads.
import { columnInfo } from './columns';
import type { AthenaContext, AthenaOperations } from './operation';
import { decodeToken, encodeToken } from './paging';
import { managedResults, resultsLocation, resultsObject } from './result-location';
import { invalidRequest } from './workgroups';

export function resultsHandlers({
  workgroups,
  runner,
  access,
}: AthenaContext): Pick<AthenaOperations, 'GetQueryResults'> {
  return {
    async GetQueryResults(input, request) {
      const id = input.QueryExecutionId as string;
      const max = input.MaxResults ?? 1000;
      const start = decodeToken(input.NextToken);
      const record = runner.get(id);
      // "To stream query results successfully, the IAM principal with permission to call GetQueryResults also must
      // have permissions to the Amazon S3 GetObject action for the Athena query results location" (API reference,
      // GetQueryResults): the results object, where Athena wrote it (managed results have no S3 location).
      const group = workgroups.find(record.workgroup);
      const output = managedResults(group) ? undefined : resultsLocation(group, record.outputLocation);
      const denied =
        request.caller && output
          ? access.statements?.resultsReadDenied(request.caller, resultsObject(output, id))
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
}
