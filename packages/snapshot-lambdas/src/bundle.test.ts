import { describe, test, expect, afterAll } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleHandlers } from './bundle';
import { handlerEnvironment } from './env';
import { testConfig } from '../test/fixtures';

const out = mkdtempSync(join(tmpdir(), 'snapshot-bundle-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('Lambda bundles', () => {
  const bundles = bundleHandlers(out);

  test('each handler is one ESM file with its SQL templates beside it', () => {
    for (const b of Object.values(bundles)) {
      expect(existsSync(join(b.directory, 'index.mjs'))).toBe(true);
      expect(existsSync(join(b.directory, 'sql', 'snapshots', 'build_snapshot.sql.njk'))).toBe(true);
      expect(b.bytes).toBeGreaterThan(10_000);
    }
  });

  test('a bundle fails its cold start on a missing variable, naming it', () => {
    const run = spawnSync(
      process.execPath,
      ['-e', `import(${JSON.stringify(join(bundles.resolveWatermark.directory, 'index.mjs'))})`],
      {
        env: { PATH: process.env.PATH },
        encoding: 'utf8',
      },
    );
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain(
      'Environment variables SOURCE_TABLE_BUCKET, SNAPSHOT_DATABASE, SNAPSHOT_BUCKET, ATHENA_WORKGROUP, SNAPSHOT_DEFINITIONS are not set',
    );
  });

  test('with its environment a bundle loads and exports a handler', () => {
    const script = `const m = await import(${JSON.stringify(join(bundles.buildSnapshot.directory, 'index.mjs'))}); console.log(typeof m.handler);`;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      env: { PATH: process.env.PATH, ...handlerEnvironment(testConfig()), AWS_REGION: 'us-east-1' },
      encoding: 'utf8',
    });
    expect(run.stderr).not.toMatch(/Error/);
    expect(run.stdout.trim()).toBe('function');
  });
});
