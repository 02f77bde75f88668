import { afterEach, describe, expect, test } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { APP_ENTRY, appCommand, appCommandFor, cdktfAppEnv, REPO_ROOT } from './app-command';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

function repoWithApp(app: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), 'loglake-cdktf-json-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'cdktf.json'), JSON.stringify({ language: 'typescript', app }));
  return dir;
}

describe('appCommand', () => {
  test("the repo's cdktf.json runs units/main.ts with node and tsx, not npx", () => {
    const app = appCommand();
    expect(app.split(' ')).toContain(APP_ENTRY);
    expect(app.startsWith('node --import tsx ')).toBe(true);
  });

  test('another entry runs with the same runner', () => {
    // Prepare
    const repo = repoWithApp('node --import tsx --import ./x.ts units/main.ts');
    // Act
    const bare = appCommandFor('units/bench/bare-stack.ts', [], repo);
    const subset = appCommandFor('units/bench/lab-subset.ts', ['table-bucket', 'firehose'], repo);
    // Assess
    expect(bare).toBe('node --import tsx --import ./x.ts units/bench/bare-stack.ts');
    expect(subset).toBe('node --import tsx --import ./x.ts units/bench/lab-subset.ts table-bucket firehose');
  });

  test('an app that does not run units/main.ts is refused with the fix', () => {
    const repo = repoWithApp('npx tsx app.ts');
    expect(() => appCommand(repo)).toThrow(
      'cdktf.json: app is "npx tsx app.ts"; it must run units/main.ts (e.g. "node --import tsx units/main.ts")',
    );
  });

  test('the environment is the one cdktf synth gives the app', () => {
    // Act
    const env = cdktfAppEnv('/tmp/out', { PATH: '/bin', TF_VAR_x: '1' });
    // Assess
    expect(env).toEqual({
      PATH: '/bin',
      NODE_OPTIONS: '--max-old-space-size=4096',
      CDKTF_OUTDIR: '/tmp/out',
      CDKTF_CONTINUE_SYNTH_ON_ERROR_ANNOTATIONS: 'true',
      CDKTF_CONTEXT_JSON: '{"cdktfRelativeModules":[]}',
      SYNTH_HCL_OUTPUT: 'false',
    });
    expect(cdktfAppEnv('/tmp/out', { NODE_OPTIONS: '--trace-warnings' }).NODE_OPTIONS).toBe(
      '--trace-warnings',
    );
  });
});

describe('units/lib/no-source-maps.ts (preloaded by the app command)', () => {
  const sourceMapsEnabled = (nodeOptions?: string): string =>
    spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '--import',
        './units/lib/no-source-maps.ts',
        '-e',
        'console.log(process.sourceMapsEnabled)',
      ],
      {
        cwd: REPO_ROOT,
        env: { ...process.env, NODE_OPTIONS: nodeOptions ?? '' },
        encoding: 'utf8',
      },
    ).stdout.trim();

  test('turns off the source maps tsx turns on', () => {
    expect(sourceMapsEnabled()).toBe('false');
  });

  test('leaves them on when asked with NODE_OPTIONS=--enable-source-maps', () => {
    expect(sourceMapsEnabled('--enable-source-maps')).toBe('true');
  });
});
