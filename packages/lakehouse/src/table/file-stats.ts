// Manifest statistics of written Parquet files: exact size, record count, per-column compressed sizes,
// value / null / NaN counts (from the Parquet footer) and lower / upper bounds (computed by DuckDB).
import { promises as fs } from 'node:fs';
import type { Schema } from '../contract';
import { sqlIdent, sqlString, type DuckDbSession } from '../duckdb/duckdb-session';
import { parseType } from '../metadata/types';
import { coerceValue, encodeBound } from '../metadata/values';

export interface FileStats {
  recordCount: number;
  fileSizeInBytes: number;
  columnSizes: Map<number, number>;
  valueCounts: Map<number, number>;
  nullValueCounts: Map<number, number>;
  nanValueCounts: Map<number, number>;
  lowerBounds: Map<number, Uint8Array>;
  upperBounds: Map<number, Uint8Array>;
}

/** Longest string bound kept: longer values would bloat manifests, and a missing bound only costs pruning. */
const MAX_BOUND_BYTES = 256;

export async function collectFileStats(
  session: DuckDbSession,
  schema: Schema,
  paths: string[],
): Promise<Map<string, FileStats>> {
  const result = new Map<string, FileStats>();
  if (paths.length === 0) return result;
  const list = `[${paths.map(sqlString).join(', ')}]`;
  for (const path of paths) {
    result.set(path, {
      recordCount: 0,
      fileSizeInBytes: (await fs.stat(path)).size,
      columnSizes: new Map(),
      valueCounts: new Map(),
      nullValueCounts: new Map(),
      nanValueCounts: new Map(),
      lowerBounds: new Map(),
      upperBounds: new Map(),
    });
  }
  const idByName = new Map(schema.fields.map((f) => [f.name, f.id]));
  for (const row of await session.all(`SELECT file_name, num_rows FROM parquet_file_metadata(${list})`)) {
    const stats = result.get(String(row['file_name']));
    if (stats) stats.recordCount = Number(row['num_rows']);
  }
  const chunks = await session.all(
    `SELECT file_name, path_in_schema, sum(total_compressed_size) AS size, sum(num_values) AS n, sum(stats_null_count) AS nulls ` +
      `FROM parquet_metadata(${list}) GROUP BY ALL`,
  );
  for (const row of chunks) {
    const stats = result.get(String(row['file_name']));
    const id = idByName.get(String(row['path_in_schema']));
    if (!stats || id === undefined) continue;
    stats.columnSizes.set(id, Number(row['size']));
    stats.valueCounts.set(id, Number(row['n']));
    if (row['nulls'] !== null) stats.nullValueCounts.set(id, Number(row['nulls']));
  }

  const bounded = schema.fields.filter((f) => !['binary', 'uuid'].includes(parseType(f.type).kind));
  if (bounded.length === 0) return result;
  const terms = bounded.flatMap((f, i) => {
    const c = sqlIdent(f.name);
    const kind = parseType(f.type).kind;
    if (kind === 'float' || kind === 'double') {
      return [
        `CAST(min(${c}) FILTER (WHERE NOT isnan(${c})) AS VARCHAR) AS lo${i}`,
        `CAST(max(${c}) FILTER (WHERE NOT isnan(${c})) AS VARCHAR) AS hi${i}`,
        `count(*) FILTER (WHERE isnan(${c})) AS nan${i}`,
      ];
    }
    return [`CAST(min(${c}) AS VARCHAR) AS lo${i}`, `CAST(max(${c}) AS VARCHAR) AS hi${i}`];
  });
  // One aggregate for every column's bounds of every file.
  const rows = await session.all(
    `SELECT __ll_file, ${terms.join(', ')} FROM read_parquet([${paths.map(sqlString).join(', ')}], filename='__ll_file', hive_partitioning=false) GROUP BY __ll_file`,
  );
  for (const row of rows) {
    const stats = result.get(String(row['__ll_file']));
    if (!stats) continue;
    bounded.forEach((f, i) => {
      const lo = row[`lo${i}`];
      const hi = row[`hi${i}`];
      if (row[`nan${i}`] !== undefined) stats.nanValueCounts.set(f.id, Number(row[`nan${i}`]));
      if (lo === null || hi === null || lo === undefined || hi === undefined) return;
      const lower = encodeBound(f.type, coerceValue(f.type, String(lo))!);
      const upper = encodeBound(f.type, coerceValue(f.type, String(hi))!);
      if (lower.length > MAX_BOUND_BYTES || upper.length > MAX_BOUND_BYTES) return;
      stats.lowerBounds.set(f.id, lower);
      stats.upperBounds.set(f.id, upper);
    });
  }
  return result;
}
