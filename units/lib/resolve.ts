// Resolution of one lab of the live tree: merge the levels, validate at the edge, resolve dependencies and each
// unit's inputs through its catalog entry's pure spec. No cdktf here.
import { posix } from 'node:path';
import {
  DEFAULT_MOCK_COMMANDS,
  NEVER_MOCK_COMMANDS,
  REGIONAL_DIR,
  isTfCommand,
  type InputsSpec,
  type RemoteState,
  type ResolvedDependency,
  type ResolvedUnit,
  type TfCommand,
  type UnitContext,
  type UnitLevel,
} from '@loglake/stacks/inputs';
import type { DependencyConfig, LevelConfig, RootConfig, UnitConfig } from './define';
import { UnitTreeError } from './errors';
import { deployOrder } from './graph';
import { deepMerge, type Plain } from './merge';

export interface LabTree {
  readonly root: RootConfig;
  readonly env: { readonly name: string; readonly config?: LevelConfig };
  readonly region: { readonly name: string; readonly config?: LevelConfig };
  readonly lab: { readonly dir: string; readonly config?: LevelConfig };
  readonly units: ReadonlyArray<{ readonly name: string; readonly config: UnitConfig }>;
  /** The region's `_regional/` units: shared by the region's labs, outside any of them. */
  readonly regional?: ReadonlyArray<{ readonly name: string; readonly config: UnitConfig }>;
}

export type SpecLoader = (stack: string, unit: string) => Promise<InputsSpec<unknown>>;

export interface LabSummary {
  readonly labId: string;
  readonly labName: string;
  readonly env: string;
  readonly region: string;
  readonly prefix: string;
  readonly namePrefix: string;
  /** `<env>/<region>/<lab dir>`: the lab's folder in the live tree. */
  readonly path: string;
  readonly allowedAccountIds: readonly string[];
  /** Deploy order (producers first, region-level units included); destroy runs it backwards. */
  readonly order: readonly string[];
  /** The units of the lab itself (what destroying the lab removes), in deploy order. */
  readonly labUnits: readonly string[];
  /** The region-level units the lab deploys with it but leaves in place on destroy, in deploy order. */
  readonly regionalUnits: readonly string[];
}

export interface ResolvedLabTree extends LabSummary {
  readonly units: Readonly<Record<string, ResolvedUnit>>;
}

const LAB_ID_RE = /^\d{2}$/;
const PREFIX_RE = /^[a-z][a-z0-9-]{0,18}[a-z0-9]$/;
const REGION_RE = /^[a-z]{2}(-gov|-iso[a-z]?)?-[a-z]+-\d$/;
const ENV_RE = /^[a-z][a-z0-9-]*$/;
const UNIT_RE = /^[a-z][a-z0-9-]*[a-z0-9]$/;
const ACCOUNT_RE = /^\d{12}$/;

function check(
  ok: boolean,
  where: string,
  field: string,
  problem: string,
  fix: string,
  value?: unknown,
): void {
  if (!ok) throw new UnitTreeError(where, field, problem, fix, value);
}

function remoteStateFor(path: string, merged: Plain, region: string, env: NodeJS.ProcessEnv): RemoteState {
  const key = `${path}/terraform.tfstate`;
  const rs = (merged.remoteState ?? {}) as { bucket?: string; region?: string };
  const bucket = rs.bucket ?? env.LAB_STATE_BUCKET;
  if (bucket) {
    check(
      /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket),
      path,
      'remoteState.bucket',
      `is "${bucket}", not an S3 bucket name`,
      'set LAB_STATE_BUCKET (or remoteState.bucket in units/root.ts) to your state bucket',
      bucket,
    );
    return { backend: 's3', bucket, key, region: rs.region ?? region };
  }
  const dir = String(merged.localStateDir ?? '.lab/tfstate');
  return { backend: 'local', key, path: posix.join(dir, key) };
}

function resolveDependency(
  unit: string,
  unitPath: string,
  alias: string,
  dep: DependencyConfig,
  known: ReadonlyMap<string, { path: string; outputs: readonly string[]; remoteState: RemoteState }>,
): ResolvedDependency {
  const field = `dependencies.${alias}`;
  const target = posix.normalize(posix.join(unitPath, String(dep.configPath)));
  const producerName = [...known.entries()].find(([, v]) => v.path === target)?.[0];
  const siblings = [...known.entries()]
    .filter(([n]) => n !== unit)
    .map(([, v]) => `"${posix.relative(unitPath, v.path)}"`)
    .join(', ');
  check(
    producerName !== undefined,
    unit,
    `${field}.configPath`,
    `is "${dep.configPath}", which names no unit (resolved to ${target})`,
    `point it at one of ${siblings}`,
    dep.configPath,
  );
  const producer = known.get(producerName as string)!;
  check(
    producerName !== unit,
    unit,
    `${field}.configPath`,
    'points at the unit itself',
    `point it at one of ${siblings}`,
    dep.configPath,
  );
  check(
    Array.isArray(dep.outputs) && dep.outputs.length > 0,
    unit,
    `${field}.outputs`,
    'is empty',
    `list the outputs you read, from: ${producer.outputs.join(', ')}`,
    dep.outputs,
  );
  for (const out of dep.outputs) {
    check(
      producer.outputs.includes(out),
      unit,
      `${field}.outputs`,
      `names "${out}", which unit ${producerName} does not output`,
      `use one of: ${producer.outputs.join(', ')}`,
      out,
    );
  }
  const mocks = { ...(dep.mockOutputs ?? {}) };
  for (const key of Object.keys(mocks)) {
    check(
      dep.outputs.includes(key),
      unit,
      `${field}.mockOutputs.${key}`,
      'mocks an output this dependency does not read',
      `remove it or add "${key}" to outputs`,
      key,
    );
  }
  if (Object.keys(mocks).length > 0) {
    const missing = dep.outputs.filter((o) => mocks[o] === undefined);
    check(
      missing.length === 0,
      unit,
      `${field}.mockOutputs`,
      `has no stand-in for ${missing.join(', ')}`,
      'give a mock value for every output read, or no mocks at all',
      missing,
    );
  }
  const commands = [...(dep.mockOutputsAllowedTerraformCommands ?? DEFAULT_MOCK_COMMANDS)];
  for (const c of commands) {
    check(
      isTfCommand(c),
      unit,
      `${field}.mockOutputsAllowedTerraformCommands`,
      `names "${c}", not a Terraform command`,
      `use some of ${DEFAULT_MOCK_COMMANDS.join(', ')}`,
      c,
    );
    check(
      !NEVER_MOCK_COMMANDS.includes(c),
      unit,
      `${field}.mockOutputsAllowedTerraformCommands`,
      `allows "${c}"`,
      'mock values must never reach apply/destroy: allow only init, validate, plan',
      c,
    );
  }
  return {
    name: alias,
    unit: producerName as string,
    path: producer.path,
    outputs: [...dep.outputs],
    mockOutputs: mocks,
    mockAllowedCommands: Object.keys(mocks).length > 0 ? (commands as TfCommand[]) : [],
    remoteState: producer.remoteState,
  };
}

export async function resolveLabTree(
  tree: LabTree,
  loadSpec: SpecLoader,
  env: NodeJS.ProcessEnv = process.env,
): Promise<ResolvedLabTree> {
  const levels = [tree.root, tree.env.config, tree.region.config, tree.lab.config] as Array<
    Plain | undefined
  >;
  const labMerged = deepMerge(...levels);
  const labPath = `${tree.env.name}/${tree.region.name}/${tree.lab.dir}`;
  const labId = String(labMerged.labId);
  const prefix = String(labMerged.prefix);
  check(LAB_ID_RE.test(labId), labPath, 'labId', `is "${labId}"`, 'use two digits, e.g. "01"', labId);
  check(
    tree.lab.dir.startsWith(`${labId}-`),
    labPath,
    'labId',
    `is "${labId}" but the lab folder is "${tree.lab.dir}"`,
    `rename the folder to "${labId}-<name>" or set labId to its number`,
    labId,
  );
  check(
    PREFIX_RE.test(prefix),
    labPath,
    'prefix',
    `is "${prefix}"`,
    'use 2–20 characters a-z, 0-9, - starting with a letter, e.g. "loglake"',
    prefix,
  );
  check(
    ENV_RE.test(tree.env.name),
    labPath,
    'env',
    `is "${tree.env.name}"`,
    'name the env folder in lower case, e.g. "sandbox"',
    tree.env.name,
  );
  check(
    REGION_RE.test(tree.region.name),
    labPath,
    'region',
    `is "${tree.region.name}", not an AWS region`,
    'name the region folder like "us-east-1"',
    tree.region.name,
  );
  const configured = labMerged.region as string | undefined;
  check(
    configured === undefined || configured === tree.region.name,
    labPath,
    'region',
    `is "${configured}" but the lab sits in the region folder "${tree.region.name}"`,
    `move the lab under units/${tree.env.name}/${configured}/ or set region to "${tree.region.name}"`,
    configured,
  );
  const labName = tree.lab.dir.slice(labId.length + 1);
  const namePrefix = `${prefix}-${labId}`;

  const regionalPath = `${tree.env.name}/${tree.region.name}/${REGIONAL_DIR}`;
  // A region-level unit merges root → env → region → unit: no lab level, so every lab of the region sees the same.
  const regionLevels = [tree.root, tree.env.config, tree.region.config] as Array<Plain | undefined>;
  const all: Array<{ name: string; config: UnitConfig; level: UnitLevel }> = [
    ...(tree.regional ?? []).map((u) => ({ ...u, level: 'region' as const })),
    ...tree.units.map((u) => ({ ...u, level: 'lab' as const })),
  ];
  const seen = new Set<string>();
  for (const { name, level } of all) {
    const where = `${level === 'lab' ? labPath : regionalPath}/${name}`;
    check(
      UNIT_RE.test(name),
      where,
      'file name',
      'is not a valid unit name',
      'name unit files in kebab-case, e.g. "table-bucket.ts"',
      name,
    );
    check(
      !seen.has(name),
      where,
      'file name',
      `is also the name of a unit in ${regionalPath} (unit names are stack ids, so they must be unique)`,
      'rename one of the two unit files',
      name,
    );
    seen.add(name);
  }

  // First pass: every unit's path, stack, promised outputs and backend (dependencies point at these).
  const specs = new Map<string, InputsSpec<unknown>>();
  const known = new Map<string, { path: string; outputs: readonly string[]; remoteState: RemoteState }>();
  const merged = new Map<string, Plain>();
  for (const { name, config, level } of all) {
    const m = deepMerge(...(level === 'lab' ? levels : regionLevels), config as Plain);
    const path = `${level === 'lab' ? labPath : regionalPath}/${name}`;
    const stack = config.stack ?? name;
    const spec = await loadSpec(stack, name);
    specs.set(name, spec);
    merged.set(name, m);
    known.set(name, {
      path,
      outputs: spec.outputs,
      remoteState: remoteStateFor(path, m, tree.region.name, env),
    });
  }

  const units: Record<string, ResolvedUnit> = {};
  for (const { name, config, level } of all) {
    const m = merged.get(name)!;
    const self = known.get(name)!;
    const accounts = (m.allowedAccountIds ?? []) as string[];
    for (const a of accounts)
      check(ACCOUNT_RE.test(a), name, 'allowedAccountIds', `contains "${a}"`, 'use 12-digit account ids', a);
    const tags = (m.tags ?? {}) as Record<string, string>;
    const ctx: UnitContext =
      level === 'lab'
        ? {
            name,
            level,
            path: self.path,
            env: tree.env.name,
            region: tree.region.name,
            labId,
            labName,
            prefix,
            namePrefix,
            tags: { ...tags, lab: labId, unit: name },
            allowedAccountIds: accounts,
            remoteState: self.remoteState,
          }
        : {
            name,
            level,
            path: self.path,
            env: tree.env.name,
            region: tree.region.name,
            labId: '',
            labName: '',
            prefix,
            namePrefix: prefix,
            // No `lab` tag: the unit belongs to the region, not to the lab that happens to deploy it.
            tags: { ...Object.fromEntries(Object.entries(tags).filter(([k]) => k !== 'lab')), unit: name },
            allowedAccountIds: accounts,
            remoteState: self.remoteState,
          };
    if (level === 'region') {
      for (const dep of Object.values(config.dependencies ?? {})) {
        const target = posix.normalize(posix.join(self.path, String(dep.configPath)));
        check(
          target.startsWith(`${regionalPath}/`),
          name,
          'dependencies',
          `point at ${target}, inside a lab`,
          'a region-level unit may depend only on other region-level units (labs depend on it, not the other way)',
          dep.configPath,
        );
      }
    }
    const dependencies = Object.entries(config.dependencies ?? {}).map(([alias, dep]) =>
      resolveDependency(name, self.path, alias, dep, known),
    );
    const inputs = specs.get(name)!.resolveInputs((m.inputs ?? {}) as Plain, ctx);
    units[name] = { ...ctx, stack: config.stack ?? name, dependencies, inputs };
  }

  const order = deployOrder(
    new Map(Object.values(units).map((u) => [u.name, u.dependencies.map((d) => d.unit)])),
  );
  const first = Object.values(units).find((u) => u.level === 'lab');
  return {
    labId,
    labName,
    env: tree.env.name,
    region: tree.region.name,
    prefix,
    namePrefix,
    path: labPath,
    allowedAccountIds: first?.allowedAccountIds ?? [],
    order,
    labUnits: order.filter((u) => units[u]?.level === 'lab'),
    regionalUnits: order.filter((u) => units[u]?.level === 'region'),
    units,
  };
}
