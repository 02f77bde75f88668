import { describe, test, expect, beforeAll, afterAll } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CreateWorkGroupCommand,
  DeleteWorkGroupCommand,
  GetQueryExecutionCommand,
  GetQueryResultsCommand,
  GetWorkGroupCommand,
  InvalidRequestException,
  ListQueryExecutionsCommand,
  ListWorkGroupsCommand,
  StartQueryExecutionCommand,
  StopQueryExecutionCommand,
  ListDataCatalogsCommand,
} from '@aws-sdk/client-athena';
import { startLocalEndpoint, type LocalEndpoint } from '../server';
import { FakeSqlEngine, MemoryWarehouse } from '../../test/support/memory-warehouse';
import { localClients, waitForQuery, type LocalClients } from '../../test/support/clients';

describe('Athena over loopback (protocol layer, SQL engine stand-in)', () => {
  let dir: string;
  let endpoint: LocalEndpoint;
  let clients: LocalClients;
  const warehouse = new MemoryWarehouse();
  const sql = new FakeSqlEngine(warehouse);
  const start = (QueryString: string, WorkGroup = 'lab') =>
    clients.athena.send(
      new StartQueryExecutionCommand({
        QueryString,
        WorkGroup,
        QueryExecutionContext: { Catalog: 's3tablescatalog/lab-bucket', Database: 'network' },
      }),
    );

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'local-athena-'));
    endpoint = await startLocalEndpoint({
      dataDir: dir,
      engine: { openWarehouse: async () => warehouse, createSqlEngine: () => sql },
    });
    clients = localClients(endpoint.url);
    await clients.athena.send(
      new CreateWorkGroupCommand({
        Name: 'lab',
        Configuration: {
          BytesScannedCutoffPerQuery: 10_000_000,
          EnforceWorkGroupConfiguration: true,
          ManagedQueryResultsConfiguration: { Enabled: true },
        },
      }),
    );
  });
  afterAll(async () => {
    clients.destroy();
    await endpoint.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('workgroups: create, get, list, duplicate and missing names', async () => {
    const { WorkGroup } = await clients.athena.send(new GetWorkGroupCommand({ WorkGroup: 'lab' }));
    const list = await clients.athena.send(new ListWorkGroupsCommand({}));
    expect(WorkGroup?.State).toBe('ENABLED');
    expect(WorkGroup?.Configuration?.BytesScannedCutoffPerQuery).toBe(10_000_000);
    expect(WorkGroup?.CreationTime).toBeInstanceOf(Date);
    expect(list.WorkGroups?.map((g) => g.Name)).toEqual(['lab', 'primary']);
    await expect(clients.athena.send(new CreateWorkGroupCommand({ Name: 'lab' }))).rejects.toBeInstanceOf(
      InvalidRequestException,
    );
    await expect(clients.athena.send(new GetWorkGroupCommand({ WorkGroup: 'nope' }))).rejects.toThrow(
      'WorkGroup nope is not found.',
    );
    await expect(
      clients.athena.send(
        new CreateWorkGroupCommand({ Name: 'tiny', Configuration: { BytesScannedCutoffPerQuery: 5 } }),
      ),
    ).rejects.toBeInstanceOf(InvalidRequestException);
    await clients.athena.send(new CreateWorkGroupCommand({ Name: 'temp' }));
    await clients.athena.send(new DeleteWorkGroupCommand({ WorkGroup: 'temp' }));
  });

  test('a SELECT SUCCEEDS with statistics, context and a header row', async () => {
    // Act
    const { QueryExecutionId } = await start('SELECT count(*) FROM network.vpc_flow_logs');
    const state = await waitForQuery(clients.athena, QueryExecutionId as string);
    const { QueryExecution: q } = await clients.athena.send(
      new GetQueryExecutionCommand({ QueryExecutionId }),
    );
    const results = await clients.athena.send(new GetQueryResultsCommand({ QueryExecutionId }));

    // Assess
    expect(state).toBe('SUCCEEDED');
    expect(q?.StatementType).toBe('DML');
    expect(q?.QueryExecutionContext).toEqual({ Catalog: 's3tablescatalog/lab-bucket', Database: 'network' });
    expect(q?.Statistics?.DataScannedInBytes).toBe(1234);
    expect(q?.Statistics?.EngineExecutionTimeInMillis).toBe(5);
    expect(q?.Statistics?.TotalExecutionTimeInMillis).toBeGreaterThanOrEqual(0);
    expect(q?.Status?.CompletionDateTime).toBeInstanceOf(Date);
    expect(sql.calls.at(-1)).toMatchObject({
      bytesScannedCutoff: 10_000_000,
      catalog: 's3tablescatalog/lab-bucket',
      database: 'network',
    });
    expect(results.ResultSet?.Rows).toEqual([
      { Data: [{ VarCharValue: '_col0' }] },
      { Data: [{ VarCharValue: '0' }] },
    ]);
    expect(results.ResultSet?.ResultSetMetadata?.ColumnInfo?.[0]).toMatchObject({
      Name: '_col0',
      Type: 'bigint',
      Precision: 19,
      Nullable: 'UNKNOWN',
    });
  });

  test('GetQueryResults pages 1,000 rows at a time, header first, NULL as an empty datum', async () => {
    const { QueryExecutionId } = await start('SELECT BIG');
    await waitForQuery(clients.athena, QueryExecutionId as string);
    const pages = [];
    let NextToken: string | undefined;
    do {
      const page = await clients.athena.send(new GetQueryResultsCommand({ QueryExecutionId, NextToken }));
      pages.push(page.ResultSet?.Rows ?? []);
      NextToken = page.NextToken;
    } while (NextToken);
    expect(pages.map((p) => p.length)).toEqual([1000, 1000, 501]);
    expect(pages[0]?.[0]).toEqual({ Data: [{ VarCharValue: 'n' }, { VarCharValue: 'label' }] });
    expect(pages[0]?.[2]).toEqual({ Data: [{ VarCharValue: '1' }, {}] });
  });

  test('FAILED queries carry StateChangeReason and AthenaError; the cutoff cancels with Athena reason', async () => {
    const failed = (await start('FAIL')).QueryExecutionId as string;
    const huge = (await start('HUGE')).QueryExecutionId as string;
    expect(await waitForQuery(clients.athena, failed)).toBe('FAILED');
    expect(await waitForQuery(clients.athena, huge)).toBe('CANCELLED');
    const f = (await clients.athena.send(new GetQueryExecutionCommand({ QueryExecutionId: failed })))
      .QueryExecution;
    const h = (await clients.athena.send(new GetQueryExecutionCommand({ QueryExecutionId: huge })))
      .QueryExecution;
    expect(f?.Status?.StateChangeReason).toBe("COLUMN_NOT_FOUND: line 1:8: Column 'nope' cannot be resolved");
    expect(f?.Status?.AthenaError).toMatchObject({ ErrorCategory: 2, Retryable: false });
    expect(h?.Status?.StateChangeReason).toBe('Bytes scanned limit was exceeded');
    await expect(
      clients.athena.send(new GetQueryResultsCommand({ QueryExecutionId: failed })),
    ).rejects.toThrow(/Final query state: FAILED/);
  });

  test('StopQueryExecution cancels a running query; ListQueryExecutions lists newest first per workgroup', async () => {
    const { QueryExecutionId } = await start('SLOW');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const running = await clients.athena.send(new GetQueryExecutionCommand({ QueryExecutionId }));
    expect(running.QueryExecution?.Status?.State).toBe('RUNNING');
    await clients.athena.send(new StopQueryExecutionCommand({ QueryExecutionId }));
    expect(await waitForQuery(clients.athena, QueryExecutionId as string)).toBe('CANCELLED');
    const list = await clients.athena.send(new ListQueryExecutionsCommand({ WorkGroup: 'lab' }));
    expect(list.QueryExecutionIds?.[0]).toBe(QueryExecutionId);
  });

  test('a CTAS with external_location is refused in a workgroup that enforces its configuration, as Athena refuses it', async () => {
    // Prepare: the lab workgroup enforces (managed results); a CTAS writer's workgroup does not.
    await clients.athena.send(
      new CreateWorkGroupCommand({
        Name: 'ctas-writer',
        Configuration: {
          BytesScannedCutoffPerQuery: 10_000_000,
          EnforceWorkGroupConfiguration: false,
          ResultConfiguration: { OutputLocation: 's3://snapshots/athena-results/' },
        },
      }),
    );
    const ctas = `CREATE TABLE snap.day WITH (format = 'PARQUET', External_Location = 's3://snapshots/day/') AS SELECT 1 AS a`;

    // Act + Assess: refused synchronously by StartQueryExecution, with Athena's exception and text
    const refused = start(ctas, 'lab');
    await expect(refused).rejects.toBeInstanceOf(InvalidRequestException);
    await expect(start(ctas, 'lab')).rejects.toThrow(
      "The Create Table As Select query failed because it was submitted with an 'external_location' property to an Athena Workgroup that enforces a centralized output location for all queries. Please remove the 'external_location' property and resubmit the query.",
    );
    // Accepted where the workgroup does not enforce, and without external_location where it does.
    await expect(start(ctas, 'ctas-writer')).resolves.toHaveProperty('QueryExecutionId');
    await expect(start('CREATE TABLE snap.day2 AS SELECT 1 AS a', 'lab')).resolves.toHaveProperty(
      'QueryExecutionId',
    );
  });

  test('primary without an output location refuses queries as Athena does; unknown operations name themselves', async () => {
    await expect(
      clients.athena.send(new StartQueryExecutionCommand({ QueryString: 'SELECT 1' })),
    ).rejects.toThrow(/No output location provided/);
    await expect(clients.athena.send(new ListDataCatalogsCommand({}))).rejects.toThrow(
      'Athena operation ListDataCatalogs is not supported by the local endpoint',
    );
  });
});
