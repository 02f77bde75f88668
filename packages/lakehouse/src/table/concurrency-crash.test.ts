import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { openWarehouse } from '../catalog/warehouse';
import { countRows, flowRows, flowTable, testWarehouse, type TestWarehouse } from '../../test/table/testing';

const CHILD = fileURLToPath(new URL('../../test/table/crash-child.ts', import.meta.url));

/** Runs the child until it exits (crash hook) or `killAfterMs` passes (then SIGKILL). */
function runChild(
  dataDir: string,
  table: string,
  env: Record<string, string>,
  killAfterMs?: number,
): Promise<{ code: number | null; signal: string | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, dataDir, table], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (killAfterMs !== undefined && out.includes('committed 1'))
        setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    });
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve({ code, signal, out }));
  });
}

describe('optimistic concurrency and crash safety', () => {
  let env: TestWarehouse;
  beforeAll(async () => {
    env = await testWarehouse();
  });
  afterAll(async () => env.dispose());

  test('concurrent appenders through two warehouses on one data directory lose no commit', async () => {
    // Prepare
    const table = await flowTable(env.warehouse, 'concurrent');
    const other = await openWarehouse(env.dir);
    const handles = [
      table,
      await other.loadTable('lab', 'network', 'concurrent'),
      table,
      await other.loadTable('lab', 'network', 'concurrent'),
    ];
    try {
      // Act: 4 writers × 3 appends of 5 rows, plus a deleter racing them
      await Promise.all([
        ...handles.map(async (h, w) => {
          for (let i = 0; i < 3; i++) await h.append({ rows: flowRows(5, 2, (w * 3 + i) * 5) });
        }),
        (async () => {
          await new Promise((r) => setTimeout(r, 50));
          await table.deleteWhere({ op: 'eq', column: 'bytes', value: 100 });
        })(),
      ]);
      // Assess
      const meta = await table.metadata();
      const appends = meta.snapshots.filter((s) => s.summary.operation === 'append');
      expect(appends).toHaveLength(12);
      expect(meta.snapshots.map((s) => s['sequence-number'])).toEqual(meta.snapshots.map((_, i) => i + 1));
      const deleted = Number(
        meta.snapshots.find((s) => s.summary.operation === 'delete')?.summary['added-position-deletes'] ?? 0,
      );
      expect(await countRows(env.warehouse, table)).toBe(60 - deleted);
      expect(Number(meta.snapshots.at(-1)!.summary['total-records'])).toBe(60);
    } finally {
      await other.close();
    }
  });

  test.each(['before-publish', 'after-publish'])(
    'a writer killed %s leaves a readable table at a committed version',
    async (point) => {
      // Prepare
      const table = await flowTable(env.warehouse, `crash_${point.replace('-', '_')}`);
      await table.append({ rows: flowRows(10, 2) });
      // Act
      const result = await runChild(env.dir, table.name, { LOGLAKE_CRASH_AT: point });
      // Assess
      expect(result.signal).toBe('SIGKILL');
      const meta = await table.metadata();
      const expected = point === 'after-publish' ? 20 : 10;
      expect(meta.snapshots).toHaveLength(expected / 10);
      expect(await countRows(env.warehouse, table)).toBe(expected);
      // And the table still takes commits.
      await table.append({ rows: flowRows(1) });
      expect(await countRows(env.warehouse, table)).toBe(expected + 1);
    },
  );

  test('a writer killed at an arbitrary moment leaves the table at its last committed state', async () => {
    // Prepare
    const table = await flowTable(env.warehouse, 'crash_random');
    // Act
    const result = await runChild(env.dir, table.name, {}, 30);
    // Assess
    expect(result.signal).toBe('SIGKILL');
    const meta = await table.metadata();
    const current = meta.snapshots.find((s) => s['snapshot-id'] === meta['current-snapshot-id']);
    expect(meta.snapshots.length).toBeGreaterThanOrEqual(2);
    expect(await countRows(env.warehouse, table)).toBe(Number(current?.summary['total-records']));
  });
});
