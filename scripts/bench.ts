// `pnpm bench [name...]`: runs each named benchmark (all when none is named) in its own process, one after another,
// so each prints ratios measured side by side within one run. Results land in .lab/bench/<name>.json.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const benches: Record<string, string> = {
  synth: 'stacks/bench/synth.ts',
  engine: 'packages/lakehouse/bench/engine.ts',
  local: 'packages/local-aws/bench/local.ts',
  api: 'packages/local-aws/bench/api.ts',
  lab: 'packages/lab/bench/lab.ts',
  snapshots: 'packages/snapshot-lambdas/bench/snapshots.ts',
  sql: 'packages/lab/bench/sql.ts',
};

const asked = process.argv.slice(2);
const unknown = asked.filter((name) => !(name in benches));
if (unknown.length > 0) {
  console.error(`Unknown benchmark: ${unknown.join(', ')}. Choose from: ${Object.keys(benches).join(', ')}.`);
  process.exit(2);
}
let failed = 0;
for (const name of asked.length > 0 ? asked : Object.keys(benches)) {
  const file = benches[name] as string;
  if (!existsSync(file)) {
    console.error(`bench ${name}: ${file} does not exist yet`);
    failed++;
    continue;
  }
  console.log(`\n== bench ${name} (${file})`);
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--expose-gc', file], { stdio: 'inherit' });
  if (run.status !== 0) failed++;
}
process.exit(failed > 0 ? 1 : 0);
