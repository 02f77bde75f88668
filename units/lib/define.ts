// The shapes of the live-tree files. Every level holds a few values (Terragrunt style); resolution merges them
// root → env → region → lab → unit. Identity helpers only give the files their types.
import type { TfCommand } from '@loglake/stacks/inputs';

export interface RemoteStateConfig {
  /** S3 bucket holding every unit's state; falls back to LAB_STATE_BUCKET, then to a local backend. */
  readonly bucket?: string;
  /** Region of the state bucket; defaults to the lab's region. */
  readonly region?: string;
}

/** Values any level may set. Later levels win; `tags` and `inputs` merge key by key (deeply for inputs). */
export interface LevelConfig {
  readonly labId?: string;
  readonly prefix?: string;
  /** AWS region; must match the region folder the lab sits in (the path is the configuration). */
  readonly region?: string;
  readonly tags?: Readonly<Record<string, string>>;
  readonly allowedAccountIds?: readonly string[];
  readonly remoteState?: RemoteStateConfig;
  /** Repo-relative, git-ignored folder for local state when no state bucket is configured. */
  readonly localStateDir?: string;
  /** Inputs shared by every unit below this level (a unit reads only the keys its stack knows). */
  readonly inputs?: Readonly<Record<string, unknown>>;
}

export interface RootConfig extends LevelConfig {
  readonly labId: string;
  readonly prefix: string;
}

export interface DependencyConfig {
  /** Path of the producer unit relative to this unit, as in Terragrunt: "../table-bucket". */
  readonly configPath: string;
  /** Outputs this unit reads; each must be one the producer's stack promises. */
  readonly outputs: readonly string[];
  /** Stand-in values, used only when the producer has no state yet and the command allows mocks. */
  readonly mockOutputs?: Readonly<Record<string, string>>;
  /** Defaults to init/validate/plan. apply and destroy are refused: fake values there would be an error. */
  readonly mockOutputsAllowedTerraformCommands?: readonly TfCommand[];
}

export interface UnitConfig extends LevelConfig {
  /** Catalog entry under stacks/ that builds this unit; defaults to the unit's file name. */
  readonly stack?: string;
  readonly dependencies?: Readonly<Record<string, DependencyConfig>>;
}

export const defineRoot = (config: RootConfig): RootConfig => config;
export const defineLevel = (config: LevelConfig): LevelConfig => config;
/** `I` is the stack's input type (import type from @loglake/stacks/<stack>/inputs) for editor help. */
export const defineUnit = <I extends object = Record<string, unknown>>(
  config: UnitConfig & { readonly inputs?: DeepPartial<I> },
): UnitConfig => config;

export type DeepPartial<T> = {
  [K in keyof T]?: T[K] extends readonly unknown[] ? T[K] : T[K] extends object ? DeepPartial<T[K]> : T[K];
};
