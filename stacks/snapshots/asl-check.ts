// Validation of the generated state machine at synth. The full ASL validator (aws-local-stepfunctions →
// asl-validator → ajv) costs ~1 s in a fresh process, the largest share of the whole lab's synth, for a definition
// that only changes when the code does. So a definition that passed it is remembered by content hash under
// .lab/build/ (git-ignored; the lockfile, which pins the validator, is part of the key): an unchanged definition
// gets the cheap structural rules only, a changed one gets both before its pass is recorded.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  structuralProblems,
  validateStateMachine,
  type StateMachineDefinition,
} from '@loglake/snapshot-lambdas/deploy';
import { REPO_ROOT } from '../lib/paths';

const DEFAULT_CACHE_DIR = join(REPO_ROOT, '.lab', 'build', 'asl-valid');

export interface AslCheckOptions {
  /** Where passes are recorded; undefined → .lab/build/asl-valid. */
  cacheDir?: string;
}

export interface AslCheckResult {
  /** Content hash of the definition (with the validator's lockfile). */
  key: string;
  /** true: the full validator ran now; false: the same definition had passed it before. */
  fullValidation: boolean;
}

let lockHash: string | undefined;
function lockfileHash(): string {
  lockHash ??= createHash('sha256')
    .update(readFileSync(join(REPO_ROOT, 'pnpm-lock.yaml')))
    .digest('hex');
  return lockHash;
}

/** Throws StateMachineDefinitionError (from the package) when the definition is invalid. */
export function checkStateMachine(
  def: StateMachineDefinition,
  options: AslCheckOptions = {},
): AslCheckResult {
  const dir = options.cacheDir ?? DEFAULT_CACHE_DIR;
  const key = createHash('sha256')
    .update(lockfileHash())
    .update('\0')
    .update(JSON.stringify(def))
    .digest('hex');
  const marker = join(dir, key.slice(0, 32));
  if (existsSync(marker)) {
    // Structural rules are cheap and also guard against a marker left by hand: run them every time.
    const problems = structuralProblems(def);
    if (problems.length === 0) return { key, fullValidation: false };
  }
  validateStateMachine(def);
  mkdirSync(dir, { recursive: true });
  writeFileSync(marker, `${JSON.stringify(def)}\n`);
  return { key, fullValidation: true };
}
