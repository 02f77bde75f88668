// Invariants of a table state that icebird does not check (it ignores field ids, bounds, partitions and
// sequence numbers): checked against the files on disk with our own Avro reading and DuckDB over the Parquet.
import type { DuckDBConnection } from '@duckdb/node-api';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Snapshot, TableMetadata } from '../contract';
import {
  localPath,
  readSnapshotEntries,
  type DataFileRow,
  type ManifestEntryRow,
} from '../metadata-tables/avro-reader';
import { decodeSingleValue } from '../metadata-tables/iceberg-values';

const FILE_PATH_ID = 2147483546;
const POS_ID = 2147483545;

export interface InvariantContext {
  connection: DuckDBConnection;
  /** Files already checked in an earlier state (file checks are per file, not per snapshot). */
  checkedFiles?: Set<string>;
}

async function query(conn: DuckDBConnection, sql: string): Promise<Record<string, unknown>[]> {
  const reader = await conn.runAndReadAll(sql);
  return reader.getRowObjectsJS() as Record<string, unknown>[];
}

const q = (s: string): string => `'${s.replace(/'/g, "''")}'`;
const ident = (s: string): string => `"${s.replace(/"/g, '""')}"`;

function summaryNumber(snapshot: Snapshot, key: string): number | undefined {
  const v = snapshot.summary[key];
  return v === undefined ? undefined : Number(v);
}

/** Metadata-document invariants (no file is read). */
export function checkMetadataDocument(metadata: TableMetadata): string[] {
  const out: string[] = [];
  const current = metadata['current-snapshot-id'] ?? null;
  const mainRef = metadata.refs.main?.['snapshot-id'] ?? null;
  if (current !== null && current !== -1 && mainRef !== current)
    out.push(`refs.main (${mainRef}) != current-snapshot-id (${current})`);
  const ids = new Set<number>();
  for (const s of metadata.snapshots) {
    const id = s['snapshot-id'];
    if (ids.has(id)) out.push(`duplicate snapshot id ${id}`);
    ids.add(id);
    if (!Number.isSafeInteger(id) || id <= 0) out.push(`snapshot id ${id} is not a positive safe integer`);
    if (s['sequence-number'] > metadata['last-sequence-number'])
      out.push(`snapshot ${id} sequence ${s['sequence-number']} > last-sequence-number`);
    const parent = s['parent-snapshot-id'];
    const parentSnap = metadata.snapshots.find((p) => p['snapshot-id'] === parent);
    if (parentSnap && parentSnap['sequence-number'] >= s['sequence-number'])
      out.push(`snapshot ${id} sequence number not above its parent's`);
    for (const [k, v] of Object.entries(s.summary))
      if (typeof v !== 'string') out.push(`snapshot ${id} summary ${k} is not a string`);
    if (!['append', 'overwrite', 'delete', 'replace'].includes(s.summary.operation))
      out.push(`snapshot ${id} has operation ${s.summary.operation}`);
  }
  const log = metadata['snapshot-log'];
  if (current !== null && log.length > 0 && log[log.length - 1]?.['snapshot-id'] !== current)
    out.push('last snapshot-log entry is not the current snapshot');
  for (const schema of metadata.schemas) {
    const fieldIds = schema.fields.map((f) => f.id);
    if (new Set(fieldIds).size !== fieldIds.length)
      out.push(`schema ${schema['schema-id']} reuses a field id`);
    if (fieldIds.some((id) => id > metadata['last-column-id']))
      out.push(`schema ${schema['schema-id']} has an id above last-column-id`);
  }
  for (const spec of metadata['partition-specs']) {
    for (const f of spec.fields) {
      if (f['field-id'] < 1000 || f['field-id'] > metadata['last-partition-id'])
        out.push(`partition field ${f.name} has id ${f['field-id']}`);
    }
  }
  return out;
}

/** Version-hint and metadata-log point at files that exist. */
export function checkMetadataFiles(metadata: TableMetadata): string[] {
  const out: string[] = [];
  const dir = join(localPath(metadata.location), 'metadata');
  const hintPath = join(dir, 'version-hint.text');
  if (!existsSync(hintPath)) out.push('metadata/version-hint.text is missing');
  else {
    const hint = Number(readFileSync(hintPath, 'utf8').trim());
    if (!existsSync(join(dir, `v${hint}.metadata.json`)))
      out.push(`version-hint ${hint} names a missing metadata file`);
  }
  for (const entry of metadata['metadata-log'])
    if (!existsSync(localPath(entry['metadata-file'])))
      out.push(`metadata-log file missing: ${entry['metadata-file']}`);
  return out;
}

/** Sequence numbers, summaries, and (once per file) Parquet-level facts of one snapshot. */
export async function checkSnapshot(
  ctx: InvariantContext,
  metadata: TableMetadata,
  snapshot: Snapshot,
): Promise<string[]> {
  const out: string[] = [];
  const sid = snapshot['snapshot-id'];
  const seq = snapshot['sequence-number'];
  const { manifests, entries } = await readSnapshotEntries(snapshot['manifest-list']);
  for (const m of manifests) {
    if (m.sequenceNumber > seq)
      out.push(`snapshot ${sid}: manifest ${m.manifestPath} has sequence ${m.sequenceNumber} > ${seq}`);
    if (m.addedSnapshotId === sid && m.sequenceNumber !== seq)
      out.push(`snapshot ${sid}: its own manifest has sequence ${m.sequenceNumber}, expected ${seq}`);
    if (!existsSync(localPath(m.manifestPath)))
      out.push(`snapshot ${sid}: manifest missing on disk ${m.manifestPath}`);
    else if (statSync(localPath(m.manifestPath)).size !== m.manifestLength)
      out.push(`snapshot ${sid}: manifest_length of ${m.manifestPath} differs from its size`);
  }
  for (const e of entries) {
    if (e.status !== 1 && (e.raw.sequenceNumber === null || e.raw.fileSequenceNumber === null)) {
      out.push(
        `snapshot ${sid}: ${statusName(e.status)} entry for ${e.dataFile.filePath} lacks explicit sequence numbers`,
      );
    }
    if (e.status === 1 && e.snapshotId !== e.manifest.addedSnapshotId)
      out.push(`snapshot ${sid}: ADDED entry snapshot id differs from its manifest's`);
    if (e.sequenceNumber > seq)
      out.push(
        `snapshot ${sid}: entry ${e.dataFile.filePath} has data sequence ${e.sequenceNumber} > ${seq}`,
      );
    if ((e.dataFile.content === 0) !== (e.manifest.content === 0))
      out.push(`snapshot ${sid}: ${e.dataFile.filePath} is in a manifest of the wrong content`);
  }
  const live = entries.filter((e) => e.status !== 2);
  const data = live.filter((e) => e.dataFile.content === 0);
  const deletes = live.filter((e) => e.dataFile.content === 1);
  const expect = (key: string, actual: number): void => {
    const declared = summaryNumber(snapshot, key);
    if (declared !== undefined && declared !== actual)
      out.push(`snapshot ${sid}: summary ${key}=${declared}, files say ${actual}`);
    if (declared === undefined && ['total-records', 'total-data-files'].includes(key))
      out.push(`snapshot ${sid}: summary lacks ${key}`);
  };
  expect('total-records', sum(data.map((e) => e.dataFile.recordCount)));
  expect('total-data-files', data.length);
  expect('total-delete-files', deletes.length);
  expect('total-position-deletes', sum(deletes.map((e) => e.dataFile.recordCount)));
  expect('total-files-size', sum(live.map((e) => e.dataFile.fileSizeInBytes)));
  const own = entries.filter((e) => e.snapshotId === sid);
  expect('added-data-files', own.filter((e) => e.status === 1 && e.dataFile.content === 0).length);
  expect('deleted-data-files', own.filter((e) => e.status === 2 && e.dataFile.content === 0).length);
  expect('added-delete-files', own.filter((e) => e.status === 1 && e.dataFile.content !== 0).length);
  expect(
    'added-records',
    sum(own.filter((e) => e.status === 1 && e.dataFile.content === 0).map((e) => e.dataFile.recordCount)),
  );
  expect(
    'deleted-records',
    sum(own.filter((e) => e.status === 2 && e.dataFile.content === 0).map((e) => e.dataFile.recordCount)),
  );
  const parent = metadata.snapshots.find((s) => s['snapshot-id'] === snapshot['parent-snapshot-id']);
  if (parent) {
    const delta =
      (summaryNumber(snapshot, 'added-records') ?? 0) - (summaryNumber(snapshot, 'deleted-records') ?? 0);
    const totals =
      (summaryNumber(snapshot, 'total-records') ?? 0) - (summaryNumber(parent, 'total-records') ?? 0);
    if (delta !== totals)
      out.push(
        `snapshot ${sid}: added-records − deleted-records = ${delta} but total-records moved by ${totals}`,
      );
  }
  if (snapshot.summary.operation === 'append' && own.some((e) => e.status === 2 || e.dataFile.content !== 0))
    out.push(`snapshot ${sid}: an append removed files or added deletes`);
  if (snapshot.summary.operation === 'delete' && own.some((e) => e.status === 1 && e.dataFile.content === 0))
    out.push(`snapshot ${sid}: a delete added data files`);

  const dataSeq = new Map(data.map((e) => [e.dataFile.filePath, e]));
  for (const e of live) {
    if (ctx.checkedFiles?.has(e.dataFile.filePath)) continue;
    out.push(...(await checkFile(ctx, metadata, e, dataSeq)).map((v) => `snapshot ${sid}: ${v}`));
    ctx.checkedFiles?.add(e.dataFile.filePath);
  }
  return out;
}

function statusName(status: number): string {
  return ['EXISTING', 'ADDED', 'DELETED'][status] ?? String(status);
}

function sum(values: number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

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

async function checkFile(
  ctx: InvariantContext,
  metadata: TableMetadata,
  entry: ManifestEntryRow,
  liveData: Map<string, ManifestEntryRow>,
): Promise<string[]> {
  const f = entry.dataFile;
  const path = localPath(f.filePath);
  if (!existsSync(path)) return [`file missing on disk: ${f.filePath}`];
  const out: string[] = [];
  if (statSync(path).size !== f.fileSizeInBytes)
    out.push(`${f.filePath}: file_size_in_bytes ${f.fileSizeInBytes} != size on disk ${statSync(path).size}`);
  const conn = ctx.connection;
  const columns = await query(
    conn,
    `SELECT name, field_id, type, logical_type, num_children FROM parquet_schema(${q(path)}) WHERE num_children IS NULL OR num_children = 0`,
  );
  const [{ n }] = (await query(conn, `SELECT count(*)::BIGINT AS n FROM read_parquet(${q(path)})`)) as [
    { n: bigint },
  ];
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
  const [stats] = await query(conn, `SELECT ${selects.join(', ')} FROM read_parquet(${q(path)})`);
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
      `SELECT DISTINCT CAST(${sql} AS VARCHAR) AS v FROM read_parquet(${q(path)})`,
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

/** Every invariant of every snapshot still in the metadata. */
export async function checkTableInvariants(
  ctx: InvariantContext,
  metadata: TableMetadata,
): Promise<string[]> {
  const out = [...checkMetadataDocument(metadata), ...checkMetadataFiles(metadata)];
  const checked = ctx.checkedFiles ?? new Set<string>();
  for (const snapshot of metadata.snapshots)
    out.push(...(await checkSnapshot({ ...ctx, checkedFiles: checked }, metadata, snapshot)));
  return out;
}
