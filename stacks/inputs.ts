// @loglake/stacks/inputs: each unit kind's inputs and the unit contract (mock outputs, dependencies, levels) — pure,
// no cdktf, so @loglake/units resolves the live tree without loading the stacks.
export type { AnalystInputs } from './analyst/inputs';
export {
  failedRowsAlarmDefinition,
  type FailedRowsAlarmDefinition,
  type FirehoseInputs,
} from './firehose/inputs';
export {
  DEFAULT_MOCK_COMMANDS,
  type InputsSpec,
  isTfCommand,
  NEVER_MOCK_COMMANDS,
  REGIONAL_DIR,
  type RemoteState,
  type ResolvedDependency,
  type ResolvedUnit,
  type TfCommand,
  type UnitContext,
  type UnitLevel,
} from './lib/contract';
export { loadInputsSpec, UnknownStackKindError } from './lib/catalog';
export type { RefDataInputs } from './ref-data/inputs';
export type { S3TablesIntegrationInputs } from './s3tables-integration/inputs';
export type { SnapshotsInputs } from './snapshots/inputs';
export {
  type IcebergColumn,
  type IcebergType,
  type TableBucketInputs,
  VPC_FLOW_LOG_COLUMNS,
} from './table-bucket/inputs';
