// `pnpm load`: thin entry over @loglake/lab's loader.
import { loadCli } from '../packages/lab/src/load/load-cli';
import { runCli } from '../packages/lab/src/cli-support';

await runCli(() => loadCli(process.argv.slice(2)));
