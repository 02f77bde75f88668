import { afterEach, beforeEach, describe, expect, test } from '@jest/globals';
import { cp, mkdtemp, readdir, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toPath } from '../io/file-io';
import { countRows, flowRows, flowTable } from '../../test/table/testing';
import { openWarehouse } from './warehouse';
import { WarehouseNotInPlaceError } from './warehouse-place';

/** The metadata files of a warehouse's tables, by name: what a write would add. */
async function metadataFiles(dir: string): Promise<string[]> {
  const files = await readdir(dir, { recursive: true });
  return files.filter((f) => f.endsWith('.metadata.json')).sort();
}

describe('a warehouse opens only at the place its tables were made', () => {
  let root: string;
  let original: string;
  beforeEach(async () => {
    // Prepare: a lake made by the real engine, one table with one commit, closed.
    root = await mkdtemp(join(tmpdir(), 'loglake-place-'));
    original = join(root, 'original');
    const w = await openWarehouse(original);
    try {
      await (await flowTable(w)).append({ rows: flowRows(5) });
    } finally {
      await w.close();
    }
  });
  afterEach(async () => rm(root, { recursive: true, force: true }));

  test('a copied folder is refused, naming the folder, the outside location and the original; nothing is written to either', async () => {
    // Prepare
    const copy = join(root, 'copy');
    await cp(original, copy, { recursive: true });
    const before = await metadataFiles(original);
    // Act
    const opened = openWarehouse(copy);
    // Assess
    const error = await opened.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(WarehouseNotInPlaceError);
    const refused = error as WarehouseNotInPlaceError;
    expect(refused.warehouse).toBe(copy);
    expect(refused.outside).toMatchObject({ table: 'lab/network.flows', origin: original });
    expect(toPath(refused.outside.location).startsWith(`${original}/warehouse/lab/network/flows-`)).toBe(
      true,
    );
    expect(refused.message).toContain(`The warehouse ${copy} cannot be opened`);
    expect(refused.message).toContain(`lives at ${refused.outside.location}, outside this folder`);
    expect(refused.message).toContain(`copied or moved from ${original}`);
    expect(refused.message).toContain('use the original folder');
    expect(await metadataFiles(original)).toEqual(before);
    expect(await metadataFiles(copy)).toEqual(before);
  });

  test('a moved folder (the original gone) is refused too, not read as a lake without tables', async () => {
    // Prepare
    const moved = join(root, 'moved');
    await rename(original, moved);
    // Act, Assess
    await expect(openWarehouse(moved)).rejects.toBeInstanceOf(WarehouseNotInPlaceError);
  });

  test("a table whose current metadata records another folder's location is refused (the catalog entry alone is not enough)", async () => {
    // Prepare: the catalog entry points inside, the Iceberg metadata outside (a catalog relocated by hand).
    const [entry] = (await readdir(original, { recursive: true })).filter((f) =>
      f.endsWith(join('tables', 'flows.json')),
    );
    const record = JSON.parse(await readFile(join(original, entry as string), 'utf8')) as {
      location: string;
    };
    const hint = join(toPath(record.location), 'metadata', 'version-hint.text');
    const file = join(toPath(record.location), 'metadata', `v${await readFile(hint, 'utf8')}.metadata.json`);
    const meta = JSON.parse(await readFile(file, 'utf8')) as { location: string };
    await writeFile(file, JSON.stringify({ ...meta, location: 'file:///elsewhere/lab/network/flows' }));
    // Act, Assess
    await expect(openWarehouse(original)).rejects.toMatchObject({
      name: 'WarehouseNotInPlaceError',
      outside: { table: 'lab/network.flows', location: 'file:///elsewhere/lab/network/flows' },
    });
  });

  test('the lake at its own place opens and works, also through a symlink to it', async () => {
    // Prepare
    const link = join(root, 'link');
    await symlink(original, link);
    for (const dir of [original, link]) {
      // Act
      const w = await openWarehouse(dir);
      try {
        const table = await w.loadTable('lab', 'network', 'flows');
        await table.append({ rows: flowRows(2) });
        // Assess
        expect(await countRows(w, table)).toBeGreaterThanOrEqual(7);
      } finally {
        await w.close();
      }
    }
  });
});
