// `pnpm bench sql`: the SQL front end as an analyst meets it, measured in one run.
//   S1  the conformance corpus (local-aws/test/athena/corpus): documented results by family, through the local
//       Athena API (AWS SDK over loopback), on a fresh endpoint
//   S2  the lab's sql/ queries (rendered as the lab renders them) through the local Athena API ÷ the same query
//       text on DuckDB over the same Parquet files (goal ≤ 1.3×): start, poll and fetch against read_parquet. Both
//       sides run in turn, alternating which goes first, for SQL_BENCH_ROUNDS rounds after one warm-up round;
//       the ratio is the sum of the per-query medians, and every round's ratio and raw times are printed. The
//       client polls GetQueryExecution at a fixed SQL_BENCH_POLL_MS (default 10): each SDK call costs ~2 ms of CPU
//       in this process, so polling every millisecond takes a core from DuckDB on a 2-core machine, and the lab's
//       own back-off (from 100 ms) would measure the poll interval rather than the engine.
// SQL_BENCH_ROWS (default 1,000,000 flowgen records), SQL_BENCH_ROUNDS (default 7). Writes .lab/bench/sql.json.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { AthenaClient, CreateWorkGroupCommand } from '@aws-sdk/client-athena';
import { FLOW_LOG_V2_SCHEMA, FlowGenerator, SCANNER_IP, type FlowRecord } from '@loglake/flowgen';
import { createSqlEngine, openWarehouse, sqlString, toPath } from '@loglake/lakehouse';
import { DuckDbSession } from '@loglake/lakehouse/testing';
import { localClientConfig, startLocalEndpoint } from '@loglake/local-aws';
import { runCorpus } from '@loglake/local-aws/testing';
import { renderTemplate, runQuery, type AthenaTarget, type QueryResult } from '@loglake/athena-sql';
import { findTemplate } from '../src/query/find-template';
import { REPO_ROOT } from '../src/target/open-target';

const ROWS = Number(process.env.SQL_BENCH_ROWS ?? 1_000_000);
const ROUNDS = Number(process.env.SQL_BENCH_ROUNDS ?? 7);
const POLL_MS = Number(process.env.SQL_BENCH_POLL_MS ?? 10);
const DAY_START = '2026-11-01 00:00:00';
const DAY_END = '2026-11-02 00:00:00';
const SOURCE = 'network.vpc_flow_logs';

/** The lab's read queries on the flow table, with the parameters the lab gives them. */
const QUERIES: { name: string; params?: Record<string, string>; data?: Record<string, unknown> }[] = [
  { name: 'network/count_rows' },
  { name: 'network/busiest_hour' },
  { name: 'network/one_hour', params: { hour_start: '2026-11-01 12:00:00' } },
  { name: 'network/top_rejected_sources' },
  { name: 'network/duplicates' },
  { name: 'network/scanner_rows', params: { scanner_ip: SCANNER_IP } },
  {
    name: 'snapshots/analysts_query',
    data: { table: SOURCE, time_column: 'start_time', day_start: DAY_START, day_end: DAY_END },
  },
  {
    name: 'snapshots/hours_present',
    data: { source: SOURCE, time_column: 'start_time', from_timestamp: DAY_START },
  },
];

const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
const iso = (micros: number): string =>
  `${new Date(Math.floor(micros / 1000)).toISOString().slice(0, 19)}.${String(micros % 1_000_000).padStart(6, '0')}`;

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const value = await work();
  return [value, performance.now() - started];
}

function parquetFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.parquet'))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

async function corpusPassRate(work: string) {
  const endpoint = await startLocalEndpoint({ dataDir: join(work, 'corpus') });
  try {
    const started = performance.now();
    const report = await runCorpus(endpoint.url);
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `S1 conformance corpus through the local Athena API (${report.results.length} cases, ${seconds.toFixed(1)} s)`,
    );
    console.log('   family                  cases  passing  gaps  failing  pass rate');
    for (const f of report.byFamily) {
      console.log(
        `   ${f.family.padEnd(22)} ${String(f.cases).padStart(6)} ${String(f.passing).padStart(8)} ${String(f.gaps).padStart(5)} ${String(f.failing).padStart(8)}  ${((100 * f.passing) / f.cases).toFixed(1)}%`,
      );
    }
    console.log(
      `   all                    ${String(report.results.length).padStart(6)}  ${(100 * report.passRate).toFixed(1)}% (goal ≥ 95%)`,
    );
    for (const r of report.results)
      if (r.verdict.kind === 'fail') console.log(`   FAIL ${r.case.id}: ${r.verdict.detail}`);
    return { passRate: report.passRate, byFamily: report.byFamily };
  } finally {
    await endpoint.stop();
  }
}

async function labQueriesRatio(work: string) {
  const dataDir = join(work, 'lab');
  const warehouse = await openWarehouse(join(dataDir, 'warehouse'));
  const endpoint = await startLocalEndpoint({
    dataDir,
    engine: {
      openWarehouse: async () => warehouse,
      createSqlEngine: (w, options) => createSqlEngine(w, options),
    },
  });
  const athena = new AthenaClient(localClientConfig(endpoint.url));
  const direct = await DuckDbSession.open();
  try {
    await warehouse.createTableBucket('lab');
    await warehouse.createNamespace('lab', 'network');
    const table = await warehouse.createTable('lab', 'network', 'vpc_flow_logs', {
      columns: FLOW_LOG_V2_SCHEMA.map((c) => ({ ...c })),
    });
    const generator = new FlowGenerator({ seed: 14 });
    const [, loadMs] = await timed(async () => {
      for (let done = 0; done < ROWS; done += 100_000) {
        const batch: FlowRecord[] = generator.batch({
          count: Math.min(100_000, ROWS - done),
          from: new Date(`${DAY_START}Z`),
          to: new Date(`${DAY_END}Z`),
        });
        const rows = batch.map((r) => ({ ...r, start_time: iso(r.start_time), end_time: iso(r.end_time) }));
        await table.append({ rows });
      }
    });
    const files = parquetFiles(toPath((await table.metadata()).location));
    await direct.run('CREATE SCHEMA network');
    await direct.run(
      `CREATE VIEW ${SOURCE} AS SELECT * FROM read_parquet([${files.map((f) => sqlString(f)).join(', ')}])`,
    );
    await athena.send(
      new CreateWorkGroupCommand({
        Name: 'bench',
        Configuration: { ManagedQueryResultsConfiguration: { Enabled: true } },
      }),
    );
    const target: AthenaTarget = {
      client: athena,
      workgroup: 'bench',
      catalog: 's3tablescatalog/lab',
      database: 'network',
    };
    const statements = QUERIES.map((q) => ({
      name: q.name,
      sql: renderTemplate(findTemplate(q.name), q.params ?? {}, q.data ?? {})[0] as string,
    }));
    const api: number[][] = statements.map(() => []);
    const raw: number[][] = statements.map(() => []);
    const engineMs: number[][] = statements.map(() => []);
    const resultRows: number[] = statements.map(() => 0);
    for (let round = 0; round <= ROUNDS; round++) {
      for (const [i, s] of statements.entries()) {
        const viaApi = () =>
          timed(() => runQuery(target, s.sql, { initialPollMs: POLL_MS, maxPollMs: POLL_MS }));
        const onDuckdb = () => timed(() => direct.all(s.sql));
        const apiFirst = round % 2 === 0;
        const first = await (apiFirst ? viaApi() : onDuckdb());
        const second = await (apiFirst ? onDuckdb() : viaApi());
        const [apiResult, apiMs] = (apiFirst ? first : second) as [QueryResult, number];
        const [rawRows, rawMs] = (apiFirst ? second : first) as [unknown[], number];
        if (apiResult.rows.length !== rawRows.length)
          throw new Error(
            `${s.name}: ${apiResult.rows.length} rows through Athena, ${rawRows.length} on DuckDB`,
          );
        resultRows[i] = rawRows.length;
        if (round === 0) continue; // warm-up: neither side's first run counts
        api[i]?.push(apiMs);
        raw[i]?.push(rawMs);
        engineMs[i]?.push(apiResult.engineExecutionTimeInMillis);
      }
    }
    const perRound = Array.from({ length: ROUNDS }, (_, r) => {
      const a = api.reduce((sum, times) => sum + (times[r] ?? 0), 0);
      const d = raw.reduce((sum, times) => sum + (times[r] ?? 0), 0);
      return { apiMs: a, duckdbMs: d, ratio: a / d };
    });
    const apiTotal = api.reduce((sum, times) => sum + median(times), 0);
    const rawTotal = raw.reduce((sum, times) => sum + median(times), 0);
    const engineTotal = engineMs.reduce((sum, times) => sum + median(times), 0);
    const ratios = perRound.map((r) => r.ratio);
    console.log(
      `\nS2 the lab's sql/ queries: local Athena API ÷ DuckDB on the same ${files.length} Parquet files (${ROWS} rows loaded in ${(loadMs / 1000).toFixed(1)} s; ${ROUNDS} rounds after a warm-up)`,
    );
    console.log(
      `   Athena side: AWS SDK v3 over loopback, polling GetQueryExecution every ${POLL_MS} ms; engine ms is the`,
    );
    console.log(
      '   EngineExecutionTimeInMillis Athena reports (inside the endpoint, without the API round trips)',
    );
    console.log('   query                          rows  Athena API ms  engine ms  DuckDB ms   ratio');
    for (const [i, s] of statements.entries()) {
      const a = median(api[i] ?? []);
      const d = median(raw[i] ?? []);
      const e = median(engineMs[i] ?? []);
      console.log(
        `   ${s.name.padEnd(30)} ${String(resultRows[i]).padStart(5)} ${a.toFixed(1).padStart(14)} ${e.toFixed(0).padStart(10)} ${d.toFixed(1).padStart(10)} ${(a / d).toFixed(2).padStart(7)}`,
      );
    }
    console.log(
      `   all (sum of medians)                 ${apiTotal.toFixed(1).padStart(13)} ${engineTotal.toFixed(0).padStart(10)} ${rawTotal.toFixed(1).padStart(10)} ${(apiTotal / rawTotal).toFixed(2).padStart(7)}  (goal ≤ 1.3)`,
    );
    console.log(
      `   engine time ÷ DuckDB (the front end without the API round trips): ${(engineTotal / rawTotal).toFixed(2)}`,
    );
    console.log(
      `   per-round ratio: median ${median(ratios).toFixed(2)}, range ${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}; raw ms (API/DuckDB): ${perRound.map((r) => `${r.apiMs.toFixed(0)}/${r.duckdbMs.toFixed(0)}`).join(', ')}`,
    );
    return {
      rows: ROWS,
      files: files.length,
      ratio: apiTotal / rawTotal,
      engineRatio: engineTotal / rawTotal,
      perRound,
      pollMs: POLL_MS,
      queries: statements.map((s, i) => ({
        name: s.name,
        rows: resultRows[i],
        apiMs: api[i],
        engineMs: engineMs[i],
        duckdbMs: raw[i],
      })),
    };
  } finally {
    direct.close();
    athena.destroy();
    await endpoint.stop();
  }
}

const work = mkdtempSync(join(tmpdir(), 'sql-bench-'));
try {
  const corpus = await corpusPassRate(work);
  const lab = await labQueriesRatio(work);
  const outDir = resolve(REPO_ROOT, '.lab/bench');
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, 'sql.json'), `${JSON.stringify({ corpus, lab }, null, 2)}\n`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
