export { commitTableChanges } from './commit-table';
export { parseTableCommit } from './parse-commit';
export { checkRequirements } from './requirements';
export { applyUpdates } from './updates';
export type * from './types';
