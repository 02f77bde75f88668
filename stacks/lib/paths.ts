// Where Terraform runs: cdktf puts each stack in <outdir>/stacks/<id> and runs terraform there. Relative paths in
// the synthesized JSON (local state, hook scripts) are computed from that folder back to the repo root, so the
// JSON holds no machine paths.
import { relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Relative path from a stack's terraform working directory to the repo root (e.g. "../../.."). */
export function repoRootFromStack(outdir: string, stackId: string): string {
  return relative(resolve(REPO_ROOT, outdir, 'stacks', stackId), REPO_ROOT) || '.';
}

/**
 * The command a Terraform hook (local-exec, working directory = the repo root) runs a TypeScript entry with: on the
 * project's supported Node (scripts/supported-node.mjs fetches Node 22 on an older machine, as every other script
 * does), loading tsx the way cdktf.json's app does (no npx: one process, no registry look-up).
 */
export function repoScriptCommand(entry: string, args: readonly string[] = []): string {
  return ['node scripts/supported-node.mjs node --import tsx', entry, ...args].join(' ');
}
