// One P6 measurement in its own process (so peak RSS is this size's alone): append N generated rows in
// 1M-row commits to an hour-partitioned, sorted table, then scan one hour. Prints one JSON line.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openWarehouse } from '../src/index';
import { flowTable, generatedRowsSql, WINDOW_START } from './flow-table';

const BATCH = 1_000_000;

async function main(): Promise<void> {
  const n = Number(process.argv[2]);
  if (!Number.isInteger(n) || n <= 0)
    throw new Error(`usage: engine-scale.ts <rows>, got ${process.argv[2]}`);
  const dir = await mkdtemp(join(tmpdir(), 'loglake-bench-scale-'));
  const warehouse = await openWarehouse(dir);
  try {
    await warehouse.createTableBucket('bench');
    await warehouse.createNamespace('bench', 'network');
    const table = await warehouse.createTable(
      'bench',
      'network',
      'flows',
      flowTable({ sorted: true, codec: 'zstd', hourPartitioned: true }),
    );
    const started = performance.now();
    for (let offset = 0; offset < n; offset += BATCH) {
      const size = Math.min(BATCH, n - offset);
      await table.append({ sql: generatedRowsSql(size, offset, n) });
    }
    const appendMs = performance.now() - started;
    const scanStarted = performance.now();
    const plan = await table.scan({
      columns: ['start_time', 'bytes'],
      filter: {
        op: 'and',
        args: [
          { op: 'gte', column: 'start_time', value: new Date(`${WINDOW_START.replace(' ', 'T')}Z`) },
          {
            op: 'lt',
            column: 'start_time',
            value: new Date(new Date(`${WINDOW_START.replace(' ', 'T')}Z`).getTime() + 3_600_000),
          },
        ],
      },
    });
    const reader = await warehouse.duckdb.connection.runAndReadAll(
      `SELECT count(*)::BIGINT AS n, sum(bytes)::BIGINT AS b FROM ${plan.relationSql} AS t WHERE start_time >= TIMESTAMP '${WINDOW_START}' AND start_time < TIMESTAMP '${WINDOW_START}' + INTERVAL 1 HOUR`,
    );
    const scanMs = performance.now() - scanStarted;
    const row = reader.getRowObjectsJS()[0] as { n: bigint };
    const metadata = await table.metadata();
    const total = metadata.snapshots.at(-1)?.summary['total-records'];
    console.log(
      JSON.stringify({
        rows: n,
        appendMs,
        scanMs,
        totalMs: appendMs + scanMs,
        hourRows: Number(row.n),
        totalRecords: Number(total),
        bytesScanned: plan.stats.bytesScanned,
        filesScanned: plan.stats.filesScanned,
        filesSkipped: plan.stats.filesSkipped,
        peakRssBytes: process.resourceUsage().maxRSS * 1024,
      }),
    );
  } finally {
    await warehouse.close();
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
