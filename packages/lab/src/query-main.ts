// @loglake/lab/query-main: the query runner behind `pnpm query`, loaded after its flags are parsed.
export { queryMain } from './query/query-cli';
