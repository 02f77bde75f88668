// Writes rows from a DuckDB query as Iceberg data files: casts to the schema, computes partition values
// with the spec's transforms, writes one set of ZSTD Parquet files per partition (split near the target
// file size, in the declared sort order, with field ids), and collects the manifest statistics.
import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import type { Schema, SchemaField, TableMetadata } from '../contract';
import { sqlIdent, sqlString, type DuckDbSession } from '../duckdb/duckdb-session';
import { InvalidPropertyError, QueryFailedError, SchemaMismatchError } from '../errors';
import { toUri } from '../io/file-io';
import type { TableLayout } from '../io/table-layout';
import { CONTENT_DATA, type DataFile } from '../manifests/data-file';
import { specPartitionTypes } from '../manifests/live-files';
import { currentSchema, defaultSortOrder, defaultSpec } from '../metadata/table-metadata';
import {
  applyTransform,
  parseTransform,
  partitionPathValue,
  transformTextSql,
  transformValueSql,
} from '../metadata/transforms';
import { duckdbType, parseType } from '../metadata/types';
import { coerceValue, literalToText, type Literal } from '../metadata/values';
import { collectFileStats, type RowsByFile } from './file-stats';

export interface WriteDataInput {
  session: DuckDbSession;
  layout: TableLayout;
  meta: TableMetadata;
  /** A DuckDB query whose columns are (a subset of) the table's columns, by name. */
  sourceSql: string;
  table: string;
}

const DEFAULT_TARGET_FILE_SIZE = 512 * 1024 * 1024;

/** Maps source columns to fields, refusing unknown columns and missing required ones. */
async function sourceProjection(input: WriteDataInput, schema: Schema): Promise<string> {
  let columns: { name: string; type: string }[];
  try {
    columns = await input.session.describe(`SELECT * FROM (${input.sourceSql}) AS src`);
  } catch (error) {
    throw new SchemaMismatchError(
      `Cannot read the rows to write into ${input.table}: ${(error as Error).message}`,
      {
        cause: error,
        value: input.sourceSql,
      },
    );
  }
  const byName = new Map(columns.map((c) => [c.name.toLowerCase(), c.name]));
  for (const column of columns) {
    if (!schema.fields.some((f) => f.name.toLowerCase() === column.name.toLowerCase())) {
      throw new SchemaMismatchError(
        `Column '${column.name}' is not in ${input.table} (columns: ${schema.fields.map((f) => f.name).join(', ')}). ` +
          `Remove it or ADD COLUMNS first.`,
        { value: column.name },
      );
    }
  }
  return schema.fields
    .map((f) => {
      const source = byName.get(f.name.toLowerCase());
      if (source === undefined && f.required) {
        throw new SchemaMismatchError(
          `Required column '${f.name}' is missing from the rows written into ${input.table}.`,
          {
            value: f.name,
          },
        );
      }
      const value = source === undefined ? 'NULL' : `src.${sqlIdent(source)}`;
      return `CAST(${value} AS ${duckdbType(f.type)}) AS ${sqlIdent(f.name)}`;
    })
    .join(', ');
}

const CODECS: Record<string, string> = {
  zstd: 'zstd',
  snappy: 'snappy',
  gzip: 'gzip',
  lz4: 'lz4_raw',
  brotli: 'brotli',
  uncompressed: 'uncompressed',
  none: 'uncompressed',
};

/**
 * Iceberg's Parquet writer properties as DuckDB COPY options: compression-codec / -level, and page-version.
 * Without properties this writes what Iceberg's own writers do: ZSTD at its default level 3 (parquet-java's
 * and DuckDB's default alike) and data page V1, the default of iceberg-java (hence Spark, Athena and the AWS
 * services built on it), pyiceberg and iceberg-rust. `write.parquet.page-version` = 2 (apache/iceberg#15677)
 * opts a table into V2 pages and their delta encodings, which readers of v2 tables (icebird too) handle.
 */
export function parquetWriterOptions(properties: Record<string, string>, table: string): string[] {
  return [
    ...parquetCompression(properties, table),
    ...(pageVersion(properties, table) === 2 ? ['PARQUET_VERSION V2'] : []),
  ];
}

function pageVersion(properties: Record<string, string>, table: string): 1 | 2 {
  const version = properties['write.parquet.page-version'] ?? '1';
  if (version !== '1' && version !== '2') {
    throw new InvalidPropertyError(
      `write.parquet.page-version '${version}' of ${table} is not supported; use 1 (the default) or 2.`,
      { value: version },
    );
  }
  return version === '2' ? 2 : 1;
}

/**
 * Iceberg's write.parquet.compression-codec / -level properties as DuckDB COPY options. Table creation and
 * property changes call this to refuse what the writer could not honour, so it checks page-version too.
 */
export function parquetCompression(properties: Record<string, string>, table: string): string[] {
  pageVersion(properties, table);
  const codec = (properties['write.parquet.compression-codec'] ?? 'zstd').toLowerCase();
  const duck = CODECS[codec];
  if (!duck) {
    throw new InvalidPropertyError(
      `write.parquet.compression-codec '${codec}' of ${table} is not supported; use one of ${Object.keys(CODECS).join(', ')}.`,
      { value: codec },
    );
  }
  const level = properties['write.parquet.compression-level'];
  if (level === undefined || duck !== 'zstd') return [`COMPRESSION ${duck}`];
  if (!/^-?\d+$/.test(level) || Number(level) < 1 || Number(level) > 22) {
    throw new InvalidPropertyError(
      `write.parquet.compression-level '${level}' of ${table} must be an integer from 1 to 22.`,
      {
        value: level,
      },
    );
  }
  return [`COMPRESSION ${duck}`, `COMPRESSION_LEVEL ${Number(level)}`];
}

/** Directory names are informational only (values live in manifests): keep them to portable characters. */
function safeSegment(value: string): string {
  return value.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 100);
}

function textOf(field: SchemaField): string {
  return parseType(field.type).kind === 'binary'
    ? `to_base64(${sqlIdent(field.name)})`
    : `CAST(${sqlIdent(field.name)} AS VARCHAR)`;
}

function sortTerms(meta: TableMetadata, schema: Schema): string[] {
  const order = defaultSortOrder(meta);
  const terms = order.fields.flatMap((sf) => {
    const field = schema.fields.find((f) => f.id === sf['source-id']);
    if (!field) return [];
    const t = parseTransform(sf.transform);
    const expr = transformValueSql(t, field.type, sqlIdent(field.name));
    if (expr === null) return [];
    const direction = sf.direction === 'desc' ? 'DESC' : 'ASC';
    return [`${expr} ${direction} ${sf['null-order'] === 'nulls-first' ? 'NULLS FIRST' : 'NULLS LAST'}`];
  });
  return terms;
}

/** Partition fields whose transform has no DuckDB form (bucket, decimal/binary truncate): filled in JS. */
function hasJsPartitions(meta: TableMetadata, schema: Schema): boolean {
  return defaultSpec(meta).fields.some((pf) => {
    const field = schema.fields.find((f) => f.id === pf['source-id']);
    return field !== undefined && transformTextSql(parseTransform(pf.transform), field.type, 'x') === null;
  });
}

export async function writeDataFiles(input: WriteDataInput): Promise<DataFile[]> {
  const { session, meta } = input;
  const schema = currentSchema(meta);
  const spec = defaultSpec(meta);
  const partitionTypes = specPartitionTypes(meta, spec);
  const stage = `__ll_stage_${randomUUID().replaceAll('-', '')}`;
  const projection = await sourceProjection(input, schema);

  const partitionExprs = spec.fields.map((pf, i) => {
    const field = schema.fields.find((f) => f.id === pf['source-id']);
    const expr = field
      ? transformTextSql(parseTransform(pf.transform), field.type, sqlIdent(field.name))
      : null;
    return `${expr ?? 'CAST(NULL AS VARCHAR)'} AS __p${i}`;
  });
  // Sort once while staging (partition, then the declared order) so each partition's COPY is a plain
  // ordered scan of its own row range: one sort of the batch instead of one per partition. Transforms
  // computed in JS fill their partition column after staging, so those tables sort per partition instead.
  const presorted = !hasJsPartitions(meta, schema) && (await insertionOrderKept(session));
  const stageOrder = presorted
    ? [...partitionExprs.map((_, i) => `__p${i} ASC NULLS FIRST`), ...sortTerms(meta, schema)]
    : [];
  try {
    await session.run(
      `CREATE TEMP TABLE ${stage} AS SELECT *${partitionExprs.map((e) => `, ${e}`).join('')} FROM (SELECT ${projection} FROM (${input.sourceSql}) AS src) AS casted` +
        (stageOrder.length > 0 ? ` ORDER BY ${stageOrder.join(', ')}` : ''),
    );
  } catch (error) {
    const reason =
      error instanceof QueryFailedError
        ? String((error.cause as Error)?.message ?? error.message)
        : String(error);
    throw new SchemaMismatchError(`Rows do not fit the schema of ${input.table}: ${reason}`, {
      cause: error,
      value: input.sourceSql,
    });
  }
  try {
    const required = schema.fields.filter((f) => f.required);
    if (required.length > 0) {
      // One pass for all required columns.
      const [row] = await session.all(
        `SELECT ${required.map((f, i) => `count(*) FILTER (WHERE ${sqlIdent(f.name)} IS NULL) AS n${i}`).join(', ')} FROM ${stage}`,
      );
      const field = required.find((_, i) => Number(row?.[`n${i}`] ?? 0) > 0);
      if (field) {
        throw new SchemaMismatchError(
          `Required column '${field.name}' of ${input.table} would get NULL values.`,
          { value: field.name },
        );
      }
    }
    await fillJsPartitions(session, stage, meta, schema);
    return await writePartitions(input, stage, schema, partitionTypes, presorted);
  } finally {
    await session.run(`DROP TABLE IF EXISTS ${stage}`);
  }
}

/** Whether a scan without ORDER BY returns a table's rows in insertion order (DuckDB's default). */
async function insertionOrderKept(session: DuckDbSession): Promise<boolean> {
  const [row] = await session.all(`SELECT current_setting('preserve_insertion_order') AS kept`);
  return row?.['kept'] === true;
}

/** Bucket and decimal/binary truncate have no DuckDB form: compute them in JS per distinct source value. */
async function fillJsPartitions(
  session: DuckDbSession,
  stage: string,
  meta: TableMetadata,
  schema: Schema,
): Promise<void> {
  const spec = defaultSpec(meta);
  for (const [i, pf] of spec.fields.entries()) {
    const field = schema.fields.find((f) => f.id === pf['source-id']);
    const t = parseTransform(pf.transform);
    if (!field || transformTextSql(t, field.type, 'x') !== null) continue;
    const resultType = specPartitionTypes(meta, spec)[i] ?? 'int';
    const rows = await session.all(
      `SELECT DISTINCT ${textOf(field)} AS v FROM ${stage} WHERE ${sqlIdent(field.name)} IS NOT NULL`,
    );
    if (rows.length === 0) continue;
    const pairs = rows.map((row) => {
      const text = String(row['v']);
      const value = applyTransform(t, field.type, coerceValue(field.type, text));
      return `(${sqlString(text)}, ${value === null ? 'NULL' : sqlString(literalToText(resultType, value))})`;
    });
    await session.run(
      `UPDATE ${stage} SET __p${i} = m.p FROM (VALUES ${pairs.join(', ')}) AS m(v, p) WHERE ${textOf(
        field,
      ).replaceAll(sqlIdent(field.name), `${stage}.${sqlIdent(field.name)}`)} = m.v`,
    );
  }
}

async function writePartitions(
  input: WriteDataInput,
  stage: string,
  schema: Schema,
  partitionTypes: string[],
  presorted: boolean,
): Promise<DataFile[]> {
  const { session, meta, layout } = input;
  const spec = defaultSpec(meta);
  const pcols = spec.fields.map((_, i) => `__p${i}`);
  const groups = await session.all(
    pcols.length > 0
      ? `SELECT ${pcols.join(', ')}, count(*) AS __n FROM ${stage} GROUP BY ALL ORDER BY ALL`
      : `SELECT count(*) AS __n FROM ${stage}`,
  );
  const target =
    Number(meta.properties['write.target-file-size-bytes'] ?? DEFAULT_TARGET_FILE_SIZE) ||
    DEFAULT_TARGET_FILE_SIZE;
  const rowGroupRows = Number(meta.properties['loglake.parquet.row-group-rows'] ?? 0);
  const fieldIds = schema.fields.map((f) => `${sqlString(f.name)}: ${f.id}`).join(', ');
  const kv = `{'iceberg.schema': ${sqlString(JSON.stringify(schema))}}`;
  const columns = schema.fields.map((f) => sqlIdent(f.name)).join(', ');
  const terms = presorted ? [] : sortTerms(meta, schema);
  const order = terms.length > 0 ? ` ORDER BY ${terms.join(', ')}` : '';
  const written: { path: string; partition: (Literal | null)[]; texts: (string | null)[] }[] = [];
  /** Partitions DuckDB wrote as a single file: their staged rows are exactly that file's rows. */
  const single: { path: string; texts: (string | null)[] }[] = [];
  const stageDirs: string[] = [];
  try {
    return await writeGroups();
  } catch (error) {
    // Leave no half-written partition behind: nothing references these files yet.
    await Promise.all(
      [...written.map((w) => w.path), ...stageDirs].map((p) => fs.rm(p, { recursive: true, force: true })),
    );
    throw error;
  }

  async function writeGroups(): Promise<DataFile[]> {
    for (const group of groups) {
      if (Number(group['__n']) === 0) continue;
      const texts = pcols.map((c) => (group[c] === null || group[c] === undefined ? null : String(group[c])));
      const partition = texts.map((text, i) =>
        text === null ? null : coerceValue(partitionTypes[i] ?? 'int', text),
      );
      const where = texts
        // Plain equality lets DuckDB skip the staged row groups of other partitions (zone maps); IS NOT
        // DISTINCT FROM would evaluate every row of the batch once per partition.
        .map((text, i) => (text === null ? `__p${i} IS NULL` : `__p${i} = ${sqlString(text)}`))
        .join(' AND ');
      const partitionPath = spec.fields
        .map(
          (pf, i) =>
            `${pf.name}=${safeSegment(partitionPathValue(parseTransform(pf.transform), partitionTypes[i] ?? 'int', partition[i] ?? null))}`,
        )
        .join('/');
      const dir = layout.partitionDir(partitionPath);
      const stageDir = join(dir, `.stage-${randomUUID()}`);
      stageDirs.push(stageDir);
      await fs.mkdir(dir, { recursive: true });
      const options = [
        'FORMAT parquet',
        ...parquetWriterOptions(meta.properties, input.table),
        `FIELD_IDS {${fieldIds}}`,
        `KV_METADATA ${kv}`,
        `FILE_SIZE_BYTES ${target}`,
        `FILENAME_PATTERN 'part_{i}'`,
        ...(rowGroupRows > 0 ? [`ROW_GROUP_SIZE ${rowGroupRows}`] : []),
      ];
      await session.run(
        `COPY (SELECT ${columns} FROM ${stage}${where ? ` WHERE ${where}` : ''}${order}) TO ${sqlString(stageDir)} (${options.join(', ')})`,
      );
      // Give each file a unique name in the partition directory; drop the empty trailing file DuckDB may leave.
      const names = (await fs.readdir(stageDir)).sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
      for (const name of names) {
        const finalPath = join(dir, `${randomUUID()}.parquet`);
        await fs.rename(join(stageDir, name), finalPath);
        written.push({ path: finalPath, partition, texts });
        if (names.length === 1) single.push({ path: finalPath, texts });
      }
      await fs.rm(stageDir, { recursive: true, force: true });
    }
    const stats = await collectFileStats(
      session,
      schema,
      written.map((w) => w.path),
      stagedRowsByFile(stage, pcols, single),
    );
    const files: DataFile[] = [];
    for (const w of written) {
      const s = stats.get(w.path);
      if (!s || s.recordCount === 0) {
        await fs.rm(w.path, { force: true });
        continue;
      }
      files.push({
        content: CONTENT_DATA,
        filePath: toUri(w.path),
        fileFormat: 'PARQUET',
        partition: w.partition,
        ...s,
        splitOffsets: null,
        sortOrderId: meta['default-sort-order-id'],
        referencedDataFile: null,
      });
    }
    return files;
  }
}

/** The staged rows of single-file partitions, each tagged with its file's path (see RowsByFile). */
function stagedRowsByFile(
  stage: string,
  pcols: string[],
  single: { path: string; texts: (string | null)[] }[],
): RowsByFile | undefined {
  if (single.length === 0) return undefined;
  if (pcols.length === 0) {
    const only = single[0] as { path: string };
    return { sql: `SELECT *, ${sqlString(only.path)} AS __ll_file FROM ${stage}`, paths: [only.path] };
  }
  const values = single
    .map(
      (s) =>
        `(${[...s.texts.map((t) => (t === null ? 'CAST(NULL AS VARCHAR)' : sqlString(t))), sqlString(s.path)].join(', ')})`,
    )
    .join(', ');
  const on = pcols.map((c, i) => `${stage}.${c} IS NOT DISTINCT FROM m.k${i}`).join(' AND ');
  return {
    sql: `SELECT ${stage}.*, m.__ll_file FROM ${stage} JOIN (VALUES ${values}) AS m(${pcols.map((_, i) => `k${i}`).join(', ')}, __ll_file) ON ${on}`,
    paths: single.map((s) => s.path),
  };
}
