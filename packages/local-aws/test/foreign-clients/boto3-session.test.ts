// boto3 (the Python SDK, with its own S3 transfer manager) against the local endpoint, where this machine has a
// Python that imports it: test/foreign-clients/boto3_session.py prints one JSON line per check. Skips, saying why,
// without one.
import { describe, expect, test, beforeAll, afterAll } from '@jest/globals';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startLocalEndpoint, type LocalEndpoint } from '../../src/server';
import { Checks, CheckFailed } from './checks';
import { foreignClientsSkipped } from './skip';
import { findAwsClis, findBoto3Python } from './toolchains';

const SCRIPT = fileURLToPath(new URL('./boto3_session.py', import.meta.url));
const skipped = foreignClientsSkipped();
const clis = skipped ? undefined : await findAwsClis();
const python = skipped
  ? ({ missing: skipped } as const)
  : await findBoto3Python(process.env, clis && 'found' in clis.v1 ? clis.v1.found : undefined);
if ('missing' in python) console.log(`boto3 session skipped: ${python.missing}`);
const maybe = 'found' in python ? describe : describe.skip;

maybe('boto3 against the local endpoint', () => {
  let dir: string;
  let endpoint: LocalEndpoint;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'local-boto3-'));
    endpoint = await startLocalEndpoint({ dataDir: join(dir, 'data') });
  });
  afterAll(async () => {
    await endpoint?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('every check of the session passes (multipart uploads among them)', async () => {
    const { python: interpreter, boto3 } = (python as { found: { python: string; boto3: string } }).found;
    const checks = new Checks(`boto3 ${boto3} (${interpreter})`);
    const { stdout } = await promisify(execFile)(interpreter, [SCRIPT, endpoint.url, dir], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, AWS_EC2_METADATA_DISABLED: 'true' },
      timeout: 300_000,
      maxBuffer: 16 * 1024 * 1024,
    });
    for (const line of stdout.split('\n').filter((l) => l.startsWith('{'))) {
      const result = JSON.parse(line) as { name: string; ok: boolean; detail?: string };
      await checks.step(result.name, () => {
        if (!result.ok) throw new CheckFailed(result.detail ?? 'failed');
      });
    }
    console.log(checks.summary());
    expect(checks.failed.map((f) => `${f.name}: ${f.detail}`)).toEqual([]);
    expect(checks.passed).toBeGreaterThanOrEqual(12);
  }, 300_000);
});
