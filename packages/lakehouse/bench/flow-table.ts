// The benchmark's flow-log table definition and a deterministic DuckDB row generator for large sizes
// (@loglake/flowgen keeps every key in memory to guarantee uniqueness, fine for 50k, not for 10M rows).
import { FLOW_LOG_V2_SCHEMA } from '@loglake/flowgen';
import type { ColumnDefinition, CreateTableInput, SortFieldDefinition } from '../src/contract';

export const FLOW_COLUMNS: ColumnDefinition[] = FLOW_LOG_V2_SCHEMA.map((c) => ({ ...c }));

/**
 * Declared sort order: action, then each interface's flows in time order. Measured on 50,000 flowgen records
 * it compressed best of the orders tried (interface/port/address orders scatter start_time and lose more).
 */
export const FLOW_SORT: SortFieldDefinition[] = ['action', 'interface_id', 'start_time'].map((c) => ({
  sourceColumn: c,
  direction: 'asc',
  nullOrder: 'nulls-first',
}));

export function flowTable(options: {
  sorted: boolean;
  codec: 'zstd' | 'snappy';
  hourPartitioned: boolean;
  /** More Iceberg table properties (e.g. write.parquet.page-version, write.parquet.compression-level). */
  properties?: Record<string, string>;
}): CreateTableInput {
  return {
    columns: FLOW_COLUMNS,
    ...(options.hourPartitioned ? { partitionBy: [{ sourceColumn: 'start_time', transform: 'hour' }] } : {}),
    ...(options.sorted ? { sortBy: FLOW_SORT } : {}),
    properties: { 'write.parquet.compression-codec': options.codec, ...options.properties },
  };
}

export const WINDOW_START = '2026-11-01 00:00:00';
/** Hours the generated rows spread over. */
export const SPAN_HOURS = 24;

/**
 * Rows `offset … offset+n-1` of a `total`-row data set: 64 interfaces, a few hundred addresses, common ports,
 * start times a permutation of `total` even slots over SPAN_HOURS from WINDOW_START (so every batch covers
 * every hour, in arrival order, as Firehose delivers). Same rows for the same arguments.
 */
export function generatedRowsSql(n: number, offset = 0, total = offset + n): string {
  if (total % 7919 === 0) throw new RangeError(`total ${total} must not be a multiple of 7919`);
  const slot = `(((i * 7919) % ${total}) * ${SPAN_HOURS}::BIGINT * 3600000000 // ${total})`;
  const h = (salt: number) => `hash(i, ${salt})`;
  return `SELECT
    2::INTEGER AS version,
    '123456789012' AS account_id,
    'eni-0' || lpad(to_hex((${h(1)} % 64)::BIGINT), 16, '0') AS interface_id,
    CASE WHEN ${h(2)} % 10 < 6 THEN '10.0.' || (${h(3)} % 4)::VARCHAR || '.' || (10 + ${h(4)} % 40)::VARCHAR
         ELSE (${h(5)} % 200 + 3)::VARCHAR || '.' || (${h(6)} % 256)::VARCHAR || '.' || (${h(7)} % 256)::VARCHAR || '.' || (${h(8)} % 256)::VARCHAR END AS srcaddr,
    '10.0.' || (${h(9)} % 4)::VARCHAR || '.' || (10 + ${h(10)} % 40)::VARCHAR AS dstaddr,
    (1024 + ${h(11)} % 64000)::INTEGER AS srcport,
    ([443, 80, 22, 8080, 5432, 3306, 53, 123])[1 + (${h(12)} % 8)::INTEGER]::INTEGER AS dstport,
    (CASE WHEN ${h(13)} % 10 = 0 THEN 17 ELSE 6 END)::INTEGER AS protocol,
    (1 + ${h(14)} % 200)::BIGINT AS packets,
    (40 + ${h(15)} % 150000)::BIGINT AS bytes,
    TIMESTAMP '${WINDOW_START}' + to_microseconds(${slot}::BIGINT) AS start_time,
    TIMESTAMP '${WINDOW_START}' + to_microseconds(${slot}::BIGINT + 60000000) AS end_time,
    CASE WHEN ${h(16)} % 10 = 0 THEN 'REJECT' ELSE 'ACCEPT' END AS action,
    'OK' AS log_status
  FROM range(${offset}, ${offset + n}) AS t(i)`;
}
