import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { flowRows, flowTable, query, testWarehouse, type TestWarehouse } from '../../test/table/testing';

describe('schema evolution without rewrites', () => {
  let env: TestWarehouse;
  beforeAll(async () => {
    env = await testWarehouse();
  });
  afterAll(async () => env.dispose());

  test('added columns: new schema, no snapshot, no file rewritten, old rows read NULL', async () => {
    // Prepare
    const table = await flowTable(env.warehouse, 'add_columns');
    await table.append({ rows: flowRows(6) });
    const before = await table.metadata();
    // Act
    await table.addColumns([
      { name: 'label', type: 'string' },
      { name: 'score', type: 'decimal(10,2)' },
    ]);
    await table.append({ rows: [{ ...flowRows(1)[0], label: 'new', score: '12.50' }] });
    // Assess
    const meta = await table.metadata();
    expect(meta.snapshots).toHaveLength(2);
    expect(meta['current-schema-id']).toBe(1);
    expect(meta['last-column-id']).toBe(7);
    expect(meta.schemas[1]!.fields.slice(5)).toEqual([
      { id: 6, name: 'label', type: 'string', required: false },
      { id: 7, name: 'score', type: 'decimal(10,2)', required: false },
    ]);
    expect(meta.snapshots[0]!['manifest-list']).toBe(before.snapshots[0]!['manifest-list']);
    const plan = await table.scan();
    const rows = await query(
      env.warehouse,
      `SELECT label, score::VARCHAR AS score, typeof(score) AS t FROM ${plan.relationSql} AS r ORDER BY label NULLS FIRST`,
    );
    expect(rows).toHaveLength(7);
    expect(rows.slice(0, 6).every((r) => r['label'] === null && r['score'] === null)).toBe(true);
    expect(rows[6]).toEqual({ label: 'new', score: '12.50', t: 'DECIMAL(10,2)' });
    // Old files record no metrics for the new column, which reads as unknown (Iceberg's InclusiveMetricsEvaluator:
    // a missing count or bound might match), so they are scanned, not pruned: the filter finds the one new row.
    const filtered = await table.scan({ filter: { op: 'eq', column: 'label', value: 'new' } });
    expect(filtered.stats.filesScanned).toBe(4);
    const found = await query(
      env.warehouse,
      `SELECT label FROM ${filtered.relationSql} AS r WHERE label = 'new'`,
    );
    expect(found).toEqual([{ label: 'new' }]);
  });

  test('rename: old files read under the new name (field ids); time travel keeps the old name', async () => {
    // Prepare
    const table = await flowTable(env.warehouse, 'rename');
    const first = await table.append({ rows: flowRows(4, 1) });
    // Act
    await table.renameColumn('bytes', 'byte_count');
    await table.append({
      rows: [{ ...flowRows(1)[0], bytes: undefined, byte_count: 7 }].map(({ bytes: _b, ...r }) => r),
    });
    // Assess
    const plan = await table.scan();
    const [sum] = await query(env.warehouse, `SELECT sum(byte_count) AS s FROM ${plan.relationSql} AS r`);
    expect(Number(sum?.['s'])).toBe(100 + 101 + 102 + 103 + 7);
    const old = await table.scan({ snapshotId: first.snapshot!['snapshot-id'] });
    expect(old.schema.fields.map((f) => f.name)).toContain('bytes');
    const [oldSum] = await query(env.warehouse, `SELECT sum(bytes) AS s FROM ${old.relationSql} AS r`);
    expect(Number(oldSum?.['s'])).toBe(406);
    await expect(table.renameColumn('nope', 'x')).rejects.toMatchObject({ name: 'SchemaMismatchError' });
    await expect(table.renameColumn('action', 'src_addr')).rejects.toMatchObject({
      name: 'InvalidSchemaError',
    });
  });

  test('set sort order and properties are metadata-only commits', async () => {
    // Prepare
    const table = await flowTable(env.warehouse, 'sorting');
    // Act
    await table.setSortOrder([{ sourceColumn: 'start_time', direction: 'desc', nullOrder: 'nulls-last' }]);
    await table.setProperties({ 'write.target-file-size-bytes': '1048576' });
    await table.append({ rows: flowRows(10, 1) });
    // Assess
    const meta = await table.metadata();
    expect(meta['default-sort-order-id']).toBe(2);
    expect(meta.properties['write.target-file-size-bytes']).toBe('1048576');
    const plan = await table.scan({ withRowIds: true });
    const rows = await query(
      env.warehouse,
      `SELECT start_time::VARCHAR AS t FROM ${plan.relationSql} AS r ORDER BY pos`,
    );
    const times = rows.map((r) => String(r['t']));
    expect(times).toEqual([...times].sort().reverse());
  });
});
