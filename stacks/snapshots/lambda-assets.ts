// The two Lambda bundles as cdktf assets. Bundling takes seconds, so each bundle is cached under .lab/build/
// (git-ignored) by a hash of its inputs — the package's sources, the SQL templates and the lockfile: a synth
// with unchanged inputs reuses it, and the asset hash Terraform sees changes only when the code does.
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
} from 'node:fs';
import { join } from 'node:path';
import { AssetType, TerraformAsset } from 'cdktf';
import type { Construct } from 'constructs';
import { bundleHandler, HANDLERS, type HandlerName } from '@loglake/snapshot-lambdas/bundle';
import { REPO_ROOT } from '../lib/paths';

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

export function handlerAsset(scope: Construct, id: string, handler: HandlerName): TerraformAsset {
  return new TerraformAsset(scope, id, { path: bundledHandlerDir(handler), type: AssetType.ARCHIVE });
}
