export { commitTableChanges } from './commit-table';
export { checkRequirements } from './requirements';
export { applyUpdates } from './updates';
export type * from './types';
