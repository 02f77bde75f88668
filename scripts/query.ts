// `pnpm query`: thin entry over @loglake/lab's query runner (the flags are parsed before the runner loads).
import { queryCommand, type QueryOptions } from '../packages/lab/src/query/query-command';
import { runCli } from '../packages/lab/src/cli-support';

await runCli(async () => {
  const program = queryCommand();
  program.parse(process.argv.slice(2), { from: 'user' });
  const { queryMain } = await import('../packages/lab/src/query/query-cli');
  return queryMain(program.args[0], program.opts<QueryOptions>());
});
