// TEST SUPPORT: one Athena statement through the SDK client, its data rows (the header row dropped) or its failure.
import {
  GetQueryExecutionCommand,
  GetQueryResultsCommand,
  StartQueryExecutionCommand,
  type AthenaClient,
} from '@aws-sdk/client-athena';
import { waitForQuery } from './clients';

export interface AthenaStatement {
  sql: string;
  workgroup: string;
  catalog: string;
  database: string;
}

export async function athenaRows(athena: AthenaClient, s: AthenaStatement): Promise<(string | null)[][]> {
  const { QueryExecutionId } = await athena.send(
    new StartQueryExecutionCommand({
      QueryString: s.sql,
      WorkGroup: s.workgroup,
      QueryExecutionContext: { Catalog: s.catalog, Database: s.database },
    }),
  );
  const state = await waitForQuery(athena, QueryExecutionId as string);
  if (state !== 'SUCCEEDED') {
    const { QueryExecution } = await athena.send(new GetQueryExecutionCommand({ QueryExecutionId }));
    throw new Error(`${s.sql}: ${state} ${QueryExecution?.Status?.StateChangeReason ?? ''}`);
  }
  const rows = (await athena.send(new GetQueryResultsCommand({ QueryExecutionId }))).ResultSet?.Rows ?? [];
  return rows.slice(1).map((r) => r.Data?.map((d) => d.VarCharValue ?? null) ?? []);
}
