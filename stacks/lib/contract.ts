// The contract between units/ (data: the live tree) and the stacks catalog (logic). Types and pure helpers only:
// no cdktf import, so `@loglake/units` can resolve a lab without loading Terraform machinery.

/** Terraform commands a wrapper can announce through LOGLAKE_TF_COMMAND. */
export const TF_COMMANDS = [
  'init',
  'validate',
  'plan',
  'apply',
  'destroy',
  'output',
  'refresh',
  'import',
] as const;
export type TfCommand = (typeof TF_COMMANDS)[number];

/** Stricter than Terragrunt (whose empty list allows apply): mocks never reach apply or destroy. */
export const DEFAULT_MOCK_COMMANDS: readonly TfCommand[] = ['init', 'validate', 'plan'];
export const NEVER_MOCK_COMMANDS: readonly TfCommand[] = ['apply', 'destroy', 'import', 'refresh'];

/** The env var wrappers (`pnpm lab plan`) set so synth knows whether mock outputs may be used. */
export const TF_COMMAND_ENV = 'LOGLAKE_TF_COMMAND';

export interface S3RemoteState {
  readonly backend: 's3';
  readonly bucket: string;
  readonly key: string;
  readonly region: string;
}

export interface LocalRemoteState {
  readonly backend: 'local';
  readonly key: string;
  /** Repo-relative path of the state file (under a git-ignored folder). */
  readonly path: string;
}

export type RemoteState = S3RemoteState | LocalRemoteState;

/** One `dependency "x" {}` block, resolved: which unit, which of its outputs, and the stand-ins for plan. */
export interface ResolvedDependency {
  /** Local alias, as in `dependency "table_bucket"`. */
  readonly name: string;
  /** The producer unit's name (= its stack id). */
  readonly unit: string;
  /** The producer unit's path in the live tree. */
  readonly path: string;
  readonly outputs: readonly string[];
  readonly mockOutputs: Readonly<Record<string, string>>;
  readonly mockAllowedCommands: readonly TfCommand[];
  readonly remoteState: RemoteState;
}

/**
 * Where a unit sits in the live tree. `lab`: inside a lab folder (`<env>/<region>/<NN-lab>/`), created and destroyed
 * with the lab. `region`: in the region's `_regional/` folder, shared by every lab of the region and left in place
 * when a lab is destroyed (account-and-region singletons such as the S3 Tables analytics integration).
 */
export type UnitLevel = 'lab' | 'region';

/** The folder, under a region folder, that holds the region-level units. */
export const REGIONAL_DIR = '_regional';

/** What every stack receives besides its own inputs. */
export interface UnitContext {
  readonly name: string;
  readonly level: UnitLevel;
  /** e.g. `sandbox/us-east-1/01-s3-tables-log-lake/firehose` — also the state key's folder. */
  readonly path: string;
  readonly env: string;
  readonly region: string;
  /** The lab's two digits; empty for a region-level unit, which belongs to no lab. */
  readonly labId: string;
  readonly labName: string;
  readonly prefix: string;
  /** `<prefix>-<labId>` (a region-level unit: `<prefix>`): every named resource of the unit carries it. */
  readonly namePrefix: string;
  readonly tags: Readonly<Record<string, string>>;
  readonly allowedAccountIds: readonly string[];
  readonly remoteState: RemoteState;
}

export interface ResolvedUnit<I = unknown> extends UnitContext {
  /** Catalog entry (folder under stacks/) that builds this unit; defaults to the unit name. */
  readonly stack: string;
  readonly dependencies: readonly ResolvedDependency[];
  readonly inputs: I;
}

/**
 * What a catalog entry (stacks/<name>/inputs.ts) exports as `spec`: the outputs it promises and how raw unit
 * inputs become validated, defaulted inputs. Pure, so units/ can call it without cdktf.
 */
export interface InputsSpec<I> {
  readonly stack: string;
  readonly outputs: readonly string[];
  resolveInputs(raw: Readonly<Record<string, unknown>>, unit: UnitContext): I;
}

/** Dependencies are always resolved before inputs; a consumer may look its producers' values up. */
export function isTfCommand(value: string): value is TfCommand {
  return (TF_COMMANDS as readonly string[]).includes(value);
}
