// The two Lambda bundles as cdktf assets. Bundling takes seconds, so each bundle is cached under .lab/build/
// (git-ignored) by a hash of its inputs — the package's sources, the SQL templates and the lockfile: a synth
// with unchanged inputs reuses it. Its deployment zip is written once beside it, deterministically (./zip), and
// handed to cdktf as a FILE asset named by the zip's own hash: a synth copies it instead of re-zipping in a child
// process, and the asset hash Terraform sees changes only when the bundled bytes do.
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { AssetType, TerraformAsset } from 'cdktf';
import type { Construct } from 'constructs';
import { bundleHandler, HANDLERS, type HandlerName } from '@loglake/snapshot-lambdas/bundle';
import { REPO_ROOT } from '../lib/paths';
import { zipDirectory } from './zip';

const BUILD_ROOT = join(REPO_ROOT, '.lab', 'build', 'snapshot-lambdas');
const INPUT_DIRS = [
  join(REPO_ROOT, 'packages', 'snapshot-lambdas', 'src'),
  join(REPO_ROOT, 'sql', 'snapshots'),
];

function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true })
    .map(String)
    .filter((f) => !f.endsWith('.test.ts') && statSync(join(dir, f)).isFile())
    .sort()
    .map((f) => join(dir, f));
}

function inputHash(handler: HandlerName): string {
  const hash = createHash('sha256').update(handler);
  for (const file of [...INPUT_DIRS.flatMap(files), join(REPO_ROOT, 'pnpm-lock.yaml')]) {
    hash.update(file.slice(REPO_ROOT.length)).update('\0').update(readFileSync(file));
  }
  return hash.digest('hex').slice(0, 16);
}

/** The bundle folder for one handler, built only when its inputs changed. */
export function bundledHandlerDir(handler: HandlerName): string {
  const target = join(BUILD_ROOT, `${HANDLERS[handler]}-${inputHash(handler)}`);
  if (existsSync(join(target, 'index.mjs'))) return target;
  mkdirSync(BUILD_ROOT, { recursive: true });
  const scratch = mkdtempSync(join(BUILD_ROOT, '.tmp-'));
  try {
    const { directory } = bundleHandler(handler, scratch);
    try {
      renameSync(directory, target);
    } catch (error) {
      // A concurrent synth built the same inputs first: its bundle is identical.
      if (!existsSync(join(target, 'index.mjs'))) throw error;
    }
    // Older bundles of this handler are stale.
    for (const old of readdirSync(BUILD_ROOT)) {
      if (old.startsWith(`${HANDLERS[handler]}-`) && join(BUILD_ROOT, old) !== target) {
        rmSync(join(BUILD_ROOT, old), { recursive: true, force: true });
      }
    }
    return target;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

const ARCHIVE = 'archive.zip';

/** The deployment zip of one handler's bundle (`<bundle dir>.package/archive.zip`), written only when missing. */
export function handlerArchive(handler: HandlerName): string {
  const dir = bundledHandlerDir(handler);
  const packageDir = `${dir}.package`;
  const archive = join(packageDir, ARCHIVE);
  if (existsSync(archive)) return archive;
  mkdirSync(packageDir, { recursive: true });
  // Write then rename: a concurrent synth never sees half a zip (both write identical bytes).
  const scratch = join(packageDir, `.${ARCHIVE}.${process.pid}`);
  writeFileSync(scratch, zipDirectory(dir));
  renameSync(scratch, archive);
  return archive;
}

/** Content address of a deployment zip: upper-case hex, as cdktf names asset folders. */
export function archiveHash(archive: string): string {
  return createHash('sha256').update(readFileSync(archive)).digest('hex').slice(0, 32).toUpperCase();
}

export function handlerAsset(scope: Construct, id: string, handler: HandlerName): TerraformAsset {
  const archive = handlerArchive(handler);
  return new TerraformAsset(scope, id, {
    path: archive,
    type: AssetType.FILE,
    assetHash: archiveHash(archive),
  });
}
