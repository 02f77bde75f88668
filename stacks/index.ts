// @loglake/stacks — the catalog: one stack per unit kind (stacks/<kind>/{inputs,stack}.ts) plus shared constructs.
// inputs.ts files and lib/contract.ts are pure (no cdktf) so @loglake/units can import them cheaply.
export {
  buildLab,
  announcedCommand,
  synthCommand,
  loadStackFactory,
  type BuiltLab,
  type BuildOptions,
  type LabUnits,
  type StackFactory,
} from './app';
export { LabStack, AWS_PROVIDER_CONSTRAINT, type LabStackOptions } from './lib/lab-stack';
export { UpstreamOutputs } from './lib/upstream';
export { LabPolicy } from './lib/policy/lab-policy';
export { StacksError, UnitConfigError, MockOutputsRefusedError } from './lib/errors';
export * from './lib/contract';
// The column types a table-bucket unit accepts: the lab's resources are described with the same union.
export type { IcebergColumn, IcebergType } from './table-bucket/inputs';
