// `pnpm query`: thin entry over @loglake/lab's query runner (the flags are parsed before the runner loads).
import { queryCommand, runCli, type QueryOptions } from '@loglake/lab';

await runCli(async () => {
  const program = queryCommand();
  program.parse(process.argv.slice(2), { from: 'user' });
  const { queryMain } = await import('@loglake/lab/query-main');
  return queryMain(program.args[0], program.opts<QueryOptions>());
});
