import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { TableHandle } from '../contract';
import { toPath } from '../io/file-io';
import { snapshotFiles } from '../manifests/live-files';
import { decodeBound } from '../metadata/values';
import { flowRows, flowTable, query, testWarehouse, type TestWarehouse } from './testing';

/** Per written file: whether rows follow src_addr order, and the exact min/max read back from the file. */
async function writtenFiles(env: TestWarehouse, table: TableHandle) {
  const meta = await table.metadata();
  const snapshot = meta.snapshots.find((s) => s['snapshot-id'] === meta['current-snapshot-id']) ?? null;
  const { dataFiles } = await snapshotFiles(meta, snapshot);
  return Promise.all(
    dataFiles.map(async ({ file }) => {
      const [row] = await query(
        env.warehouse,
        `SELECT bool_and(coalesce(prev <= src_addr, true)) AS sorted, min(src_addr) AS lo, max(src_addr) AS hi,
                min(bytes) AS blo, max(bytes) AS bhi, count(*) AS n
         FROM (SELECT src_addr, bytes, lag(src_addr) OVER (ORDER BY file_row_number) AS prev
               FROM read_parquet('${toPath(file.filePath)}', file_row_number = true))`,
      );
      return { file, row: row as Record<string, unknown> };
    }),
  );
}

describe('data writer', () => {
  let env: TestWarehouse;
  beforeAll(async () => {
    env = await testWarehouse();
  });
  afterAll(async () => env.dispose());

  test.each([
    ['one file per hour', {}],
    [
      'several files per hour',
      { 'write.target-file-size-bytes': '1000', 'loglake.parquet.row-group-rows': '2048' },
    ],
  ])('%s: files in the declared order, bounds exactly the files’ min and max', async (name, properties) => {
    // Prepare
    const table = await flowTable(env.warehouse, name.replaceAll(' ', '_'));
    await table.setProperties(properties);
    const rows = flowRows(15000, 3).reverse();
    // Act
    await table.append({ rows });
    const files = await writtenFiles(env, table);
    // Assess
    expect(files.reduce((a, f) => a + Number(f.row['n']), 0)).toBe(15000);
    expect(new Set(files.map((f) => String(f.file.partition))).size).toBe(3);
    if (Object.keys(properties).length > 0) expect(files.length).toBeGreaterThan(3);
    else expect(files).toHaveLength(3);
    for (const { file, row } of files) {
      expect(row['sorted']).toBe(true);
      expect(file.recordCount).toBe(Number(row['n']));
      expect(Buffer.from(file.lowerBounds.get(1)!).toString()).toBe(row['lo']);
      expect(Buffer.from(file.upperBounds.get(1)!).toString()).toBe(row['hi']);
      expect(decodeBound('long', file.lowerBounds.get(3)!)).toBe(row['blo']);
      expect(decodeBound('long', file.upperBounds.get(3)!)).toBe(row['bhi']);
    }
  });
});
