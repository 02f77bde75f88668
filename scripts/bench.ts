// `pnpm bench [name...]`: runs each named benchmark (all when none is named) in its own process, one after another,
// so each prints ratios measured side by side within one run. Results land in .lab/bench/<name>.json.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { Command } from 'commander';
import { didYouMean, helpfulUsage, runCli, UnknownNameError } from '@loglake/lab';

const benches: Record<string, { file: string; what: string }> = {
  synth: { file: 'units/bench/synth.ts', what: "synth time of the whole lab ÷ one bare stack's" },
  engine: { file: 'packages/lakehouse/bench/engine.ts', what: 'the embedded engine against plain DuckDB' },
  local: { file: 'packages/local-aws/bench/local.ts', what: 'records/s through the local endpoint' },
  api: { file: 'packages/local-aws/bench/api.ts', what: "the local endpoint's API coverage" },
  lab: { file: 'packages/lab/bench/lab.ts', what: 'the full default lab on the local endpoint' },
  snapshots: {
    file: 'packages/snapshot-lambdas/bench/snapshots.ts',
    what: 'bytes the daily snapshot saves over 30 days of history',
  },
  sql: { file: 'packages/lab/bench/sql.ts', what: 'the SQL front end as an analyst meets it' },
};

const program = new Command('bench')
  .description(
    'Run benchmarks, each in its own process, printing ratios measured side by side in one run; results in .lab/bench/<name>.json.',
  )
  .argument(
    '[names...]',
    `benchmarks to run (default: all, in this order): ${Object.keys(benches).join(', ')}`,
  )
  .addHelpText(
    'after',
    `\nBenchmarks:\n${Object.entries(benches)
      .map(([name, b]) => `  ${name.padEnd(10)} ${b.what} (${b.file})`)
      .join('\n')}`,
  )
  .exitOverride();
helpfulUsage(program, 'pnpm bench');

await runCli(async () => {
  program.parse(process.argv.slice(2), { from: 'user' });
  const asked = program.args;
  const known = Object.keys(benches);
  const unknown = asked.find((name) => !(name in benches));
  if (unknown !== undefined)
    throw new UnknownNameError(
      `No benchmark named ${unknown}${didYouMean(unknown, known)}. Choose from: ${known.join(', ')}.`,
      { value: unknown },
    );
  let failed = 0;
  for (const name of asked.length > 0 ? asked : known) {
    const { file } = benches[name] as { file: string };
    if (!existsSync(file)) {
      console.error(`bench ${name}: ${file} does not exist yet`);
      failed++;
      continue;
    }
    console.log(`\n== bench ${name} (${file})`);
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--expose-gc', file], { stdio: 'inherit' });
    if (run.status !== 0) failed++;
  }
  return failed > 0 ? 1 : 0;
});
