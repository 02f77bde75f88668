import { afterEach, beforeEach, describe, expect, test } from '@jest/globals';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openWarehouse } from '@loglake/lakehouse';
import { localDataPath } from './data-dir';
import { DataFolderNotInPlaceError } from './data-place';
import { startLocalEndpoint } from './server';

describe('the endpoint starts only on a data folder at its own place', () => {
  let root: string;
  let original: string;
  beforeEach(async () => {
    // Prepare: a data folder whose warehouse the real engine made, with one table.
    root = mkdtempSync(join(tmpdir(), 'local-place-'));
    original = join(root, 'original');
    const w = await openWarehouse(localDataPath(original, 'warehouse'));
    try {
      await w.createTableBucket('place-bucket');
      await w.createNamespace('place-bucket', 'network');
      await w.createTable('place-bucket', 'network', 'flows', { columns: [{ name: 'n', type: 'long' }] });
    } finally {
      await w.close();
    }
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  test('a copy is refused naming the data folder and the original, and its lock is let go', async () => {
    // Prepare
    const copy = join(root, 'copy');
    cpSync(original, copy, { recursive: true });
    // Act
    const started = startLocalEndpoint({ dataDir: copy });
    // Assess
    await expect(started).rejects.toBeInstanceOf(DataFolderNotInPlaceError);
    await expect(startLocalEndpoint({ dataDir: copy })).rejects.toMatchObject({
      dataDir: copy,
      original,
      outside: { table: 'place-bucket/network.flows' },
      message: expect.stringContaining(
        `The data folder ${copy} was copied or moved from ${original}: its table place-bucket/network.flows still lives at file://${original}/warehouse/`,
      ),
    });
    expect(existsSync(localDataPath(copy, 'lock'))).toBe(false);
  });

  test('the original starts', async () => {
    // Act
    const endpoint = await startLocalEndpoint({ dataDir: original });
    // Assess
    expect((await fetch(`${endpoint.url}/_local/health`)).status).toBe(200);
    await endpoint.stop();
  });
});
