// `pnpm lab snapshot` refuses bad input with a message and the fix, before starting anything (the offline run
// itself is exercised by packages/snapshot-lambdas/src/pipeline.test.ts with the same functions).
import { describe, test, expect } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const lab = (...args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', 'packages/lab/src/cli.ts', 'snapshot', ...args], {
    cwd: ROOT,
    encoding: 'utf8',
  });

describe('pnpm lab snapshot', () => {
  test('a date that is not a calendar day is refused, naming it', () => {
    const run = lab('--date', '2026-02-30');
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(
      'InvalidOptionError: Refused --date "2026-02-30": not a real calendar date.',
    );
  });

  test('--target aws without deployed outputs says what to deploy', () => {
    const run = lab('--target', 'aws', '--outputs-file', 'does-not-exist.json');
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('No deployed-stack outputs at');
    // The whole file is rewritten, so the command names every unit (the lab's order), not only snapshots.
    expect(run.stderr).toContain(
      'cdktf output s3tables-integration table-bucket ref-data analyst firehose snapshots --outputs-file',
    );
  });

  test('an unknown target is refused', () => {
    const run = lab('--target', 'moon');
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('--target moon is not a target');
  });
});
