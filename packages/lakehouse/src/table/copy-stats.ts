// Manifest statistics from DuckDB's own writer: `COPY … (RETURN_STATS true)` returns, per written file, the row
// count, size and per-column compressed size, value count, null count, min and max — so nothing is read back.
// What the writer cannot state exactly is aggregated from the written files in one query: NaN counts and
// NaN-free bounds of float/double columns, bounds of fixed/other kinds, and strings of 256+ bytes (DuckDB
// truncates those bounds; a pinned test guards that rule).
import type { Schema, SchemaField } from '../contract';
import { sqlIdent, sqlString, type DuckDbSession, type SqlRow } from '../duckdb/duckdb-session';
import type { DataFile } from '../manifests/data-file';
import { parseType } from '../metadata/types';
import { coerceValue, encodeBound } from '../metadata/values';

type MetricName =
  'columnSizes' | 'valueCounts' | 'nullValueCounts' | 'nanValueCounts' | 'lowerBounds' | 'upperBounds';

/** Manifest statistics of one written Parquet file: the DataFile fields a writer measures (always measured). */
type FileStats = Pick<DataFile, 'recordCount' | 'fileSizeInBytes'> & {
  [K in MetricName]: NonNullable<DataFile[K]>;
};

/** A written file and its statistics. */
interface StatedFile {
  path: string;
  stats: FileStats;
}

/** A file one COPY wrote, with its statistics and the hive partition keys DuckDB wrote it under. */
export interface CopiedFile extends StatedFile {
  /** Hive partition keys DuckDB wrote the file under; NULL keys are null. */
  partitionKeys: Map<string, string | null>;
}

/** DuckDB's Parquet writer keeps string statistics exact only below this many bytes. */
const EXACT_STRING_BYTES = 256;
/** Kinds whose min/max text DuckDB prints in the form coerceValue parses. */
const WRITER_BOUND_KINDS = new Set([
  'boolean',
  'int',
  'long',
  'date',
  'time',
  'timestamp',
  'timestamptz',
  'decimal',
  'string',
]);
/** Kinds with no bounds at all (as the aggregate path never had: binary/uuid compare differently). */
const UNBOUNDED_KINDS = new Set(['binary', 'uuid']);

/** Entries of a DuckDB MAP value as the node API's JS rows give it (`[{ key, value }, …]`). */
function mapEntries(value: unknown): [string, unknown][] {
  const entries = Array.isArray(value)
    ? (value as { key: unknown; value: unknown }[])
    : ((value as { entries?: { key: unknown; value: unknown }[] } | null)?.entries ?? []);
  return entries.map((e) => [String(e.key), e.value]);
}

/** Column keys come quoted (`"name"`); nested columns are dotted paths, which manifests do not bound here. */
function columnName(key: string): string | null {
  const match = /^"((?:[^"]|"")*)"$/.exec(key);
  return match ? (match[1] as string).replaceAll('""', '"') : null;
}

/** Parses RETURN_STATS rows; bounds the writer cannot give exactly are left for `completeBounds`. */
export function parseCopyStats(rows: SqlRow[], schema: Schema): CopiedFile[] {
  const byName = new Map(schema.fields.map((f) => [f.name, f]));
  return rows.map((row) => {
    const stats: FileStats = {
      recordCount: Number(row['count']),
      fileSizeInBytes: Number(row['file_size_bytes']),
      columnSizes: new Map(),
      valueCounts: new Map(),
      nullValueCounts: new Map(),
      nanValueCounts: new Map(),
      lowerBounds: new Map(),
      upperBounds: new Map(),
    };
    for (const [key, value] of mapEntries(row['column_statistics'])) {
      const name = columnName(key);
      const field = name === null ? undefined : byName.get(name);
      if (!field) continue;
      const s = new Map(mapEntries(value).map(([k, v]) => [k, v === null ? null : String(v)]));
      if (s.get('column_size_bytes') != null)
        stats.columnSizes.set(field.id, Number(s.get('column_size_bytes')));
      if (s.get('num_values') != null) stats.valueCounts.set(field.id, Number(s.get('num_values')));
      if (s.get('null_count') != null) stats.nullValueCounts.set(field.id, Number(s.get('null_count')));
      if (!WRITER_BOUND_KINDS.has(parseType(field.type).kind)) continue;
      const lo = s.get('min');
      const hi = s.get('max');
      if (lo == null || hi == null) continue;
      const lower = boundOf(field, lo);
      const upper = boundOf(field, hi);
      if (
        parseType(field.type).kind === 'string' &&
        (lower.length >= EXACT_STRING_BYTES || upper.length >= EXACT_STRING_BYTES)
      )
        continue;
      stats.lowerBounds.set(field.id, lower);
      stats.upperBounds.set(field.id, upper);
    }
    return {
      path: String(row['filename']),
      stats,
      partitionKeys: new Map(
        mapEntries(row['partition_keys']).map(([k, v]) => [
          k,
          v === null || v === undefined ? null : String(v),
        ]),
      ),
    };
  });
}

function boundOf(field: SchemaField, text: string): Uint8Array {
  const value =
    parseType(field.type).kind === 'boolean' ? (text === '1' || text === 'true' ? 'true' : 'false') : text;
  return encodeBound(field.type, coerceValue(field.type, value)!);
}

/** Whether a column's bounds (or NaN count) must come from reading the data rather than the writer. */
function needsAggregate(field: SchemaField, files: StatedFile[]): boolean {
  const kind = parseType(field.type).kind;
  if (UNBOUNDED_KINDS.has(kind)) return false;
  if (!WRITER_BOUND_KINDS.has(kind)) return true;
  // Strings whose writer bound was dropped for length: only a non-null column has bounds worth computing.
  return (
    kind === 'string' &&
    files.some(
      (f) =>
        !f.stats.lowerBounds.has(field.id) &&
        f.stats.recordCount > (f.stats.nullValueCounts.get(field.id) ?? 0),
    )
  );
}

/** Longest string bound kept in manifests: longer values would bloat them; a missing bound only costs pruning. */
const MAX_BOUND_BYTES = 256;

/** Fills NaN counts and the bounds the writer could not give, with one aggregate over the written files. */
export async function completeBounds(
  session: DuckDbSession,
  schema: Schema,
  files: StatedFile[],
): Promise<void> {
  const live = files.filter((f) => f.stats.recordCount > 0);
  const fields = schema.fields.filter((f) => needsAggregate(f, live));
  if (fields.length === 0 || live.length === 0) return;
  const terms = fields.flatMap((f, i) => {
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
  const byPath = new Map(live.map((f) => [f.path, f.stats]));
  const rows = await session.all(
    `SELECT __ll_file, ${terms.join(', ')} FROM read_parquet([${live.map((f) => sqlString(f.path)).join(', ')}], filename='__ll_file', hive_partitioning=false) GROUP BY __ll_file`,
  );
  for (const row of rows) {
    const stats = byPath.get(String(row['__ll_file']));
    if (!stats) continue;
    fields.forEach((f, i) => {
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
}
