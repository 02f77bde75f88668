import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { mkdtemp, readdir, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createExclusive, toPath, toUri } from './file-io';
import { TableLayout } from './table-layout';

describe('file IO and the table layout', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'loglake-io-'));
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  test('createExclusive publishes once; the loser gets false and leaves no temp file', async () => {
    // Prepare
    const path = join(dir, 'v1.metadata.json');
    // Act
    const results = await Promise.all([createExclusive(path, 'a'), createExclusive(path, 'b')]);
    // Assess
    expect(results.sort()).toEqual([false, true]);
    expect(await readdir(dir)).toEqual(['v1.metadata.json']);
  });

  test('the latest version is the highest committed vN, even when the hint lags', async () => {
    // Prepare
    const layout = new TableLayout(toUri(join(dir, 'table')));
    await mkdir(layout.metadataDir, { recursive: true });
    for (const v of [1, 2, 3]) await writeFile(layout.metadataFile(v), '{}');
    await layout.writeVersionHint(2);
    // Act / Assess
    expect(await layout.latestVersion()).toBe(3);
    expect(toPath(layout.location)).toBe(join(dir, 'table'));
  });
});
