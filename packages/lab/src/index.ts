// @loglake/lab: the `lab` CLI runs from src/cli.ts; this face is what the thin entries in scripts/ (`pnpm load`,
// `pnpm query`, `pnpm bench`) build on. The loader and the query runner load through ./load-main and ./query-main,
// after the flags are parsed, so `--help` and a bad flag answer without loading them.
export { didYouMean, helpfulUsage, runCli } from './cli-support';
export { UnknownNameError } from './errors';
export { loadCommand, type LoadOptions } from './load/load-command';
export { queryCommand, type QueryOptions } from './query/query-command';
