// `pnpm bench synth`: synth time of the whole lab (all unit stacks, policy aspect included) ÷ synth time of one bare
// stack with the AWS provider, measured side by side in one run. Two views: cold (a fresh process each time, as
// `cdktf synth` runs the app) and warm (in-process, modules loaded). Goal: cold ratio ≤ 2×.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, TerraformStack } from 'cdktf';
import { AwsProvider } from '@cdktf/provider-aws/lib/provider';
import { resolveLab } from '../../units/index';
import { buildLab } from '../app';
import { REPO_ROOT } from '../lib/paths';

const ROUNDS_COLD = Number(process.env.BENCH_ROUNDS_COLD ?? 5);
const ROUNDS_WARM = Number(process.env.BENCH_ROUNDS_WARM ?? 7);
const GOAL = 2;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function cold(entry: string): number {
  const out = mkdtempSync(join(tmpdir(), 'bench-synth-'));
  const t0 = performance.now();
  const r = spawnSync(process.execPath, ['--import', 'tsx', entry], {
    cwd: REPO_ROOT,
    env: { ...process.env, CDKTF_OUTDIR: out, CHECKPOINT_DISABLE: '1', LOGLAKE_TF_COMMAND: '' },
    encoding: 'utf8',
  });
  const ms = performance.now() - t0;
  rmSync(out, { recursive: true, force: true });
  if (r.status !== 0) throw new Error(`${entry} failed: ${r.stderr}`);
  return ms;
}

async function warmLab(): Promise<number> {
  const out = mkdtempSync(join(tmpdir(), 'bench-synth-'));
  const t0 = performance.now();
  const lab = await resolveLab({ env: {} });
  const { app } = await buildLab(lab, { app: new App({ outdir: out }), outdir: out });
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
// Alternate so machine load hits both sides alike.
for (let i = 0; i < ROUNDS_COLD; i++) {
  coldBare.push(cold('stacks/bench/bare-stack.ts'));
  coldLab.push(cold('units/main.ts'));
}
await warmLab(); // load modules once
warmBare();
const warmBareMs: number[] = [];
const warmLabMs: number[] = [];
for (let i = 0; i < ROUNDS_WARM; i++) {
  warmBareMs.push(warmBare());
  warmLabMs.push(await warmLab());
}

const result = {
  bench: 'synth',
  at: new Date().toISOString(),
  node: process.version,
  goal: `all stacks ÷ one bare AWS stack ≤ ${GOAL}× (cold, as cdktf synth runs the app)`,
  cold: {
    rounds: ROUNDS_COLD,
    bareMs: Math.round(median(coldBare)),
    labMs: Math.round(median(coldLab)),
    ratio: +(median(coldLab) / median(coldBare)).toFixed(2),
  },
  warm: {
    rounds: ROUNDS_WARM,
    bareMs: +median(warmBareMs).toFixed(1),
    labMs: +median(warmLabMs).toFixed(1),
    ratio: +(median(warmLabMs) / median(warmBareMs)).toFixed(2),
  },
};
const dir = join(REPO_ROOT, '.lab/bench');
mkdirSync(dir, { recursive: true });
writeFileSync(join(dir, 'synth.json'), `${JSON.stringify(result, null, 2)}\n`);

console.log('synth bench (median ms)      one bare AWS stack   all lab stacks   ratio');
console.log(
  `cold (fresh process, ×${ROUNDS_COLD})     ${String(result.cold.bareMs).padStart(17)}   ${String(result.cold.labMs).padStart(14)}   ${result.cold.ratio}×`,
);
console.log(
  `warm (in process, ×${ROUNDS_WARM})       ${String(result.warm.bareMs).padStart(17)}   ${String(result.warm.labMs).padStart(14)}   ${result.warm.ratio}×`,
);
console.log(
  `goal: cold ratio ≤ ${GOAL}× — ${result.cold.ratio <= GOAL ? 'met' : 'NOT met'}; results in .lab/bench/synth.json`,
);
