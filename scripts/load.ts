// `pnpm load`: thin entry over @loglake/lab's loader (the flags are parsed before the loader loads).
import { loadCommand, runCli, type LoadOptions } from '@loglake/lab';

await runCli(async () => {
  const program = loadCommand();
  program.parse(process.argv.slice(2), { from: 'user' });
  const { loadMain } = await import('@loglake/lab/load-main');
  return loadMain(program.opts<LoadOptions & { data?: string }>());
});
