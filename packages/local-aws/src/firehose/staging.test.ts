import { describe, test, expect, beforeAll, afterAll } from '@jest/globals';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Schema, Warehouse } from '@loglake/lakehouse';
import { loadEngineFactories } from '../engine';
import { FaultInjector } from '../faults';
import { MAX_BUFFER_BYTES, StreamDelivery, type DeliveryStats } from './delivery';
import { StagedTable, stageRawRecords } from './staging';

// Both delivery paths on the real engine: the raw NDJSON fast path (canonical records) and the rows path
// (anything else) must store the same values.
describe('Firehose delivery paths on the real engine', () => {
  let dir: string;
  let warehouse: Warehouse;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'local-staging-'));
    warehouse = await (await loadEngineFactories()).openWarehouse(join(dir, 'warehouse'));
    await warehouse.createTableBucket('paths-bucket');
    await warehouse.createNamespace('paths-bucket', 'network');
  });
  afterAll(async () => {
    await warehouse.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A delivery into `table` of the test warehouse: 1 MiB / 60 s buffering, staged NDJSON, error output. */
  function streamDelivery(
    table: string,
    faults: FaultInjector,
    maxBufferBytes = MAX_BUFFER_BYTES,
  ): StreamDelivery {
    return new StreamDelivery(
      warehouse,
      {
        bucket: 'paths-bucket',
        database: 'network',
        table,
        maxBufferBytes,
        intervalMs: 60_000,
        stagingDir: join(dir, 'staging'),
        errorOutput: {
          s3Root: join(dir, 's3'),
          bucket: 'errors',
          prefix: 'e/',
          streamName: 's',
          database: 'network',
          table,
          catalogArn: 'arn',
          region: 'us-east-1',
        },
      },
      faults,
      undefined,
      () => undefined,
    );
  }

  async function deliver(
    table: string,
    records: string[],
  ): Promise<{ stats: DeliveryStats; rows: unknown[][] }> {
    const handle = await warehouse.createTable('paths-bucket', 'network', table, {
      columns: [
        { name: 'srcaddr', type: 'string' },
        { name: 'bytes', type: 'long' },
        { name: 'port', type: 'int' },
        { name: 'ratio', type: 'double' },
        { name: 'ok', type: 'boolean' },
        { name: 'start_time', type: 'timestamp' },
      ],
    });
    const delivery = streamDelivery(table, new FaultInjector());
    delivery.add(records.map((r) => ({ data: Buffer.from(r), arrivalMs: Date.now() })));
    await delivery.drain();
    const plan = await handle.scan();
    const reader = await warehouse.connection.runAndReadAll(
      `SELECT srcaddr, bytes::VARCHAR, port, ratio, ok, strftime(start_time, '%Y-%m-%dT%H:%M:%S.%g'), strftime(start_time, '%f') FROM ${plan.relationSql} AS t ORDER BY srcaddr`,
    );
    return { stats: delivery.stats, rows: reader.getRows() };
  }

  const expected = [
    ['10.0.0.1', '1500', 443, 0.5, true, '2026-11-29T10:00:00.123', '123000'],
    ['10.0.0.2', '9007199254740991', 22, 2, false, '2026-11-29T10:00:01.000', '000000'],
    ['10.0.0.3', null, null, null, null, null, null],
  ];

  test('canonical records (one per line, trailing newline allowed) take the raw path', async () => {
    const { stats, rows } = await deliver('raw_path', [
      '{"srcaddr":"10.0.0.1","bytes":1500,"port":443,"ratio":0.5,"ok":true,"start_time":"2026-11-29T10:00:00.123Z","extra":"ignored"}\n',
      '{"srcaddr":"10.0.0.2","bytes":9007199254740991,"port":22,"ratio":2,"ok":false,"start_time":"2026-11-29T10:00:01.000Z"}',
      '{"srcaddr":"10.0.0.3"}',
    ]);
    expect(stats).toMatchObject({ recordsDelivered: 3, commits: 1, rawPathFlushes: 1 });
    expect(rows).toEqual(expected);
    expect(readdirSync(join(dir, 'staging'))).toEqual([]);
  });

  test('records needing conversion take the rows path and store the same values', async () => {
    const { stats, rows } = await deliver('rows_path', [
      '{"SrcAddr":"10.0.0.1","bytes":"1500","port":443,"ratio":0.5,"ok":"true","start_time":"2026-11-29 10:00:00.123"}',
      '{\n "srcaddr": "10.0.0.2", "bytes": 9007199254740991, "port": 22, "ratio": 2, "ok": false,\n "start_time": 1795946401000000\n}',
      '{"srcaddr":"10.0.0.3"}',
    ]);
    expect(stats).toMatchObject({ recordsDelivered: 3, commits: 1 });
    expect(stats.rawPathFlushes ?? 0).toBe(0);
    expect(rows).toEqual(expected);
  });

  test('epoch-microsecond timestamps (what Firehose takes) stay on the raw path, exact to the microsecond', async () => {
    const micros = Date.UTC(2026, 10, 29, 10, 0, 0, 123) * 1000 + 456;
    const { stats, rows } = await deliver('raw_micros', [
      `{"srcaddr":"10.0.0.1","bytes":1500,"port":443,"ratio":0.5,"ok":true,"start_time":${micros}}`,
      `{"srcaddr":"10.0.0.2","bytes":9007199254740991,"port":22,"ratio":2,"ok":false,"start_time":${micros + 877_544}}`,
      '{"srcaddr":"10.0.0.3"}',
    ]);
    expect(stats).toMatchObject({ recordsDelivered: 3, commits: 1, rawPathFlushes: 1 });
    expect(rows).toEqual([
      ['10.0.0.1', '1500', 443, 0.5, true, '2026-11-29T10:00:00.123', '123456'],
      ['10.0.0.2', '9007199254740991', 22, 2, false, '2026-11-29T10:00:01.001', '001000'],
      ['10.0.0.3', null, null, null, null, null, null],
    ]);
  });

  test('a batch mixing micros and ISO strings in one column takes the rows path with the same values', async () => {
    const micros = Date.UTC(2026, 10, 29, 10, 0, 0, 123) * 1000;
    const { stats, rows } = await deliver('mixed_forms', [
      `{"srcaddr":"10.0.0.1","bytes":1500,"port":443,"ratio":0.5,"ok":true,"start_time":${micros}}`,
      '{"srcaddr":"10.0.0.2","bytes":9007199254740991,"port":22,"ratio":2,"ok":false,"start_time":"2026-11-29T10:00:01.000Z"}',
      '{"srcaddr":"10.0.0.3"}',
    ]);
    expect(stats.rawPathFlushes ?? 0).toBe(0);
    expect(rows).toEqual(expected);
  });

  test('a buffer prepared before a column was added is mapped again at commit, so the new column is filled', async () => {
    // Prepare: a delivery whose commit waits (a gated slow flush) until the test has added a column.
    const handle = await warehouse.createTable('paths-bucket', 'network', 'evolving', {
      columns: [{ name: 'srcaddr', type: 'string' }],
    });
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    class GatedFaults extends FaultInjector {
      override async slowFlush(): Promise<void> {
        await gate;
      }
    }
    const delivery = streamDelivery('evolving', new GatedFaults());

    // Act: the buffer is cut and prepared with the old schema; the column lands before the commit.
    delivery.add([{ data: Buffer.from('{"srcaddr":"10.0.0.1","action":"ACCEPT"}'), arrivalMs: Date.now() }]);
    const drained = delivery.drain();
    await new Promise((resolve) => setTimeout(resolve, 50));
    await handle.addColumns([{ name: 'action', type: 'string' }]);
    open();
    await drained;

    // Assess
    const plan = await handle.scan();
    const reader = await warehouse.connection.runAndReadAll(
      `SELECT srcaddr, action FROM ${plan.relationSql} AS t`,
    );
    expect(reader.getRows()).toEqual([['10.0.0.1', 'ACCEPT']]);
    expect(delivery.stats).toMatchObject({ recordsDelivered: 1, commits: 1, rawPathFlushes: 1 });
    expect(readdirSync(join(dir, 'staging'))).toEqual([]);
  });

  test('a buffer of several segments is one commit read in one query; the buffer cap cuts early', async () => {
    // Prepare: ~8 KiB records, a 3 MiB cap.
    const handle = await warehouse.createTable('paths-bucket', 'network', 'segments', {
      columns: [
        { name: 'srcaddr', type: 'string' },
        { name: 'n', type: 'long' },
      ],
    });
    const delivery = streamDelivery('segments', new FaultInjector(), 3 * 1024 * 1024);
    const records = (from: number, count: number) =>
      Array.from({ length: count }, (_, i) => ({
        data: Buffer.from(
          JSON.stringify({ srcaddr: `10.0.0.${(from + i) % 250}-${'x'.repeat(8000)}`, n: from + i }),
        ),
        arrivalMs: Date.now(),
      }));

    const statements: string[] = [];
    const run = warehouse.connection.run.bind(warehouse.connection);
    warehouse.connection.run = (async (sql: string) => {
      statements.push(sql);
      return run(sql);
    }) as typeof warehouse.connection.run;
    const query = StagedTable.prototype.query;
    let tableCommits = 0;
    StagedTable.prototype.query = async function (this: StagedTable, staged) {
      const result = await query.call(this, staged);
      if (result) tableCommits++;
      return result;
    };

    // Act: ~2.4 MiB (three segments) waits for the interval; then ~4.8 MiB more meets the cap once.
    delivery.add(records(0, 300));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const beforeDrain = delivery.stats.commits;
    await delivery.drain();
    const afterFirst = { ...delivery.stats };
    delivery.add(records(300, 600));
    await delivery.drain();

    // Assess
    expect(beforeDrain).toBe(0);
    expect(afterFirst).toMatchObject({ commits: 1, recordsDelivered: 300, rawPathFlushes: 1 });
    expect(delivery.stats).toMatchObject({
      commits: 3,
      flushes: 3,
      recordsDelivered: 900,
      rawPathFlushes: 3,
    });
    const plan = await handle.scan();
    const reader = await warehouse.connection.runAndReadAll(
      `SELECT count(*)::INTEGER, sum(n)::BIGINT::VARCHAR, count(DISTINCT n)::INTEGER FROM ${plan.relationSql} AS t`,
    );
    expect(reader.getRows()).toEqual([[900, String((899 * 900) / 2), 900]]);
    expect(readdirSync(join(dir, 'staging'))).toEqual([]);
    // Each buffer's segments were read into a DuckDB table as they were staged, and the table is gone after.
    warehouse.connection.run = run;
    StagedTable.prototype.query = query;
    expect(tableCommits).toBe(3);
    const inserts = statements.filter((sql) => sql.startsWith('INSERT INTO "firehose_buffer_'));
    expect(inserts.length).toBeGreaterThanOrEqual(7);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const left = await warehouse.connection.runAndReadAll(
      "SELECT count(*)::INTEGER FROM duckdb_tables() WHERE table_name LIKE 'firehose_buffer_%'",
    );
    expect(left.getRows()).toEqual([[0]]);
  });

  test('a buffer table takes parts mapped with equal schemas (not only the same object) and refuses others', async () => {
    // Prepare: two parts staged with equal but distinct schema objects, a third with another schema.
    const schema = (): Schema => ({
      'schema-id': 0,
      type: 'struct',
      fields: [{ id: 1, name: 'srcaddr', type: 'string', required: false }],
    });
    const stagingDir = join(dir, 'table-parts');
    const part = (s: Schema, addr: string) =>
      stageRawRecords(stagingDir, s, [Buffer.from(`{"srcaddr":"${addr}"}`)]);
    const run = async (sql: string) => warehouse.connection.run(sql);
    const equal = new StagedTable(run);
    const other = new StagedTable(run);
    const a = part(schema(), '10.0.0.1');
    const b = part(schema(), '10.0.0.2');
    const c = part({ ...schema(), 'schema-id': 1 }, '10.0.0.3');

    // Act
    equal.load(a);
    equal.load(b);
    other.load(a);
    other.load(c);
    const query = await equal.query([a, b]);
    const refused = await other.query([a, c]);

    // Assess
    expect(query).toBeDefined();
    const reader = await warehouse.connection.runAndReadAll(`${query?.sql} ORDER BY srcaddr`);
    expect(reader.getRows()).toEqual([['10.0.0.1'], ['10.0.0.2']]);
    expect(refused).toBeUndefined();
    expect(await equal.query([a])).toBeUndefined();
    await equal.drop();
    await other.drop();
    for (const staged of [a, b, c]) staged.dispose();
  });
});
