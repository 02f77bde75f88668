// `pnpm bench synth`: synth time of the whole lab (all unit stacks, policy aspect included) ÷ synth time of one bare
// stack with the AWS provider, measured side by side in one run. Two views: cold (a fresh process each time: exactly
// the command `cdktf synth` runs, cdktf.json's app, through a shell with cdktf's environment; the bare stack and the
// foundation subset run with that same command, entry swapped) and warm (in-process, modules loaded). Goal: cold
// ratio ≤ 2×.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, TerraformStack } from 'cdktf';
import type * as awsProvider from '@cdktf/provider-aws/lib/provider';
import { resolveLab } from '../index';
import { awsLib, buildLab } from '@loglake/stacks';
import { appCommand, appCommandFor, cdktfAppEnv, REPO_ROOT } from '../lib/app-command';

const { AwsProvider } = awsLib<typeof awsProvider>('provider');

// A synth for apply needs the snapshots unit's alert address (the lab policy refuses a missing one); any real-looking
// address does for timing, and it is set before resolveLab reads the unit files.
const ALERT_EMAIL = 'bench@loglake.dev';
process.env.LOGLAKE_ALERT_EMAIL ??= ALERT_EMAIL;

const ROUNDS_COLD = Number(process.env.BENCH_ROUNDS_COLD ?? 7);
const ROUNDS_WARM = Number(process.env.BENCH_ROUNDS_WARM ?? 7);
const GOAL = 2;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const FOUNDATION = ['table-bucket', 'firehose', 'ref-data'];

const COMMANDS = {
  bare: appCommandFor('units/bench/bare-stack.ts'),
  all: appCommand(),
  foundation: appCommandFor('units/bench/lab-subset.ts', FOUNDATION),
};

function cold(command: string): number {
  const out = mkdtempSync(join(tmpdir(), 'bench-synth-'));
  const t0 = performance.now();
  const r = spawnSync(command, {
    shell: true,
    cwd: REPO_ROOT,
    env: {
      ...cdktfAppEnv(out),
      CHECKPOINT_DISABLE: '1',
      LOGLAKE_TF_COMMAND: '',
      LOGLAKE_ALERT_EMAIL: process.env.LOGLAKE_ALERT_EMAIL,
    },
    encoding: 'utf8',
  });
  const ms = performance.now() - t0;
  rmSync(out, { recursive: true, force: true });
  if (r.status !== 0) throw new Error(`${command} failed: ${r.stderr}`);
  return ms;
}

async function warmLab(only?: string[]): Promise<number> {
  const out = mkdtempSync(join(tmpdir(), 'bench-synth-'));
  const t0 = performance.now();
  const lab = await resolveLab({ env: {} });
  const { app } = await buildLab(lab, { app: new App({ outdir: out }), outdir: out, only });
  app.synth();
  const ms = performance.now() - t0;
  rmSync(out, { recursive: true, force: true });
  return ms;
}

function warmBare(): number {
  const out = mkdtempSync(join(tmpdir(), 'bench-synth-'));
  const t0 = performance.now();
  const app = new App({ outdir: out });
  new AwsProvider(new TerraformStack(app, 'bare'), 'aws', { region: 'us-east-1' });
  app.synth();
  const ms = performance.now() - t0;
  rmSync(out, { recursive: true, force: true });
  return ms;
}

const coldBare: number[] = [];
const coldLab: number[] = [];
const coldFoundation: number[] = [];
// Alternate so machine load hits every side alike.
for (let i = 0; i < ROUNDS_COLD; i++) {
  coldBare.push(cold(COMMANDS.bare));
  coldLab.push(cold(COMMANDS.all));
  coldFoundation.push(cold(COMMANDS.foundation));
}
await warmLab(); // load modules once
warmBare();
const warmBareMs: number[] = [];
const warmLabMs: number[] = [];
const warmFoundationMs: number[] = [];
for (let i = 0; i < ROUNDS_WARM; i++) {
  warmBareMs.push(warmBare());
  warmLabMs.push(await warmLab());
  warmFoundationMs.push(await warmLab(FOUNDATION));
}
const ratio = (a: number[], b: number[]) => +(median(a) / median(b)).toFixed(2);

const result = {
  bench: 'synth',
  at: new Date().toISOString(),
  node: process.version,
  goal: `all stacks ÷ one bare AWS stack ≤ ${GOAL}× (cold, as cdktf synth runs the app)`,
  units: (await resolveLab({ env: {} })).order,
  foundation: FOUNDATION,
  commands: COMMANDS,
  cold: {
    rounds: ROUNDS_COLD,
    bareMs: Math.round(median(coldBare)),
    labMs: Math.round(median(coldLab)),
    ratio: ratio(coldLab, coldBare),
    foundationMs: Math.round(median(coldFoundation)),
    foundationRatio: ratio(coldFoundation, coldBare),
    // What the units beyond the foundation (today: snapshots) add to a cold synth.
    restMs: Math.round(median(coldLab) - median(coldFoundation)),
  },
  warm: {
    rounds: ROUNDS_WARM,
    bareMs: +median(warmBareMs).toFixed(1),
    labMs: +median(warmLabMs).toFixed(1),
    ratio: ratio(warmLabMs, warmBareMs),
    foundationMs: +median(warmFoundationMs).toFixed(1),
    foundationRatio: ratio(warmFoundationMs, warmBareMs),
    restMs: +(median(warmLabMs) - median(warmFoundationMs)).toFixed(1),
  },
};
const dir = join(REPO_ROOT, '.lab/bench');
mkdirSync(dir, { recursive: true });
writeFileSync(join(dir, 'synth.json'), `${JSON.stringify(result, null, 2)}\n`);

const cell = (v: string | number, w: number) => String(v).padStart(w);
const row = (label: string, r: typeof result.cold) =>
  `${label.padEnd(26)}${cell(r.bareMs, 10)}${cell(r.labMs, 10)}${cell(`${r.ratio}×`, 9)}${cell(r.foundationMs, 12)}${cell(`${r.foundationRatio}×`, 9)}`;
console.log(
  `synth bench, median ms. all = ${result.units.join(', ')}; foundation = ${FOUNDATION.join(', ')}`,
);
console.log("cold runs (each a fresh shell in the repo root, cdktf synth's environment):");
for (const [side, command] of Object.entries(COMMANDS)) console.log(`  ${side.padEnd(10)} ${command}`);
console.log(
  `${''.padEnd(26)}${cell('bare AWS', 10)}${cell('all', 10)}${cell('ratio', 9)}${cell('foundation', 12)}${cell('ratio', 9)}`,
);
console.log(row(`cold (fresh process, ×${ROUNDS_COLD})`, result.cold));
console.log(row(`warm (in process, ×${ROUNDS_WARM})`, result.warm));
const rest = result.units.filter((u) => !FOUNDATION.includes(u)).join(', ');
console.log(`all − foundation (${rest}): ${result.cold.restMs} ms cold, ${result.warm.restMs} ms warm`);
console.log(
  `goal: cold all ÷ bare ≤ ${GOAL}× — ${result.cold.ratio <= GOAL ? 'met' : 'NOT met'}; results in .lab/bench/synth.json`,
);
