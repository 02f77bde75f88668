export { commitTableChanges } from './commit-table';
export { parseTableCommit } from './parse-commit';
export { checkRequirements } from './requirements';
export { applyUpdates } from './updates';
export type {
  CommittedTable,
  PartitionSpecInput,
  SortOrderInput,
  TableCommit,
  TableRequirement,
  TableUpdate,
} from '../contract';
