// `pnpm load`: thin entry over @loglake/lab's loader (the flags are parsed before the loader loads).
import { loadCommand, type LoadOptions } from '../packages/lab/src/load/load-command';
import { runCli } from '../packages/lab/src/cli-support';

await runCli(async () => {
  const program = loadCommand();
  program.parse(process.argv.slice(2), { from: 'user' });
  const { loadMain } = await import('../packages/lab/src/load/load-cli');
  return loadMain(program.opts<LoadOptions & { data?: string }>());
});
