// `pnpm bench snapshots`: bytes scanned by the analysts' query (latest complete day, top rejected sources) on the
// daily snapshot ÷ the same question on 30 days of history, measured side by side in one run on the local
// endpoint, through the real pipeline (state machine, both handlers, CTAS, publish). Goal: ≥ 25×.
//
// The history's physical layout decides how much a day filter can prune, so two source tables with the same
// 30 days of records are measured:
//   mixed   — every commit holds records from across the month (late and replayed records, backfills, the lab
//             generator's spread): min/max pruning cannot skip files. This is the seed's situation. Headline.
//   ordered — every commit holds one contiguous time window (an ideal Firehose stream, never compacted across
//             days): Iceberg skips most files on start_time bounds. The best case for querying history.
// Results: .lab/bench/snapshots.json.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startLocalEndpoint } from '@loglake/local-aws';
import type { SnapshotDefinition } from '../src/definitions';
import type { HandlerConfig } from '../src/env';
import {
  flowRows,
  hoursOf,
  loadFlows,
  localSnapshotClients,
  provisionLocalSnapshots,
} from '../src/local-lab';
import { compareAnalystsQuery, runSnapshotOffline } from '../src/offline';

const DAYS = 30;
const PER_HOUR = Number(process.env.BENCH_SNAPSHOTS_PER_HOUR ?? 40);
const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const FIRST = Date.UTC(2026, 9, 1);
const day = (n: number) => new Date(FIRST + n * 86_400_000).toISOString().slice(0, 10);
const LATEST = day(DAYS - 1);

const columns: SnapshotDefinition['columns'] = [
  { name: 'srcaddr', type: 'string' },
  { name: 'dstaddr', type: 'string' },
  { name: 'dstport', type: 'int' },
  { name: 'bytes', type: 'bigint' },
  { name: 'start_time', type: 'timestamp' },
  { name: 'action', type: 'string' },
];
const definition = (name: string, table: string): SnapshotDefinition => ({
  name,
  source: { namespace: 'network', table, timeColumn: 'start_time' },
  columns,
  filters: [],
  latenessGraceMinutes: 30,
  minRecordsPerHour: 1,
  lookbackDays: 7,
  runsToKeep: 2,
});
const layouts = [
  { layout: 'mixed', def: definition('flows_mixed_daily', 'vpc_flow_logs') },
  { layout: 'ordered', def: definition('flows_ordered_daily', 'vpc_flow_logs_ordered') },
];
const config: HandlerConfig = {
  sourceTableBucket: 'loglake-bench-tables',
  snapshotDatabase: 'loglake_bench_snapshots',
  snapshotBucket: 'loglake-bench-snapshots',
  workgroup: 'loglake-bench',
  queryTimeoutMs: 300_000,
  definitions: layouts.map((l) => l.def),
};

/** Deterministic shuffle (the mixed layout). */
function shuffled<T>(items: T[], seed = 42): T[] {
  const out = [...items];
  let n = seed;
  for (let i = out.length - 1; i > 0; i--) {
    n = (n * 1103515245 + 12345) % 2147483648;
    const j = (n >>> 8) % (i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

const dir = mkdtempSync(join(tmpdir(), 'bench-snapshots-'));
const endpoint = await startLocalEndpoint({ dataDir: dir });
const clients = localSnapshotClients(endpoint.url);
try {
  await provisionLocalSnapshots(clients, config);
  // 30 full days, plus the first two hours of the next day (so day 30 has landed past its grace).
  const hours = [
    ...Array.from({ length: DAYS }, (_, d) => hoursOf(day(d))).flat(),
    ...hoursOf(day(DAYS), [0, 1]),
  ];
  const rows = flowRows(hours, PER_HOUR);
  const started = performance.now();
  await loadFlows(clients, config, layouts[0]!.def, shuffled(rows));
  await loadFlows(clients, config, layouts[1]!.def, rows);
  const loadMs = performance.now() - started;
  console.log(
    `history: ${DAYS} days × 24 h × ${PER_HOUR} flows = ${rows.length} records per table, loaded in ${(loadMs / 1000).toFixed(1)} s`,
  );

  const results = [];
  for (const { layout, def } of layouts) {
    const run = await runSnapshotOffline(
      clients,
      config,
      { snapshot: def.name },
      () => new Date(`${day(DAYS)}T06:00:00Z`),
    );
    if (run.execution.status !== 'SUCCEEDED' || run.after.watermark !== LATEST) {
      throw new Error(
        `the ${layout} snapshot was not published for ${LATEST}: ${JSON.stringify(run.execution.error ?? run.after)}`,
      );
    }
    const cmp = await compareAnalystsQuery(clients, config, def, LATEST);
    if (!cmp.sameAnswer) throw new Error(`the ${layout} snapshot answers differently from its history`);
    results.push({
      layout,
      watermark: LATEST,
      snapshotBytesScanned: cmp.snapshot.bytesScanned,
      historyBytesScanned: cmp.source.bytesScanned,
      ratio: Number(cmp.ratio.toFixed(2)),
      sameAnswer: cmp.sameAnswer,
      answerRows: cmp.snapshot.rows.length,
    });
  }
  console.log("\nanalysts' query on the latest complete day (same answer on both sides):");
  console.log('layout   | snapshot bytes | 30-day history bytes | history ÷ snapshot');
  for (const r of results) {
    console.log(
      `${r.layout.padEnd(8)} | ${String(r.snapshotBytesScanned).padStart(14)} | ${String(r.historyBytesScanned).padStart(20)} | ${r.ratio.toFixed(1)}×`,
    );
  }
  const headline = results[0]!;
  console.log(
    `\nratio (mixed history, the seed's situation): ${headline.ratio.toFixed(1)}× — goal ≥ 25×: ${headline.ratio >= 25 ? 'met' : 'NOT met'}`,
  );
  mkdirSync(join(REPO_ROOT, '.lab', 'bench'), { recursive: true });
  writeFileSync(
    join(REPO_ROOT, '.lab', 'bench', 'snapshots.json'),
    JSON.stringify({ days: DAYS, perHour: PER_HOUR, records: rows.length, goal: 25, results }, null, 2),
  );
  process.exitCode = headline.ratio >= 25 ? 0 : 1;
} finally {
  clients.destroy();
  await endpoint.stop();
  rmSync(dir, { recursive: true, force: true });
}
