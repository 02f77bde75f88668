// `pnpm query`: thin entry over @loglake/lab's query runner.
import { queryCli } from '../packages/lab/src/query/query-cli';
import { runCli } from '../packages/lab/src/cli-support';

await runCli(() => queryCli(process.argv.slice(2)));
