// File-level invariants of one live data or delete file, checked with DuckDB over the Parquet itself: size and
// row count, field ids (and INT64 for longs and timestamps), bounds and null counts, partition values
// recomputed from the rows, and for position deletes: reserved field ids, sort order, targets and sequence rules.
import type { DuckDBConnection } from '@duckdb/node-api';
import { existsSync, statSync } from 'node:fs';
import type { TableMetadata } from '../../src/contract';
import { sqlIdent, sqlString } from '../../src/duckdb/sql-text';
import { toPath } from '../../src/io/file-io';
import type { DataFileRow, ManifestEntryRow } from './avro-reader';
import { decodeSingleValue } from './single-value';
import type { InvariantContext } from './invariants';

const FILE_PATH_ID = 2147483546;
const POS_ID = 2147483545;

async function query(conn: DuckDBConnection, sql: string): Promise<Record<string, unknown>[]> {
  const reader = await conn.runAndReadAll(sql);
  return reader.getRowObjectsJS() as Record<string, unknown>[];
}

// Quoting is not what this oracle checks: it uses the engine's.
const q = sqlString;
const ident = sqlIdent;

/** The name a field id has (or had) in any schema version. */
function namesById(metadata: TableMetadata): Map<number, { names: Set<string>; type: string }> {
  const out = new Map<number, { names: Set<string>; type: string }>();
  for (const schema of metadata.schemas) {
    for (const f of schema.fields) {
      const e = out.get(f.id) ?? { names: new Set<string>(), type: f.type };
      e.names.add(f.name);
      out.set(f.id, e);
    }
  }
  return out;
}

export async function checkFile(
  ctx: InvariantContext,
  metadata: TableMetadata,
  entry: ManifestEntryRow,
  liveData: Map<string, ManifestEntryRow>,
): Promise<string[]> {
  const f = entry.dataFile;
  const path = toPath(f.filePath);
  if (!existsSync(path)) return [`file missing on disk: ${f.filePath}`];
  const out: string[] = [];
  if (statSync(path).size !== f.fileSizeInBytes)
    out.push(`${f.filePath}: file_size_in_bytes ${f.fileSizeInBytes} != size on disk ${statSync(path).size}`);
  const conn = ctx.connection;
  const columns = await query(
    conn,
    `SELECT name, field_id, type, logical_type, num_children FROM parquet_schema(${q(path)}) WHERE num_children IS NULL OR num_children = 0`,
  );
  const [{ n }] = (await query(
    conn,
    `SELECT count(*)::BIGINT AS n FROM read_parquet(${q(path)}, hive_partitioning=false)`,
  )) as [{ n: bigint }];
  if (Number(n) !== f.recordCount)
    out.push(`${f.filePath}: record_count ${f.recordCount} != ${n} rows in the file`);
  if (f.content === 1) {
    const byId = new Map(columns.map((c) => [Number(c.field_id), c]));
    if (String(byId.get(FILE_PATH_ID)?.name) !== 'file_path')
      out.push(`${f.filePath}: delete file lacks file_path with field id ${FILE_PATH_ID}`);
    if (String(byId.get(POS_ID)?.name) !== 'pos' || String(byId.get(POS_ID)?.type) !== 'INT64')
      out.push(`${f.filePath}: delete file pos is not INT64 with field id ${POS_ID}`);
    const targets = await query(
      conn,
      `SELECT file_path, count(*)::BIGINT AS n, max(pos)::BIGINT AS max_pos, bool_and(ok)::BOOLEAN AS sorted FROM (
         SELECT file_path, pos, coalesce((file_path, pos) >= lag((file_path, pos)) OVER (), true) AS ok FROM read_parquet(${q(path)})
       ) GROUP BY file_path`,
    );
    for (const t of targets) {
      const target = liveData.get(String(t.file_path));
      if (!target)
        out.push(`${f.filePath}: deletes rows of ${String(t.file_path)}, which is not a live data file`);
      else {
        if (Number(t.max_pos) >= target.dataFile.recordCount)
          out.push(
            `${f.filePath}: pos ${t.max_pos} beyond ${target.dataFile.recordCount} rows of its data file`,
          );
        if (target.sequenceNumber > entry.sequenceNumber)
          out.push(
            `${f.filePath}: delete sequence ${entry.sequenceNumber} is older than its data file's ${target.sequenceNumber} (would not apply)`,
          );
        if (target.manifest.partitionSpecId !== entry.manifest.partitionSpecId)
          out.push(`${f.filePath}: delete file spec differs from its data file's`);
      }
      if (t.sorted === false) out.push(`${f.filePath}: not sorted by (file_path, pos)`);
    }
    return out;
  }
  const known = namesById(metadata);
  const idToColumn = new Map<number, string>();
  for (const c of columns) {
    if (c.field_id === null || c.field_id === undefined) {
      out.push(`${f.filePath}: Parquet column ${String(c.name)} has no field id`);
      continue;
    }
    const id = Number(c.field_id);
    const k = known.get(id);
    if (!k)
      out.push(`${f.filePath}: Parquet column ${String(c.name)} has field id ${id}, unknown to every schema`);
    else if (!k.names.has(String(c.name)))
      out.push(
        `${f.filePath}: Parquet column ${String(c.name)} has field id ${id}, which belongs to ${[...k.names].join('/')}`,
      );
    idToColumn.set(id, String(c.name));
    if (k && ['long', 'timestamp', 'timestamptz', 'time'].includes(k.type) && String(c.type) !== 'INT64')
      out.push(`${f.filePath}: ${String(c.name)} (${k.type}) is stored as ${String(c.type)}, not INT64`);
  }
  out.push(...(await checkBounds(conn, path, f, idToColumn, known)));
  out.push(...(await checkPartition(conn, path, metadata, entry, idToColumn)));
  return out;
}

/** SQL giving a column's value in the same form the decoded bound has. */
function comparable(type: string, col: string): string {
  if (type === 'timestamp' || type === 'timestamptz') return `epoch_us(${col})`;
  if (type === 'date') return `date_diff('day', DATE '1970-01-01', ${col})`;
  if (type === 'time') return `(epoch_us(TIMESTAMP '1970-01-01' + ${col}))`;
  return col;
}

async function checkBounds(
  conn: DuckDBConnection,
  path: string,
  f: DataFileRow,
  idToColumn: Map<number, string>,
  known: Map<number, { names: Set<string>; type: string }>,
): Promise<string[]> {
  const out: string[] = [];
  const ids = [...idToColumn.keys()].filter((id) => known.has(id));
  if (ids.length === 0) return out;
  const selects = ids.flatMap((id) => {
    const type = known.get(id)?.type ?? 'string';
    const col = comparable(type, ident(idToColumn.get(id) as string));
    return [
      `min(${col}) AS "min_${id}"`,
      `max(${col}) AS "max_${id}"`,
      `(count(*) - count(${ident(idToColumn.get(id) as string)}))::BIGINT AS "nulls_${id}"`,
    ];
  });
  const [stats] = await query(
    conn,
    `SELECT ${selects.join(', ')} FROM read_parquet(${q(path)}, hive_partitioning=false)`,
  );
  if (!stats) return out;
  for (const id of ids) {
    const type = known.get(id)?.type as string;
    const name = idToColumn.get(id);
    const nulls = f.nullValueCounts?.get(id);
    if (nulls !== undefined && nulls !== Number(stats[`nulls_${id}`]))
      out.push(`${f.filePath}: null_value_counts[${id}] = ${nulls}, file has ${stats[`nulls_${id}`]}`);
    const values = f.valueCounts?.get(id);
    if (values !== undefined && values !== f.recordCount)
      out.push(`${f.filePath}: value_counts[${id}] = ${values}, expected ${f.recordCount}`);
    if (type.startsWith('decimal') || type === 'binary' || type === 'uuid' || type === 'boolean') continue;
    const min = stats[`min_${id}`];
    const max = stats[`max_${id}`];
    const lower = f.lowerBounds?.get(id);
    const upper = f.upperBounds?.get(id);
    if (min === null || min === undefined) {
      if (lower !== undefined) out.push(`${f.filePath}: ${name} is all null but has a lower bound`);
      continue;
    }
    if (lower === undefined || upper === undefined) {
      out.push(`${f.filePath}: no bounds for ${name} (field ${id})`);
      continue;
    }
    const lo = decodeSingleValue(type, lower);
    const hi = decodeSingleValue(type, upper);
    if (type === 'string') {
      // Bounds may be truncated: lower ≤ min and upper ≥ max is what pruning needs.
      if (String(lo) > String(min) || String(hi) < String(max))
        out.push(
          `${f.filePath}: ${name} bounds [${String(lo)}, ${String(hi)}] do not cover [${String(min)}, ${String(max)}]`,
        );
    } else if (String(lo) !== String(min) || String(hi) !== String(max)) {
      out.push(
        `${f.filePath}: ${name} bounds [${String(lo)}, ${String(hi)}] != file min/max [${String(min)}, ${String(max)}]`,
      );
    }
  }
  return out;
}

function transformSql(transform: string, type: string, col: string): string | null {
  const ts =
    type === 'timestamptz'
      ? `CAST(${col} AS TIMESTAMP)`
      : type === 'date'
        ? `CAST(${col} AS TIMESTAMP)`
        : col;
  switch (transform) {
    case 'identity':
      return comparable(type, col);
    case 'hour':
      return `date_diff('hour', TIMESTAMP '1970-01-01', ${ts})`;
    case 'day':
      return `date_diff('day', TIMESTAMP '1970-01-01', ${ts})`;
    case 'month':
      return `date_diff('month', TIMESTAMP '1970-01-01', ${ts})`;
    case 'year':
      return `date_diff('year', TIMESTAMP '1970-01-01', ${ts})`;
    default: {
      const w = /^truncate\[(\d+)\]$/.exec(transform)?.[1];
      if (w && (type === 'int' || type === 'long')) return `(${col} - (((${col} % ${w}) + ${w}) % ${w}))`;
      if (w && type === 'string') return `left(${col}, ${w})`;
      return null; // bucket: needs Iceberg's murmur3; covered by the engine's own transform tests
    }
  }
}

async function checkPartition(
  conn: DuckDBConnection,
  path: string,
  metadata: TableMetadata,
  entry: ManifestEntryRow,
  idToColumn: Map<number, string>,
): Promise<string[]> {
  const out: string[] = [];
  const spec = metadata['partition-specs'].find((s) => s['spec-id'] === entry.manifest.partitionSpecId);
  if (!spec)
    return [
      `${entry.dataFile.filePath}: manifest names unknown partition spec ${entry.manifest.partitionSpecId}`,
    ];
  const types = namesById(metadata);
  for (const field of spec.fields) {
    const col = idToColumn.get(field['source-id']);
    const type = types.get(field['source-id'])?.type;
    if (!col || !type) continue;
    const sql = transformSql(field.transform, type, ident(col));
    if (!sql) continue;
    const rows = await query(
      conn,
      `SELECT DISTINCT CAST(${sql} AS VARCHAR) AS v FROM read_parquet(${q(path)}, hive_partitioning=false)`,
    );
    const declared = entry.dataFile.partition[field.name];
    const declaredText = declared === null || declared === undefined ? null : String(declared);
    const actual = rows.map((r) => (r.v === null ? null : String(r.v)));
    if (actual.length !== 1 || actual[0] !== declaredText) {
      out.push(
        `${entry.dataFile.filePath}: partition ${field.name}=${declaredText} but rows give ${JSON.stringify(actual.slice(0, 5))}`,
      );
    }
  }
  return out;
}
