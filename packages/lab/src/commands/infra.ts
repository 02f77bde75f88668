// `pnpm lab order|synth|plan|deploy|destroy [units...]`: the whole lab's Terraform through cdktf, in dependency
// order. Each prints the order first, then shells out to cdktf with LOGLAKE_TF_COMMAND set, which is what allows
// (plan/validate) or refuses (apply/destroy) the dependencies' mock outputs at synth. Commands that run Terraform
// first check what can be checked offline (./infra-preflight: Terraform's version, the alert address, credentials)
// and say everything that is missing at once; nothing is ever reported as deployed unless cdktf says so.
import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { Command } from 'commander';
import { listLabPaths, resolveLab, type ResolvedLab } from '@loglake/units';
import { runCli } from '../cli-support';
import { InvalidOptionError } from '../errors';
import type { CredentialsSource } from '../target/aws-credentials';
import { infraPreflight, preflightRefusal } from './infra-preflight';
import { CONFIRM_DESTROY_ENV } from '@loglake/deploy-checks';
import { DEFAULT_OUTPUTS_FILE } from '../target/aws-outputs';
import { REPO_ROOT } from '../target/paths';

const CDKTF_ON_SUPPORTED_NODE = join(REPO_ROOT, 'scripts', 'supported-node.mjs');

export type InfraCommand = 'order' | 'synth' | 'plan' | 'deploy' | 'destroy';

export interface CdktfStep {
  readonly argv: readonly string[];
  readonly env: Readonly<Record<string, string>>;
}

export interface InfraPlan {
  /** Units in the order the command visits them (reverse for destroy). */
  readonly order: readonly string[];
  readonly steps: readonly CdktfStep[];
  readonly needsTerraform: boolean;
}

/** Terraform (or OpenTofu, which cdktf runs via TERRAFORM_BINARY_NAME) on PATH, without running anything. */
export function findTerraform(pathEnv: string | undefined, preferred?: string): string | undefined {
  const candidates = preferred ? [preferred] : ['terraform', 'tofu'];
  for (const name of candidates) {
    for (const dir of (pathEnv ?? '').split(delimiter).filter(Boolean)) {
      try {
        accessSync(join(dir, name), constants.X_OK);
        return name;
      } catch {
        // not in this directory
      }
    }
  }
  return undefined;
}

function selectUnits(lab: ResolvedLab, asked: readonly string[]): string[] {
  const unknown = asked.filter((u) => !lab.order.includes(u));
  if (unknown.length > 0)
    throw new InvalidOptionError(
      `unknown unit ${unknown.join(', ')}; the lab's units are ${lab.order.join(', ')}`,
      { value: unknown },
    );
  return asked.length === 0 ? [...lab.order] : lab.order.filter((u) => asked.includes(u));
}

/**
 * What a destroy removes: the lab's own units. Region-level units (the account's S3 Tables analytics integration,
 * shared with every other lab and S3 Tables user of the region) stay unless asked for with includeRegional.
 */
function selectForDestroy(lab: ResolvedLab, asked: readonly string[], includeRegional: boolean): string[] {
  const units = selectUnits(lab, asked);
  const regional = units.filter((u) => lab.regionalUnits.includes(u));
  if (regional.length > 0 && asked.length > 0 && !includeRegional)
    throw new InvalidOptionError(
      `${regional.join(', ')} is a region-level unit shared by every lab and S3 Tables user of ${lab.region}; destroying it takes Athena and Firehose access away from all of them. Add --include-regional to mean it.`,
      { value: regional },
    );
  return includeRegional ? units : units.filter((u) => !lab.regionalUnits.includes(u));
}

/** What a command will run: pure, so it can be shown (--dry-run) and tested. */
export function planInfra(
  command: InfraCommand,
  lab: ResolvedLab,
  asked: readonly string[],
  options: { autoApprove?: boolean; includeRegional?: boolean } = {},
): InfraPlan {
  const units =
    command === 'destroy'
      ? selectForDestroy(lab, asked, options.includeRegional ?? false)
      : selectUnits(lab, asked);
  // Units deployed on their own: their producers' values come from remote state (a missing producer stops Terraform
  // with "deploy it first"), so cdktf need not run the producers too.
  const partial =
    units.length < lab.order.length && command === 'deploy' ? ['--ignore-missing-stack-dependencies'] : [];
  const base = { CHECKPOINT_DISABLE: '1' };
  switch (command) {
    case 'order':
      return { order: units, steps: [], needsTerraform: false };
    case 'synth':
      return {
        order: units,
        steps: [{ argv: ['synth'], env: { ...base, LOGLAKE_TF_COMMAND: 'plan' } }],
        needsTerraform: false,
      };
    case 'plan':
      // One synth in plan mode (mock outputs allowed where a producer has no state yet), then a diff per stack.
      return {
        order: units,
        steps: [
          { argv: ['synth'], env: { ...base, LOGLAKE_TF_COMMAND: 'plan' } },
          ...units.map((u) => ({
            argv: ['diff', u, '--skip-synth'],
            env: { ...base, LOGLAKE_TF_COMMAND: 'plan' },
          })),
        ],
        needsTerraform: true,
      };
    case 'deploy':
      return {
        order: units,
        steps: [
          {
            argv: [
              'deploy',
              ...units,
              // The whole lab's outputs are what `pnpm lab --target aws` reads; a partial deploy would overwrite
              // the file with fewer stacks, so only a deploy of every unit writes it.
              ...(units.length === lab.order.length ? ['--outputs-file', DEFAULT_OUTPUTS_FILE] : []),
              ...partial,
              ...(options.autoApprove ? ['--auto-approve'] : []),
            ],
            env: { ...base, LOGLAKE_TF_COMMAND: 'apply' },
          },
        ],
        needsTerraform: true,
      };
    case 'destroy': {
      const reversed = [...units].reverse();
      return {
        order: reversed,
        steps: [
          {
            argv: ['destroy', ...reversed, ...(options.autoApprove ? ['--auto-approve'] : [])],
            env: {
              ...base,
              LOGLAKE_TF_COMMAND: 'destroy',
              // The region-level units' destroy guards go ahead only when named here.
              ...(options.includeRegional && lab.regionalUnits.length > 0
                ? { [CONFIRM_DESTROY_ENV]: lab.regionalUnits.join(',') }
                : {}),
            },
          },
        ],
        needsTerraform: true,
      };
    }
  }
}

export function describeOrder(lab: ResolvedLab, command: InfraCommand, order: readonly string[]): string {
  const kept = lab.regionalUnits.filter((u) => !order.includes(u));
  const verb =
    command === 'destroy'
      ? `Destroy order (dependents first; table-bucket, the lab's last unit, runs the teardown check)${
          kept.length > 0
            ? `; left in place: ${kept.join(', ')} (region level, shared with other labs; --include-regional destroys it too)`
            : ''
        }`
      : 'Deploy order (producers first)';
  const width = Math.max(...order.map((u) => u.length));
  const lines = order.map((u, i) => {
    const unit = lab.units[u]!;
    const deps = unit.dependencies.map((d) => d.unit);
    const dependents = lab.order.filter((o) => lab.units[o]!.dependencies.some((d) => d.unit === u));
    const note =
      command === 'destroy'
        ? dependents.length
          ? `after ${dependents.join(', ')}`
          : ''
        : deps.length
          ? `after ${deps.join(', ')}`
          : '';
    const level = unit.level === 'region' ? ' [region level]' : '';
    return `  ${i + 1}. ${u.padEnd(width)}  ${unit.path}${level}${note ? `  (${note})` : ''}`;
  });
  return [`Lab ${lab.labId} (${lab.path}) — ${verb}:`, ...lines].join('\n');
}

function run(step: CdktfStep, extraEnv: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    // cdktf-cli starts only on a Node its node-pty has a build for (up to 22): the wrapper picks one.
    const child = spawn(
      process.execPath,
      [CDKTF_ON_SUPPORTED_NODE, '--cdktf', 'npx', 'cdktf', ...step.argv],
      {
        cwd: REPO_ROOT,
        stdio: 'inherit',
        env: { ...process.env, ...step.env, ...extraEnv },
      },
    );
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
}

interface InfraOptions {
  readonly lab?: string;
  /** Where credentials come from (tests); the AWS SDK's default chain by default. */
  readonly credentials?: CredentialsSource;
  readonly dryRun?: boolean;
  readonly autoApprove?: boolean;
  readonly includeRegional?: boolean;
}

export async function runInfra(
  command: InfraCommand,
  asked: readonly string[],
  options: InfraOptions,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  const lab = await resolveLab({ labId: options.lab });
  const plan = planInfra(command, lab, asked, {
    autoApprove: options.autoApprove,
    includeRegional: options.includeRegional,
  });
  console.log(describeOrder(lab, command, plan.order));
  if (command === 'order') {
    // The destroy order too, as the command promises: what `pnpm lab destroy` (of the same units) would visit.
    const regionalAsked = asked.some((u) => lab.regionalUnits.includes(u));
    const destroy = planInfra('destroy', lab, asked, { includeRegional: regionalAsked });
    console.log(describeOrder(lab, 'destroy', destroy.order));
  }
  if (command === 'destroy' && options.includeRegional) {
    const others = listLabPaths().filter((p) => p.startsWith(`${lab.env}/${lab.region}/`) && p !== lab.path);
    if (others.length > 0)
      console.log(
        `Warning: the live tree has other labs in ${lab.region} (${others.join(', ')}); if they are deployed, destroying ${lab.regionalUnits.join(', ')} cuts them off from Athena and Firehose too.`,
      );
  }
  const extraEnv: Record<string, string> = {};
  if (plan.needsTerraform && command !== 'order' && command !== 'synth') {
    const binary = findTerraform(env.PATH, env.TERRAFORM_BINARY_NAME);
    // What can be checked offline is checked before cdktf starts, all of it at once.
    if (!options.dryRun) {
      const problems = await infraPreflight(command, lab, plan.order, env, {
        binary,
        ...(options.credentials ? { credentials: options.credentials } : {}),
      });
      if (problems.length > 0) throw preflightRefusal(command, problems);
    }
    if (binary === 'tofu') extraEnv.TERRAFORM_BINARY_NAME = 'tofu';
  }
  for (const step of plan.steps) {
    const shown = `${Object.entries({ ...step.env, ...extraEnv })
      .map(([k, v]) => `${k}=${v}`)
      .join(' ')} npx cdktf ${step.argv.join(' ')}`;
    console.log(`$ ${shown}`);
    if (options.dryRun) continue;
    const code = await run(step, extraEnv);
    if (code !== 0) {
      console.error(`cdktf ${step.argv[0]} exited with ${code}; stopping (${command} is not complete).`);
      return code;
    }
  }
  return 0;
}

export function registerInfraCommands(program: Command): void {
  const add = (name: InfraCommand, description: string, withApprove = false) => {
    const cmd = program
      .command(`${name} [units...]`)
      .description(description)
      .option('--lab <id>', 'lab id (two digits) when units/ holds several labs')
      .option('--dry-run', 'print the order and the cdktf commands without running them');
    if (withApprove)
      cmd.option('--auto-approve', 'pass --auto-approve to cdktf (no interactive confirmation)');
    if (name === 'destroy')
      cmd.option(
        '--include-regional',
        'also destroy the region-level units (the S3 Tables analytics integration every lab and S3 Tables user of the region relies on)',
      );
    cmd.action((units: string[], options: InfraOptions) => runCli(() => runInfra(name, units, options)));
  };
  add('order', "print the lab's units in deploy and destroy order");
  add('synth', 'synthesize every unit (cdktf synth) into cdktf.out/');
  add(
    'plan',
    'cdktf diff of each unit in order; a unit whose upstream is not deployed yet plans against its mock outputs',
  );
  add(
    'deploy',
    'cdktf deploy of the units in dependency order (needs Terraform/OpenTofu and AWS credentials)',
    true,
  );
  add(
    'destroy',
    "cdktf destroy of the lab's units in reverse order; table-bucket goes last and runs the leftover check; region-level units stay",
    true,
  );
}
