// The catalog's files by stack kind: stacks/<kind>/inputs.ts (pure) and stacks/<kind>/stack.ts (cdktf), read on
// demand so a new kind is one more folder and nothing lists kinds. This package owns that layout: the units read a
// kind's inputs through loadInputsSpec, never by a path of their own. A kind is a folder's name, never a path.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { InputsSpec } from './contract';
import { StacksError } from './errors';
import { REPO_ROOT } from './paths';

/** A unit names a stack kind the catalog has no folder (or file) for. */
export class UnknownStackKindError extends StacksError {
  override name = 'UnknownStackKindError';
  constructor(
    readonly kind: string,
    readonly file: 'inputs.ts' | 'stack.ts',
  ) {
    super(`the catalog has no stacks/${kind}/${file}`, { value: kind });
  }
}

const KIND = /^[a-z][a-z0-9-]*$/;

/** The module of one of a kind's files, or UnknownStackKindError (also for a kind that is not a folder's name). */
async function catalogModule(kind: string, file: 'inputs.ts' | 'stack.ts'): Promise<Record<string, unknown>> {
  const path = join(REPO_ROOT, 'stacks', kind, file);
  if (!KIND.test(kind) || !existsSync(path)) throw new UnknownStackKindError(kind, file);
  return (await import(pathToFileURL(path).href)) as Record<string, unknown>;
}

/** stacks/<kind>/inputs.ts's `spec`. */
export async function loadInputsSpec(kind: string): Promise<InputsSpec<unknown>> {
  const spec = (await catalogModule(kind, 'inputs.ts')).spec as InputsSpec<unknown> | undefined;
  if (!spec)
    throw new StacksError(`stacks/${kind}/inputs.ts must export \`spec\` (an InputsSpec)`, { value: kind });
  return spec;
}

/** stacks/<kind>/stack.ts's `create`. */
export async function loadStackModule<T>(kind: string): Promise<T> {
  const create = (await catalogModule(kind, 'stack.ts')).create as T | undefined;
  if (!create)
    throw new StacksError(`stacks/${kind}/stack.ts must export \`create\` (a StackFactory)`, { value: kind });
  return create;
}
