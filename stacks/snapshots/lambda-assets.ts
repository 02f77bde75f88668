// The two Lambda bundles as cdktf assets. esbuild output is deterministic, so each bundle lands in a folder named
// by its content hash under .lab/build/ (git-ignored): repeated or concurrent synths reuse it, and the asset hash
// Terraform sees changes only when the code or the SQL templates do.
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
import { join, relative } from 'node:path';
import { AssetType, TerraformAsset } from 'cdktf';
import type { Construct } from 'constructs';
import { bundleHandler, HANDLERS, type HandlerName } from '@loglake/snapshot-lambdas/bundle';
import { REPO_ROOT } from '../lib/paths';

const BUILD_ROOT = join(REPO_ROOT, '.lab', 'build', 'snapshot-lambdas');

function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true })
    .map(String)
    .filter((f) => statSync(join(dir, f)).isFile())
    .sort();
}

function contentHash(dir: string): string {
  const hash = createHash('sha256');
  for (const file of files(dir))
    hash
      .update(relative(dir, join(dir, file)))
      .update('\0')
      .update(readFileSync(join(dir, file)));
  return hash.digest('hex').slice(0, 16);
}

/** Bundles one handler and returns its content-addressed folder. */
export function bundledHandlerDir(handler: HandlerName): string {
  mkdirSync(BUILD_ROOT, { recursive: true });
  const scratch = mkdtempSync(join(BUILD_ROOT, '.tmp-'));
  try {
    const { directory } = bundleHandler(handler, scratch);
    const target = join(BUILD_ROOT, `${HANDLERS[handler]}-${contentHash(directory)}`);
    if (!existsSync(target)) {
      try {
        renameSync(directory, target);
      } catch (error) {
        // Another synth renamed the same content first: theirs is identical.
        if (!existsSync(target)) throw error;
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
