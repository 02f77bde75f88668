// Reads the live tree from disk: units/<env>/<region>/<NN-lab>/{lab.ts, <unit>.ts...} plus env.ts and region.ts
// level files, and the region's shared units in units/<env>/<region>/_regional/<unit>.ts. A new unit is one more
// file in one of those folders; nothing else lists units.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  loadInputsSpec as loadStackInputs,
  REGIONAL_DIR,
  UnknownStackKindError,
} from '@loglake/stacks/inputs';
import type { LevelConfig, RootConfig, UnitConfig } from './define';
import { UnitTreeError, UnitsError } from './errors';
import type { LabTree, SpecLoader } from './resolve';

export const UNITS_DIR = fileURLToPath(new URL('..', import.meta.url));

const LEVEL_FILES = new Set(['env.ts', 'region.ts', 'lab.ts']);

async function importDefault<T>(file: string): Promise<T> {
  const mod = (await import(pathToFileURL(file).href)) as { default?: T };
  if (mod.default === undefined)
    throw new UnitsError(`${file} has no default export; export default defineUnit({...})`, { value: file });
  return mod.default;
}

async function optionalLevel(file: string): Promise<LevelConfig | undefined> {
  return existsSync(file) ? importDefault<LevelConfig>(file) : undefined;
}

const dirs = (dir: string): string[] =>
  readdirSync(dir)
    .filter(
      (name) =>
        !name.startsWith('.') &&
        name !== 'node_modules' &&
        name !== 'lib' &&
        statSync(join(dir, name)).isDirectory(),
    )
    .sort();

/** Every lab folder in the tree, as `<env>/<region>/<lab dir>` (the region's `_regional/` folder is no lab). */
export function listLabPaths(unitsDir = UNITS_DIR): string[] {
  const out: string[] = [];
  for (const env of dirs(unitsDir))
    for (const region of dirs(join(unitsDir, env)))
      for (const lab of dirs(join(unitsDir, env, region)))
        if (lab !== REGIONAL_DIR) out.push(`${env}/${region}/${lab}`);
  return out;
}

const unitFilesIn = (folder: string): string[] =>
  readdirSync(folder)
    .filter(
      (f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.endsWith('.d.ts') && !LEVEL_FILES.has(f),
    )
    .sort();

async function loadUnits(folder: string) {
  return Promise.all(
    unitFilesIn(folder).map(async (f) => ({
      name: f.slice(0, -3),
      config: await importDefault<UnitConfig>(join(folder, f)),
    })),
  );
}

export async function loadLabTree(labPath: string, unitsDir = UNITS_DIR): Promise<LabTree> {
  const [env, region, labDir] = labPath.split('/') as [string, string, string];
  const labFolder = join(unitsDir, env, region, labDir);
  const regionalFolder = join(unitsDir, env, region, REGIONAL_DIR);
  if (unitFilesIn(labFolder).length === 0)
    throw new UnitTreeError(labPath, 'units', 'are missing', 'add one file per unit, e.g. table-bucket.ts');
  return {
    root: await importDefault<RootConfig>(join(unitsDir, 'root.ts')),
    env: { name: env, config: await optionalLevel(join(unitsDir, env, 'env.ts')) },
    region: { name: region, config: await optionalLevel(join(unitsDir, env, region, 'region.ts')) },
    lab: { dir: labDir, config: await optionalLevel(join(labFolder, 'lab.ts')) },
    units: await loadUnits(labFolder),
    regional: existsSync(regionalFolder) ? await loadUnits(regionalFolder) : [],
  };
}

/** The `spec` of the stack kind a unit names (stacks/<stack>/inputs.ts, pure: no cdktf), read through the stacks. */
export const loadInputsSpec: SpecLoader = async (stack, unit) => {
  try {
    return await loadStackInputs(stack);
  } catch (error) {
    if (!(error instanceof UnknownStackKindError)) throw error;
    throw new UnitTreeError(
      unit,
      'stack',
      `is "${stack}", but ${error.message}`,
      `add stacks/${stack}/inputs.ts and stack.ts, or set stack to an existing catalog entry`,
      stack,
    );
  }
};
