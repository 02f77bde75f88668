// Glue's AwsDataCatalog as a catalog of the real engine, through the SDK over loopback: CTAS with
// external_location registers a Glue table; a query on `db.table` reads the table's CURRENT location; moving the
// location (UpdateTable) switches readers atomically; bytes scanned count only the projected columns; DROP TABLE
// keeps the data (Hive external); SHOW TABLES lists Glue's tables.
import { describe, test, expect, beforeAll, afterAll } from '@jest/globals';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CreateWorkGroupCommand,
  GetQueryExecutionCommand,
  GetQueryResultsCommand,
  StartQueryExecutionCommand,
} from '@aws-sdk/client-athena';
import { CreateDatabaseCommand, GetTableCommand, GlueClient, UpdateTableCommand } from '@aws-sdk/client-glue';
import { startLocalEndpoint, type LocalEndpoint } from '../server';
import { localClients, waitForQuery, type LocalClients } from '../../test/support/clients';

describe('Glue tables in the SQL engine (AwsDataCatalog)', () => {
  let dir: string;
  let endpoint: LocalEndpoint;
  let clients: LocalClients;
  let glue: GlueClient;

  const query = async (sql: string) => {
    const { QueryExecutionId } = await clients.athena.send(
      new StartQueryExecutionCommand({
        QueryString: sql,
        WorkGroup: 'wg',
        QueryExecutionContext: { Catalog: 'AwsDataCatalog', Database: 'snaps' },
      }),
    );
    const state = await waitForQuery(clients.athena, QueryExecutionId as string);
    const { QueryExecution } = await clients.athena.send(new GetQueryExecutionCommand({ QueryExecutionId }));
    const rows =
      state === 'SUCCEEDED'
        ? (
            (await clients.athena.send(new GetQueryResultsCommand({ QueryExecutionId }))).ResultSet?.Rows ??
            []
          ).map((r) => r.Data?.map((d) => d.VarCharValue ?? null))
        : [];
    return {
      state,
      reason: QueryExecution?.Status?.StateChangeReason,
      bytes: QueryExecution?.Statistics?.DataScannedInBytes ?? 0,
      rows,
    };
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'glue-bridge-'));
    endpoint = await startLocalEndpoint({ dataDir: dir });
    clients = localClients(endpoint.url);
    glue = new GlueClient({
      endpoint: endpoint.url,
      region: 'us-east-1',
      credentials: { accessKeyId: 'a', secretAccessKey: 'b' },
    });
    // A CTAS writer's workgroup, as the snapshots stack makes it: Athena refuses external_location in one that
    // enforces its configuration.
    await clients.athena.send(
      new CreateWorkGroupCommand({
        Name: 'wg',
        Configuration: {
          EnforceWorkGroupConfiguration: false,
          ResultConfiguration: { OutputLocation: 's3://snap-bucket/athena-results/' },
        },
      }),
    );
    await glue.send(new CreateDatabaseCommand({ DatabaseInput: { Name: 'snaps' } }));
  });
  afterAll(async () => {
    clients.destroy();
    glue.destroy();
    await endpoint.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('CTAS external_location writes Parquet and registers the Glue table; queries read it by location', async () => {
    const a = await query(
      "CREATE TABLE snaps.run_a WITH (format = 'PARQUET', write_compression = 'ZSTD', external_location = 's3://snap-bucket/t/run=a/') AS SELECT * FROM (VALUES (1, 'x'), (2, 'y')) AS v(id, name)",
    );
    expect(a.state).toBe('SUCCEEDED');
    const table = (await glue.send(new GetTableCommand({ DatabaseName: 'snaps', Name: 'run_a' }))).Table;
    expect(table?.StorageDescriptor?.Location).toBe('s3://snap-bucket/t/run=a/');
    expect(table?.StorageDescriptor?.Columns?.map((c) => [c.Name, c.Type])).toEqual([
      ['id', 'int'],
      ['name', 'string'],
    ]);
    expect((await query('SELECT count(*) FROM run_a')).rows.at(-1)).toEqual(['2']);
    const again = await query(
      "CREATE TABLE snaps.run_a2 WITH (external_location = 's3://snap-bucket/t/run=a/') AS SELECT 1 AS id",
    );
    expect(again.state).toBe('FAILED');
    expect(again.reason).toContain('HIVE_PATH_ALREADY_EXISTS');
  });

  test('moving the location switches readers to the other run; only projected columns count as scanned', async () => {
    await query(
      "CREATE TABLE snaps.run_b WITH (external_location = 's3://snap-bucket/t/run=b/') AS SELECT * FROM (VALUES (3, 'z', 'long text that takes bytes')) AS v(id, name, note)",
    );
    const current = (await glue.send(new GetTableCommand({ DatabaseName: 'snaps', Name: 'run_a' }))).Table!;
    await glue.send(
      new UpdateTableCommand({
        DatabaseName: 'snaps',
        VersionId: current.VersionId,
        TableInput: {
          Name: 'run_a',
          TableType: current.TableType,
          StorageDescriptor: { ...current.StorageDescriptor, Location: 's3://snap-bucket/t/run=b/' },
        },
      }),
    );
    expect((await query('SELECT id, name FROM run_a')).rows.at(-1)).toEqual(['3', 'z']);
    const narrow = await query('SELECT id FROM run_b');
    const wide = await query('SELECT id, name, note FROM run_b');
    expect(narrow.bytes).toBeGreaterThan(0);
    expect(wide.bytes).toBeGreaterThan(narrow.bytes);
  });

  test('SHOW TABLES and DESCRIBE read the Glue catalog', async () => {
    const tables = await query('SHOW TABLES');
    expect(tables.state).toBe('SUCCEEDED');
    expect(tables.rows.map((r) => r?.[0])).toEqual(expect.arrayContaining(['run_a', 'run_b']));
    const described = await query('DESCRIBE run_b');
    expect(described.rows.map((r) => r?.slice(0, 2))).toEqual([
      ['id', 'int'],
      ['name', 'string'],
      ['note', 'string'],
    ]);
  });

  test("CTAS records Trino's types as Hive names and reads them back (millisecond timestamps); Hive-less types are refused as Athena refuses them", async () => {
    const ctas = await query(
      "CREATE TABLE snaps.typed WITH (external_location = 's3://snap-bucket/typed/') AS SELECT ARRAY['a', 'b'] AS tags, CAST(1 AS tinyint) AS ti, CAST(2 AS smallint) AS si, TIMESTAMP '2024-01-01 10:00:00.123956' AS ts, MAP(ARRAY['k'], ARRAY[1]) AS m, CAST(ROW(1, 'x') AS ROW(a int, b varchar)) AS r",
    );
    expect(ctas.state).toBe('SUCCEEDED');
    const table = (await glue.send(new GetTableCommand({ DatabaseName: 'snaps', Name: 'typed' }))).Table;
    expect(table?.StorageDescriptor?.Columns?.map((c) => c.Type)).toEqual([
      'array<string>',
      'tinyint',
      'smallint',
      'timestamp',
      'map<string,int>',
      'struct<a:int,b:string>',
    ]);
    // Athena's Hive timestamp has millisecond precision (Athena data types page): rounded as Trino rounds.
    expect(
      (await query('SELECT tags[2], ti, si, ts, m, r.b, typeof(ti), typeof(ts) FROM typed')).rows.at(-1),
    ).toEqual(['b', '1', '2', '2024-01-01 10:00:00.124', '{k=1}', 'x', 'tinyint', 'timestamp(3)']);
    const ip = await query(
      "CREATE TABLE snaps.ips WITH (external_location = 's3://snap-bucket/ips/') AS SELECT IPADDRESS '10.0.0.1' AS ip",
    );
    expect(ip.reason).toBe('NOT_SUPPORTED: Unsupported Hive type: ipaddress');
    expect(existsSync(join(dir, 's3', 'snap-bucket', 'ips'))).toBe(false);
  });

  test('DROP TABLE removes the catalog entry and keeps the files; unknown tables name AwsDataCatalog', async () => {
    expect((await query('DROP TABLE run_b')).state).toBe('SUCCEEDED');
    expect(existsSync(join(dir, 's3', 'snap-bucket', 't', 'run=b'))).toBe(true);
    const missing = await query('SELECT * FROM run_b');
    expect(missing.state).toBe('FAILED');
    expect(missing.reason).toContain('awsdatacatalog.snaps.run_b');
    expect(missing.reason).not.toContain('s3tablescatalog');
  });
});
