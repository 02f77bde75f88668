// @loglake/lab/load-main: the loader behind `pnpm load`, loaded after its flags are parsed.
export { loadMain } from './load/load-cli';
