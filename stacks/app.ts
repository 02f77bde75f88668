// Wires resolved units to catalog stacks: one stack per unit (stack id = unit name), dependencies as cdktf stack
// dependencies so `cdktf deploy`/`destroy` of several stacks follow the graph, and the lab policy as an Aspect.
import { App, Aspects } from 'cdktf';
import type { Construct } from 'constructs';
import { invokingCdktfCommand, tfCommandForCdktf, type CdktfInvocation } from './lib/cdktf-invocation';
import { isTfCommand, TF_COMMAND_ENV, type ResolvedUnit, type TfCommand } from './lib/contract';
import { loadStackModule, UnknownStackKindError } from './lib/catalog';
import { StacksError } from './lib/errors';
import type { LabStack, LabStackOptions } from './lib/lab-stack';
import { LabPolicy } from './lib/policy/lab-policy';

export type StackFactory = (scope: Construct, unit: ResolvedUnit, options?: LabStackOptions) => LabStack;

export interface LabUnits {
  readonly units: Readonly<Record<string, ResolvedUnit>>;
  readonly order: readonly string[];
}

/** Reads LOGLAKE_TF_COMMAND; anything else than a known command is a mistake worth stopping for. */
export function announcedCommand(env: NodeJS.ProcessEnv = process.env): TfCommand | undefined {
  const value = env[TF_COMMAND_ENV];
  if (value === undefined || value === '') return undefined;
  if (!isTfCommand(value))
    throw new StacksError(
      `${TF_COMMAND_ENV}="${value}" is not a Terraform command; unset it or use plan, validate, apply…`,
      { value },
    );
  return value;
}

/**
 * The command this synth is for. Run by the cdktf CLI (by hand or by the scripts), its own command decides — an apply
 * is an apply whatever LOGLAKE_TF_COMMAND says, and a cdktf command that is not known here (or an option before it)
 * synthesizes as strictly as an apply. Run directly (the process table shows no cdktf above the app: the validate
 * harness, tests), LOGLAKE_TF_COMMAND decides; with neither, undefined: strict. When the process table cannot be
 * read, nothing tells a `cdktf deploy` from a `cdktf diff`, so a leftover LOGLAKE_TF_COMMAND=plan must not lower an
 * apply: strict, with a warning that names the variable and why it is not used.
 */
export function synthCommand(
  env: NodeJS.ProcessEnv = process.env,
  invocation: CdktfInvocation = invokingCdktfCommand(),
  warn: (message: string) => void = (message) => process.stderr.write(`${message}\n`),
): TfCommand | undefined {
  if (invocation.kind === 'cdktf') return tfCommandForCdktf(invocation.command);
  // Checked either way: a wrong value is a mistake worth stopping for.
  const announced = announcedCommand(env);
  if (invocation.kind === 'none') return announced;
  warn(unreadableCommandWarning(invocation.pid, announced));
  return undefined;
}

/** Why an unreadable process table synthesizes as an apply, and what that asks for. */
export function unreadableCommandWarning(pid: number, announced: TfCommand | undefined): string {
  return (
    `loglake: the cdktf command running this synth could not be read (process ${pid}: no /proc entry, and ps did ` +
    'not answer), so it synthesizes as strictly as an apply: no mock outputs for producers without state, and a ' +
    `real alert address required. ${TF_COMMAND_ENV}${announced ? `=${announced}` : ''} is not used here: it is ` +
    "trusted only where it can be checked against cdktf's own command (a process table that shows it). Deploy the " +
    'producers first and set LOGLAKE_ALERT_EMAIL, or synthesize where the process table can be read (Linux, macOS).'
  );
}

export async function loadStackFactory(stack: string, unit: string): Promise<StackFactory> {
  try {
    return await loadStackModule<StackFactory>(stack);
  } catch (error) {
    if (!(error instanceof UnknownStackKindError)) throw error;
    throw new StacksError(`unit ${unit}: ${error.message}; add it (export const create)`, {
      value: stack,
      cause: error,
    });
  }
}

export interface BuildOptions {
  readonly app?: App;
  readonly outdir?: string;
  readonly command?: TfCommand;
  /** Only these units (and nothing else); default all. Dependencies still resolve through remote state. */
  readonly only?: readonly string[];
  readonly policy?: boolean;
}

export interface BuiltLab {
  readonly app: App;
  readonly stacks: ReadonlyMap<string, LabStack>;
  readonly policy?: LabPolicy;
}

export async function buildLab(lab: LabUnits, options: BuildOptions = {}): Promise<BuiltLab> {
  const outdir = options.outdir ?? 'cdktf.out';
  // No stack traces in annotations: a lab policy refusal prints its message (which names the fix), not cdktf's frames.
  const app = options.app ?? new App({ outdir, skipValidation: false, stackTraces: false });
  const stacks = new Map<string, LabStack>();
  for (const name of lab.order) {
    if (options.only && !options.only.includes(name)) continue;
    const unit = lab.units[name] as ResolvedUnit;
    const create = await loadStackFactory(unit.stack, name);
    const stack = create(app, unit, { outdir, command: options.command });
    for (const dep of unit.dependencies) {
      const producer = stacks.get(dep.unit);
      if (producer) stack.addDependency(producer);
    }
    stacks.set(name, stack);
  }
  let policy: LabPolicy | undefined;
  if (options.policy !== false) {
    const first = Object.values(lab.units)[0];
    policy = new LabPolicy({ namePrefix: first?.namePrefix ?? '', command: options.command });
    // On each stack: cdktf invokes aspects from the stack down, so one added to the App would never run.
    for (const stack of stacks.values()) Aspects.of(stack).add(policy);
  }
  return { app, stacks, policy };
}
