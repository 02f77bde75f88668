// One behaviour suite for Athena's SQL on Iceberg tables, written against the contract's SqlEngine only: the same
// statements and expectations run on the local engine (sql-behaviour.test.ts) and can run on real Athena through an
// SqlEngine adapter over the Athena SDK. Steps run in order in one empty namespace of one S3 table bucket; later
// steps use values captured from earlier results (snapshot ids, commit instants). Expectations avoid what differs
// by design between the two (raw timestamp(6) columns, absolute byte counts).
import { deepStrictEqual, match, ok, strictEqual } from 'node:assert/strict';
import type { ExecuteOptions, SqlEngine, StatementResult } from '../../src/contract';

export interface SuiteContext {
  /** `s3tablescatalog/<bucket>`. */
  catalog: string;
  namespace: string;
  /** Values captured by earlier steps. */
  values: Record<string, string>;
  /** Bytes scanned by earlier steps, by step name. */
  bytes: Record<string, number>;
}

export interface SuiteStep {
  name: string;
  sql: string | ((ctx: SuiteContext) => string);
  rows?: (string | null)[][];
  columns?: string[];
  /** The failure's message (Athena's StateChangeReason) must match. */
  error?: RegExp;
  check?: (result: StatementResult, ctx: SuiteContext) => void;
}

const flowsColumns = '(id bigint, start_time timestamp, srcaddr string, action string, bytes bigint)';
const batchA = `(1, TIMESTAMP '2024-05-01 10:05:00', '10.0.0.1', 'ACCEPT', 100), (2, TIMESTAMP '2024-05-01 10:45:00', '10.0.0.2', 'REJECT', 200),
  (3, TIMESTAMP '2024-05-01 11:15:00', '10.0.0.1', 'ACCEPT', 300), (4, TIMESTAMP '2024-05-01 12:30:00', '198.51.100.7', 'REJECT', 400)`;
const batchB = `(5, TIMESTAMP '2024-05-01 10:20:00', '198.51.100.7', 'REJECT', 500), (6, TIMESTAMP '2024-05-01 11:50:00', '10.0.0.2', 'ACCEPT', 600),
  (1, TIMESTAMP '2024-05-01 10:05:00', '10.0.0.1', 'ACCEPT', 100)`;
const oneHour = (table: string): string =>
  `SELECT action, count(*) AS flows, sum(bytes) AS total_bytes FROM ${table}
   WHERE start_time >= TIMESTAMP '2024-05-01 10:00:00' AND start_time < TIMESTAMP '2024-05-01 10:00:00' + INTERVAL '1' HOUR
   GROUP BY action ORDER BY action`;
const snapshotsOf = (table: string): string =>
  `SELECT operation, summary['added-records'] AS added, summary['added-position-deletes'] AS position_deletes,
          CAST(snapshot_id AS varchar) AS id, CAST(committed_at AS varchar) AS committed
   FROM "${table}$snapshots" ORDER BY committed_at`;

export const ATHENA_BEHAVIOUR_SUITE: SuiteStep[] = [
  // --- DDL ---
  {
    name: 'CREATE TABLE (Athena Iceberg form)',
    sql: `CREATE TABLE inventory (private_ip string, hostname string, tier string) TBLPROPERTIES ('table_type' = 'iceberg')`,
    check: (r) => deepStrictEqual(r.rows, []),
  },
  {
    name: 'CREATE TABLE IF NOT EXISTS on an existing table is a no-op',
    sql: `CREATE TABLE IF NOT EXISTS inventory (x string) TBLPROPERTIES ('table_type' = 'iceberg')`,
  },
  {
    name: 'CREATE TABLE on an existing table fails',
    sql: `CREATE TABLE inventory (x string) TBLPROPERTIES ('table_type' = 'iceberg')`,
    error: /already exists/i,
  },
  {
    name: 'CREATE TABLE hour-partitioned',
    sql: `CREATE TABLE flows_hourly ${flowsColumns} PARTITIONED BY (hour(start_time)) TBLPROPERTIES ('table_type' = 'iceberg')`,
  },
  {
    name: 'CREATE TABLE unpartitioned',
    sql: `CREATE TABLE flows ${flowsColumns} TBLPROPERTIES ('table_type' = 'iceberg')`,
  },
  { name: 'SHOW TABLES', sql: 'SHOW TABLES', rows: [['flows'], ['flows_hourly'], ['inventory']] },
  {
    name: 'DESCRIBE lists the columns',
    sql: 'DESCRIBE inventory',
    check: (r) =>
      ok(
        r.rows.some((row) => (row[0] ?? '').trim().startsWith('hostname')),
        JSON.stringify(r.rows),
      ),
  },
  // --- INSERT and reads ---
  {
    name: 'INSERT VALUES (one append commit)',
    sql: `INSERT INTO inventory (private_ip, hostname, tier) VALUES ('10.0.0.1', 'web-01', 'web'), ('10.0.0.4', 'web-04', 'web'), ('10.0.0.8', 'app-08', 'app')`,
  },
  {
    name: 'SELECT the inserted rows',
    sql: 'SELECT private_ip, hostname, tier FROM inventory ORDER BY private_ip',
    columns: ['private_ip', 'hostname', 'tier'],
    rows: [
      ['10.0.0.1', 'web-01', 'web'],
      ['10.0.0.4', 'web-04', 'web'],
      ['10.0.0.8', 'app-08', 'app'],
    ],
  },
  {
    name: 'count(*) is answered from metadata: 0 bytes',
    sql: 'SELECT count(*) AS row_count FROM inventory',
    rows: [['3']],
    check: (r) => strictEqual(r.stats.dataScannedInBytes, 0),
  },
  {
    name: '$snapshots after the first load',
    sql: snapshotsOf('inventory'),
    check: (r, ctx) => {
      strictEqual(r.rows.length, 1);
      strictEqual(r.rows[0]?.[0], 'append');
      strictEqual(r.rows[0]?.[1], '3');
      ctx.values['inventory_first'] = r.rows[0]?.[3] as string;
      ctx.values['inventory_first_at'] = r.rows[0]?.[4] as string;
    },
  },
  // --- MERGE (the seed's change batch) ---
  {
    name: 'MERGE change batch: move a host, decommission one, add one',
    sql: `MERGE INTO inventory AS t
      USING (VALUES ('10.0.0.8', 'app-08', 'batch', 'upsert'), ('10.0.0.4', 'web-04', 'web', 'delete'), ('10.0.0.5', 'web-05', 'web', 'upsert'))
        AS s (private_ip, hostname, tier, op)
      ON t.private_ip = s.private_ip
      WHEN MATCHED AND s.op = 'delete' THEN DELETE
      WHEN MATCHED THEN UPDATE SET hostname = s.hostname, tier = s.tier
      WHEN NOT MATCHED AND s.op = 'upsert' THEN INSERT (private_ip, hostname, tier) VALUES (s.private_ip, s.hostname, s.tier)`,
  },
  {
    name: 'MERGE result',
    sql: 'SELECT private_ip, hostname, tier FROM inventory ORDER BY private_ip',
    rows: [
      ['10.0.0.1', 'web-01', 'web'],
      ['10.0.0.5', 'web-05', 'web'],
      ['10.0.0.8', 'app-08', 'batch'],
    ],
  },
  {
    name: 'MERGE was merge-on-read: one overwrite snapshot with position deletes',
    sql: snapshotsOf('inventory'),
    check: (r) => {
      strictEqual(r.rows.length, 2);
      deepStrictEqual(r.rows[1]?.slice(0, 3), ['overwrite', '2', '2']);
    },
  },
  {
    name: 'MERGE with two source rows for one key is refused',
    sql: `MERGE INTO inventory AS t USING (VALUES ('10.0.0.1', 'web-01a'), ('10.0.0.1', 'web-01b')) AS s (private_ip, hostname)
      ON t.private_ip = s.private_ip WHEN MATCHED THEN UPDATE SET hostname = s.hostname`,
    error: /^MERGE_TARGET_ROW_MULTIPLE_MATCHES: One MERGE target table row matched more than one source row/,
  },
  { name: '...and nothing was committed', sql: `SELECT count(*) FROM "inventory$snapshots"`, rows: [['2']] },
  // --- time travel ---
  {
    name: 'FOR VERSION AS OF the first snapshot returns exactly its rows',
    sql: (ctx) =>
      `SELECT private_ip, hostname, tier FROM inventory FOR VERSION AS OF ${ctx.values['inventory_first']} ORDER BY private_ip`,
    rows: [
      ['10.0.0.1', 'web-01', 'web'],
      ['10.0.0.4', 'web-04', 'web'],
      ['10.0.0.8', 'app-08', 'app'],
    ],
  },
  {
    name: 'FOR TIMESTAMP AS OF the first commit returns the same rows',
    sql: (ctx) =>
      `SELECT hostname FROM inventory FOR TIMESTAMP AS OF TIMESTAMP '${ctx.values['inventory_first_at']}' ORDER BY hostname`,
    rows: [['app-08'], ['web-01'], ['web-04']],
  },
  {
    name: 'count(*) FOR VERSION AS OF is answered from metadata',
    sql: (ctx) => `SELECT count(*) FROM inventory FOR VERSION AS OF ${ctx.values['inventory_first']}`,
    rows: [['3']],
    check: (r) => strictEqual(r.stats.dataScannedInBytes, 0),
  },
  {
    name: 'a missing snapshot id is named',
    sql: 'SELECT * FROM inventory FOR VERSION AS OF 123456789',
    error: /123456789/,
  },
  // --- snapshot diff (EXCEPT ALL) ---
  { name: 'load batch A', sql: `INSERT INTO flows VALUES ${batchA}` },
  {
    name: 'capture the batch-A snapshot',
    sql: `SELECT CAST(snapshot_id AS varchar) FROM "flows$snapshots" ORDER BY committed_at DESC LIMIT 1`,
    check: (r, ctx) => {
      ctx.values['flows_a'] = r.rows[0]?.[0] as string;
    },
  },
  { name: 'load batch B (one row repeats a batch-A row)', sql: `INSERT INTO flows VALUES ${batchB}` },
  {
    name: 'EXCEPT ALL between snapshots is exactly the rows appended in between',
    sql: (ctx) =>
      `SELECT id, srcaddr, bytes FROM flows EXCEPT ALL SELECT id, srcaddr, bytes FROM flows FOR VERSION AS OF ${ctx.values['flows_a']} ORDER BY id`,
    rows: [
      ['1', '10.0.0.1', '100'],
      ['5', '198.51.100.7', '500'],
      ['6', '10.0.0.2', '600'],
    ],
  },
  // --- partitioning: same answer, fewer bytes ---
  { name: 'copy into the hour-partitioned table', sql: 'INSERT INTO flows_hourly SELECT * FROM flows' },
  {
    name: 'one-hour question on the unpartitioned table',
    sql: oneHour('flows'),
    rows: [
      ['ACCEPT', '2', '200'],
      ['REJECT', '2', '700'],
    ],
    check: (r, ctx) => {
      ctx.bytes['unpartitioned'] = r.stats.dataScannedInBytes;
    },
  },
  {
    name: 'one-hour question on the hour-partitioned copy: same answer, fewer bytes',
    sql: oneHour('flows_hourly'),
    rows: [
      ['ACCEPT', '2', '200'],
      ['REJECT', '2', '700'],
    ],
    check: (r, ctx) =>
      ok(
        r.stats.dataScannedInBytes < (ctx.bytes['unpartitioned'] ?? 0),
        `${r.stats.dataScannedInBytes} vs ${ctx.bytes['unpartitioned']}`,
      ),
  },
  // --- DELETE / UPDATE / ALTER ---
  { name: 'DELETE by predicate', sql: `DELETE FROM flows WHERE srcaddr = '198.51.100.7'` },
  {
    name: 'DELETE wrote position deletes in one snapshot',
    sql: snapshotsOf('flows'),
    check: (r) => {
      strictEqual(r.rows.length, 3);
      ok(['delete', 'overwrite'].includes(r.rows[2]?.[0] as string), String(r.rows[2]?.[0]));
      strictEqual(r.rows[2]?.[2], '2');
    },
  },
  {
    name: 'deleted rows are gone',
    sql: `SELECT count(*) FROM flows WHERE srcaddr = '198.51.100.7'`,
    rows: [['0']],
  },
  { name: 'UPDATE', sql: `UPDATE inventory SET tier = 'edge' WHERE hostname = 'web-01'` },
  { name: 'UPDATE result', sql: `SELECT tier FROM inventory WHERE hostname = 'web-01'`, rows: [['edge']] },
  {
    name: 'snapshots before ADD COLUMNS',
    sql: 'SELECT count(*) FROM "inventory$snapshots"',
    check: (r, ctx) => {
      ctx.values['inventory_snapshots'] = r.rows[0]?.[0] as string;
    },
  },
  { name: 'ALTER TABLE ADD COLUMNS', sql: 'ALTER TABLE inventory ADD COLUMNS (owner string, rack int)' },
  {
    name: 'old rows read NULL in added columns',
    sql: 'SELECT count(*) FROM inventory WHERE owner IS NULL AND rack IS NULL',
    rows: [['3']],
  },
  {
    name: 'ADD COLUMNS made no snapshot',
    sql: 'SELECT count(*) FROM "inventory$snapshots"',
    check: (r, ctx) => deepStrictEqual(r.rows, [[ctx.values['inventory_snapshots']]]),
  },
  // --- queries ---
  {
    name: 'CTE, join, aggregate and window',
    sql: `WITH per_host AS (SELECT srcaddr, count(*) AS n, sum(bytes) AS b FROM flows GROUP BY srcaddr)
          SELECT p.srcaddr, p.n, p.b, i.hostname, rank() OVER (ORDER BY p.b DESC) AS r
          FROM per_host p LEFT JOIN inventory i ON i.private_ip = p.srcaddr ORDER BY r`,
    rows: [
      ['10.0.0.2', '2', '800', null, '1'],
      ['10.0.0.1', '3', '500', 'web-01', '2'],
    ],
  },
  {
    name: 'UNION ALL / INTERSECT / EXCEPT',
    sql: `SELECT 1 AS x UNION ALL SELECT 1 UNION SELECT 2 INTERSECT SELECT 2 EXCEPT SELECT 3 ORDER BY x`,
    rows: [['1'], ['2']],
  },
  {
    name: 'Trino functions: date_trunc, hour, from_iso8601_timestamp, cardinality, approx_distinct, CAST to varchar',
    sql: `SELECT hour(date_trunc('hour', TIMESTAMP '2024-05-01 10:45:00')) AS h,
                 hour(from_iso8601_timestamp('2024-05-01T07:15:00Z')) AS h2,
                 cardinality(ARRAY['a', 'b', 'c']) AS n, CAST(42 AS varchar) AS s,
                 (SELECT approx_distinct(srcaddr) FROM flows) AS d, 7 / 2 AS q, 7 % 2 AS m`,
    columns: ['h', 'h2', 'n', 's', 'd', 'q', 'm'],
    rows: [['10', '7', '3', '42', '2', '3', '1']],
  },
  {
    name: "substr and element_at at Trino's edges",
    sql: "SELECT substr('abc', 0), substr('abc', -5), substr('abc', -1), element_at(ARRAY[1, 2], -1), element_at(ARRAY[1], 5)",
    rows: [['', '', 'c', '2', null]],
  },
  {
    name: 'element_at of an array at 0 fails as in Trino',
    sql: 'SELECT element_at(ARRAY[1], 0)',
    error: /^INVALID_FUNCTION_ARGUMENT: SQL array indices start at 1$/,
  },
  {
    name: 'a DuckDB function that Trino has not is not registered',
    sql: 'SELECT list_value(1)',
    error: /^FUNCTION_NOT_FOUND: line 1:8: Function 'list_value' not registered$/,
  },
  {
    name: 'a Trino function the local engine lacks is NOT_SUPPORTED, naming it',
    sql: "SELECT xxhash64(to_utf8('a'))",
    error: /^NOT_SUPPORTED: line 1:8: Function xxhash64 is not supported by the local engine/,
  },
  {
    name: 'Athena value encoding',
    sql: `SELECT true, 1.5E0, ARRAY[1, 2], DATE '2024-05-01', CAST(NULL AS varchar)`,
    rows: [['true', '1.5', '[1, 2]', '2024-05-01', null]],
  },
  { name: 'unaliased expressions are named _colN', sql: 'SELECT 1, 2 AS two', columns: ['_col0', 'two'] },
  // --- CTAS and DROP ---
  {
    name: 'CTAS into the catalog (Iceberg)',
    sql: `CREATE TABLE inventory_copy WITH (table_type = 'ICEBERG', is_external = false) AS SELECT private_ip, hostname FROM inventory`,
  },
  { name: 'CTAS rows', sql: 'SELECT count(*) FROM inventory_copy', rows: [['3']] },
  { name: 'DROP TABLE', sql: 'DROP TABLE inventory_copy' },
  // --- errors ---
  { name: 'malformed SQL', sql: 'SELEC 1', error: /^SYNTAX_ERROR: line 1:1: mismatched input 'SELEC'/ },
  {
    name: 'unknown table',
    sql: 'SELECT * FROM nope',
    error: /^TABLE_NOT_FOUND: line 1:15: Table '[^']*nope' does not exist/,
  },
  { name: 'dropped table', sql: 'SELECT * FROM inventory_copy', error: /^TABLE_NOT_FOUND: .*inventory_copy/ },
  {
    name: 'unknown column',
    sql: 'SELECT nope FROM inventory',
    error: /^COLUMN_NOT_FOUND: line 1:8: Column 'nope' cannot be resolved/,
  },
];

/** Runs one step and asserts its expectations (an unexpected failure is rethrown as is). */
export async function runSuiteStep(
  engine: SqlEngine,
  step: SuiteStep,
  ctx: SuiteContext,
  options: ExecuteOptions = {},
): Promise<void> {
  const sql = typeof step.sql === 'function' ? step.sql(ctx) : step.sql;
  let result: StatementResult;
  try {
    result = await engine.execute(sql, { catalog: ctx.catalog, database: ctx.namespace, ...options });
  } catch (error) {
    if (!step.error) throw error;
    match((error as Error).message, step.error);
    return;
  }
  if (step.error)
    throw new Error(
      `expected failure ${step.error} but the statement succeeded: ${JSON.stringify(result.rows)}`,
    );
  if (step.columns)
    deepStrictEqual(
      result.columns.map((c) => c.name),
      step.columns,
    );
  if (step.rows) deepStrictEqual(result.rows, step.rows);
  step.check?.(result, ctx);
}
