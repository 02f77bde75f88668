// `pnpm bench lab`: the full default lab on the local endpoint, measured in one run.
//   P1  JSON bytes ÷ Parquet bytes of the main load                 (seed: 15.1 MiB → ~1 MB, ≈ 15×)
//   P2  one-hour question: unpartitioned ÷ partitioned bytes scanned (goal ≥ 10×, seed 5.5×)
//   P3  time-travel count(*) to the smoke test: bytes scanned        (goal 0)
//   P4  sorted compaction: JSON ÷ Parquet for the rows the table holds (goal ≥ 20×: a stretch goal of ours,
//       printed here with its raw figures, never a failed check in the lab's report)
//   wall time of the whole lab
// LAB_BENCH_RECORDS / LAB_BENCH_BUFFER_INTERVAL override the size (default 50,000) and the local buffer interval
// (default 2 s, printed: the unit's 60 s would make the run mostly waiting).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { FULL_SCALE } from '../src/experiments/context';
import { EXPERIMENTS } from '../src/experiments/registry';
import { runLab } from '../src/experiments/run-lab';
import { COMPRESSION_GOAL, compressionGoalLine } from '../src/experiments/sort-order';
import { formatBytes } from '../src/report/format';
import { experimentTable } from '../src/report/terminal';
import { REPO_ROOT, openTarget } from '../src/target/open-target';

const records = Number(process.env.LAB_BENCH_RECORDS ?? FULL_SCALE.records);
const bufferInterval = Number(process.env.LAB_BENCH_BUFFER_INTERVAL ?? 2);
const work = mkdtempSync(join(tmpdir(), 'lab-bench-'));
const started = performance.now();
const target = await openTarget({
  target: 'local',
  dataDir: join(work, 'local'),
  bufferIntervalSeconds: bufferInterval,
});
let exitCode = 0;
try {
  for (const line of target.banner) console.log(line);
  const { report } = await runLab({
    target,
    experiments: EXPERIMENTS,
    scale: { ...FULL_SCALE, records },
    outDir: join(work, 'out'),
    fresh: true,
    log: () => undefined,
  });
  const wallMs = performance.now() - started;
  const m = (name: string) => report.experiments.find((e) => e.name === name && !e.error)?.measures;
  const load = m('load');
  const oneHour = m('one-hour');
  const travel = m('time-travel');
  const p1 = load ? Number(load.jsonBytes) / Number(load.parquetBytes) : NaN;
  const p2 = oneHour ? Number(oneHour.ratio) : NaN;
  const p3 = travel ? Number(travel.bytesScanned) : NaN;
  const sort = m('sort-order');
  const p4 = sort?.ratioAfter !== undefined ? Number(sort.ratioAfter) : NaN;
  console.log(`\n${experimentTable(report)}\n`);
  const lines = [
    `P1 JSON ÷ Parquet: ${load ? `${formatBytes(Number(load.jsonBytes))} ÷ ${formatBytes(Number(load.parquetBytes))} = ${p1.toFixed(1)}×` : 'not measured'} (seed ≈ 15×)`,
    `P2 one-hour bytes, unpartitioned ÷ partitioned: ${oneHour ? `${formatBytes(Number(oneHour.unpartitionedBytes))} ÷ ${formatBytes(Number(oneHour.partitionedBytes))} = ${p2.toFixed(1)}×` : 'not measured'} (goal ≥ 10×, seed 5.5×)`,
    `P3 time-travel count(*) bytes scanned: ${Number.isNaN(p3) ? 'not measured' : p3} (goal 0)`,
    compressionGoalLine(sort, COMPRESSION_GOAL),
    `wall time of the full lab (${records} records, ${FULL_SCALE.bursts} bursts, buffer ${bufferInterval} s): ${(wallMs / 1000).toFixed(1)} s`,
  ];
  for (const line of lines) console.log(line);
  const outDir = resolve(REPO_ROOT, '.lab/bench');
  mkdirSync(outDir, { recursive: true });
  writeFileSync(
    join(outDir, 'lab.json'),
    `${JSON.stringify({ records, bufferInterval, p1, p2, p3, p4, p4Goal: COMPRESSION_GOAL, wallMs: Math.round(wallMs), experiments: report.experiments }, null, 2)}\n`,
  );
  if (report.experiments.some((e) => e.error)) exitCode = 1;
} finally {
  await target.close();
  rmSync(work, { recursive: true, force: true });
}
process.exit(exitCode);
