// @loglake/teardown — the leftover checker the destroy hook runs (scripts/check-leftovers.ts); the namespace emptier
// for destroys runs by path from the stacks (drop-namespace-tables-cli.ts).
export { parseAttempts, parseLabId, runCheck } from './check';
