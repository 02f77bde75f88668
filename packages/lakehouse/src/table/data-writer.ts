// Writes rows from a DuckDB query as Iceberg data files: casts to the schema, computes partition values
// with the spec's transforms, writes ZSTD Parquet files per partition (split near the target file size, in
// the declared sort order, with field ids), and takes the manifest statistics from the writer itself.
// Most tables are written by one COPY straight from the source (hive-partitioned by DuckDB when the spec
// has partitions); a table that is both partitioned and sorted, or whose transforms need JS (bucket,
// binary/decimal truncate), is staged once and written partition by partition.
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
import { completeBounds, parseCopyStats, removeFiles, type CopiedFile } from './copy-stats';

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
 * services built on it), pyiceberg and iceberg-rust. `write.parquet.page-version` = v2 (apache/iceberg#15700)
 * (or 2) opts a table into V2 pages and their delta encodings, which readers of v2 tables (icebird too) handle.
 */
export function parquetWriterOptions(properties: Record<string, string>, table: string): string[] {
  return [
    ...parquetCompression(properties, table),
    ...(pageVersion(properties, table) === 2 ? ['PARQUET_VERSION V2'] : []),
  ];
}

function pageVersion(properties: Record<string, string>, table: string): 1 | 2 {
  // Iceberg documents v1/v2; iceberg-go's first release of the property took 1/2. Both spellings are read.
  const version = (properties['write.parquet.page-version'] ?? 'v1').toLowerCase();
  if (!['v1', 'v2', '1', '2'].includes(version)) {
    throw new InvalidPropertyError(
      `write.parquet.page-version '${version}' of ${table} is not supported; use v1 (the default) or v2.`,
      { value: version },
    );
  }
  return version.endsWith('2') ? 2 : 1;
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
  const { meta } = input;
  const schema = currentSchema(meta);
  const spec = defaultSpec(meta);
  const projection = await sourceProjection(input, schema);
  const partitionExprs = spec.fields.map((pf) => {
    const field = schema.fields.find((f) => f.id === pf['source-id']);
    return field ? transformTextSql(parseTransform(pf.transform), field.type, sqlIdent(field.name)) : null;
  });
  const writer = new PartitionWriter(input, schema);
  try {
    if (hasJsPartitions(meta, schema) || (spec.fields.length > 0 && sortTerms(meta, schema).length > 0))
      await writeStaged(writer, projection, partitionExprs);
    else await writeDirect(writer, projection, partitionExprs);
    return await writer.finish();
  } catch (error) {
    // Leave nothing half-written behind: no snapshot references these files yet.
    await writer.discard();
    throw error;
  }
}

/** A file written for one partition: its final path, partition tuple and the writer's statistics. */
interface WrittenFile {
  path: string;
  partition: (Literal | null)[];
  stats: CopiedFile['stats'];
}

/** Runs the COPY statements of one write and moves their files into place, remembering all it created. */
class PartitionWriter {
  readonly spec: ReturnType<typeof defaultSpec>;
  readonly partitionTypes: string[];
  readonly target: number;
  private readonly written: WrittenFile[] = [];
  private readonly stageDirs: string[] = [];

  constructor(
    readonly input: WriteDataInput,
    readonly schema: Schema,
  ) {
    this.spec = defaultSpec(input.meta);
    this.partitionTypes = specPartitionTypes(input.meta, this.spec);
    this.target =
      Number(input.meta.properties['write.target-file-size-bytes'] ?? DEFAULT_TARGET_FILE_SIZE) ||
      DEFAULT_TARGET_FILE_SIZE;
  }

  /** DuckDB COPY options for the table's Parquet files, plus `extra`. */
  options(extra: string[]): string {
    const fieldIds = this.schema.fields.map((f) => `${sqlString(f.name)}: ${f.id}`).join(', ');
    const rowGroupRows = Number(this.input.meta.properties['loglake.parquet.row-group-rows'] ?? 0);
    return [
      'FORMAT parquet',
      ...parquetWriterOptions(this.input.meta.properties, this.input.table),
      `FIELD_IDS {${fieldIds}}`,
      `KV_METADATA {'iceberg.schema': ${sqlString(JSON.stringify(this.schema))}}`,
      ...(rowGroupRows > 0 ? [`ROW_GROUP_SIZE ${rowGroupRows}`] : []),
      'RETURN_STATS true',
      ...extra,
    ].join(', ');
  }

  /** A fresh staging directory inside `dir` (same file system, so files move by rename). */
  async stageDir(dir: string): Promise<string> {
    const stageDir = join(dir, `.stage-${randomUUID()}`);
    this.stageDirs.push(stageDir);
    await fs.mkdir(dir, { recursive: true });
    return stageDir;
  }

  /** Runs a COPY with RETURN_STATS; conversion failures are the rows' fault, not the engine's. */
  async copy(sql: string): Promise<CopiedFile[]> {
    try {
      return parseCopyStats(await this.input.session.all(sql), this.schema);
    } catch (error) {
      const reason =
        error instanceof QueryFailedError
          ? String((error.cause as Error)?.message ?? error.message)
          : String(error);
      if (/^(Conversion|Invalid Input|Out of Range) Error/.test(reason)) {
        throw new SchemaMismatchError(`Rows do not fit the schema of ${this.input.table}: ${reason}`, {
          cause: error,
          value: this.input.sourceSql,
        });
      }
      throw error;
    }
  }

  /** The partition tuple for the text values of the partition columns, and its directory. */
  partition(texts: (string | null)[]): { partition: (Literal | null)[]; dir: string } {
    const partition = texts.map((text, i) =>
      text === null ? null : coerceValue(this.partitionTypes[i] ?? 'int', text),
    );
    const path = this.spec.fields
      .map(
        (pf, i) =>
          `${pf.name}=${safeSegment(partitionPathValue(parseTransform(pf.transform), this.partitionTypes[i] ?? 'int', partition[i] ?? null))}`,
      )
      .join('/');
    return { partition, dir: this.input.layout.partitionDir(path) };
  }

  /**
   * Writes the rows of `select` as files of one partition. Unordered rows roll over to a new file at the target
   * size. Ordered rows go to one file first: DuckDB keeps insertion order only when it writes a single file (its
   * size-based rollover writes row groups in parallel, out of order), so a file above the target is then cut
   * into contiguous row ranges of about the target size — every file stays sorted.
   */
  async writeRows(
    select: string,
    partition: (Literal | null)[],
    dir: string,
    ordered: boolean,
  ): Promise<void> {
    const stageDir = await this.stageDir(dir);
    if (!ordered) {
      const files = await this.copy(
        `COPY (${select}) TO ${sqlString(stageDir)} (${this.options([`FILE_SIZE_BYTES ${this.target}`, `FILENAME_PATTERN 'part_{i}'`])})`,
      );
      await this.place(files, partition, dir);
      return;
    }
    await fs.mkdir(stageDir, { recursive: true });
    const [whole] = await this.copy(
      `COPY (${select}) TO ${sqlString(join(stageDir, 'whole.parquet'))} (${this.options([])})`,
    );
    if (!whole) return;
    const pieces = Math.min(Math.ceil(whole.stats.fileSizeInBytes / this.target), whole.stats.recordCount);
    if (pieces <= 1) {
      await this.place([whole], partition, dir);
      return;
    }
    const columns = this.schema.fields.map((f) => sqlIdent(f.name)).join(', ');
    const per = Math.ceil(whole.stats.recordCount / pieces);
    const parts: CopiedFile[] = [];
    for (let i = 0; i * per < whole.stats.recordCount; i++) {
      const [part] = await this.copy(
        `COPY (SELECT ${columns} FROM read_parquet(${sqlString(whole.path)}, file_row_number = true, hive_partitioning = false) ` +
          `WHERE file_row_number >= ${i * per} AND file_row_number < ${(i + 1) * per}) TO ${sqlString(join(stageDir, `part_${i}.parquet`))} (${this.options([])})`,
      );
      if (part) parts.push(part);
    }
    await fs.rm(whole.path, { force: true });
    await this.place(parts, partition, dir);
  }

  /** Moves copied files to unique names in their partition directory. */
  async place(files: CopiedFile[], partition: (Literal | null)[], dir: string): Promise<void> {
    await fs.mkdir(dir, { recursive: true });
    for (const file of files) {
      const finalPath = join(dir, `${randomUUID()}.parquet`);
      await fs.rename(file.path, finalPath);
      this.written.push({ path: finalPath, partition, stats: file.stats });
    }
  }

  /** Checks required columns, completes bounds, drops empty files and returns the manifest entries. */
  async finish(): Promise<DataFile[]> {
    await removeFiles(this.stageDirs);
    const required = this.schema.fields.find(
      (f) => f.required && this.written.some((w) => (w.stats.nullValueCounts.get(f.id) ?? 0) > 0),
    );
    if (required) {
      throw new SchemaMismatchError(
        `Required column '${required.name}' of ${this.input.table} would get NULL values.`,
        { value: required.name },
      );
    }
    const files: DataFile[] = [];
    const live = this.written.filter((w) => w.stats.recordCount > 0);
    await removeFiles(this.written.filter((w) => w.stats.recordCount === 0).map((w) => w.path));
    await completeBounds(
      this.input.session,
      this.schema,
      live.map((w) => ({ path: w.path, stats: w.stats, partitionKeys: new Map() })),
    );
    for (const w of live) {
      files.push({
        content: CONTENT_DATA,
        filePath: toUri(w.path),
        fileFormat: 'PARQUET',
        partition: w.partition,
        ...w.stats,
        splitOffsets: null,
        sortOrderId: this.input.meta['default-sort-order-id'],
        referencedDataFile: null,
      });
    }
    return files;
  }

  async discard(): Promise<void> {
    await removeFiles([...this.written.map((w) => w.path), ...this.stageDirs]);
  }
}

/**
 * One COPY from the source. Unpartitioned: one file set split at the target size, in the declared order.
 * Partitioned (unsorted): DuckDB writes every partition in the same pass (PARTITION_BY); the key is the
 * partition text in hex so any value survives the directory name, and NULL is its own key. PARTITION_BY
 * cannot split by size, so a partition file above the target is re-split from that file alone.
 */
async function writeDirect(
  writer: PartitionWriter,
  projection: string,
  partitionExprs: (string | null)[],
): Promise<void> {
  const { input } = writer;
  const casted = `SELECT ${projection} FROM (${input.sourceSql}) AS src`;
  if (partitionExprs.length === 0) {
    const terms = sortTerms(input.meta, writer.schema);
    const select = `${casted}${terms.length > 0 ? ` ORDER BY ${terms.join(', ')}` : ''}`;
    await writer.writeRows(select, [], writer.partition([]).dir, terms.length > 0);
    return;
  }
  // Time transforms key on their integer value (cheap, and NULL is DuckDB's own default partition); other
  // values key on their text in hex, which any value survives as a directory name.
  const timeKeys = writer.spec.fields.map((pf) => {
    const field = writer.schema.fields.find((f) => f.id === pf['source-id']);
    const t = parseTransform(pf.transform);
    return field && ['hour', 'day', 'month', 'year'].includes(t.kind)
      ? transformValueSql(t, field.type, sqlIdent(field.name))
      : null;
  });
  const keys = partitionExprs.map((e, i) => {
    const time = timeKeys[i];
    return time
      ? `${time} AS __p${i}`
      : `CASE WHEN ${e} IS NULL THEN 'n' ELSE 'v' || hex(${e}) END AS __p${i}`;
  });
  const stageDir = await writer.stageDir(input.layout.dataDir);
  const columns = writer.schema.fields.map((f) => sqlIdent(f.name)).join(', ');
  const files = await writer.copy(
    `COPY (SELECT ${columns}, ${keys.join(', ')} FROM (${casted}) AS casted) TO ${sqlString(stageDir)} (${writer.options([`PARTITION_BY (${keys.map((_, i) => `__p${i}`).join(', ')})`, `FILENAME_PATTERN 'part_{i}'`])})`,
  );
  for (const file of files) {
    const texts = partitionExprs.map((_, i) => {
      const key = file.partitionKeys.get(`__p${i}`) ?? null;
      if (timeKeys[i]) return key;
      return key === null || key === 'n' ? null : Buffer.from(key.slice(1), 'hex').toString('utf8');
    });
    const { partition, dir } = writer.partition(texts);
    if (file.stats.fileSizeInBytes > writer.target && file.stats.recordCount > 1) {
      // Unsorted rows: re-split this one file with size-based rollover, then drop it.
      await writer.writeRows(
        `SELECT ${columns} FROM read_parquet(${sqlString(file.path)}, hive_partitioning = false)`,
        partition,
        dir,
        false,
      );
      await fs.rm(file.path, { force: true });
    } else {
      await writer.place([file], partition, dir);
    }
  }
}

/**
 * Stages the batch once (cast, partition columns; sorted by partition then the declared order when DuckDB
 * keeps insertion order), fills JS-computed partition values, then writes each partition with its own COPY.
 */
async function writeStaged(
  writer: PartitionWriter,
  projection: string,
  partitionExprs: (string | null)[],
): Promise<void> {
  const { input } = writer;
  const { session, meta } = input;
  const schema = writer.schema;
  const stage = `__ll_stage_${randomUUID().replaceAll('-', '')}`;
  const pexprs = partitionExprs.map((e, i) => `${e ?? 'CAST(NULL AS VARCHAR)'} AS __p${i}`);
  // Sort once while staging (partition, then the declared order) so each partition's COPY is a plain
  // ordered scan of its own row range: one sort of the batch instead of one per partition. Transforms
  // computed in JS fill their partition column after staging, so those tables sort per partition instead.
  const presorted = !hasJsPartitions(meta, schema) && (await insertionOrderKept(session));
  const stageOrder = presorted
    ? [...pexprs.map((_, i) => `__p${i} ASC NULLS FIRST`), ...sortTerms(meta, schema)]
    : [];
  try {
    await session.run(
      `CREATE TEMP TABLE ${stage} AS SELECT *${pexprs.map((e) => `, ${e}`).join('')} FROM (SELECT ${projection} FROM (${input.sourceSql}) AS src) AS casted` +
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
    await fillJsPartitions(session, stage, meta, schema);
    const pcols = pexprs.map((_, i) => `__p${i}`);
    const groups = await session.all(
      pcols.length > 0
        ? `SELECT ${pcols.join(', ')}, count(*) AS __n FROM ${stage} GROUP BY ALL ORDER BY ALL`
        : `SELECT count(*) AS __n FROM ${stage}`,
    );
    const columns = schema.fields.map((f) => sqlIdent(f.name)).join(', ');
    const terms = presorted ? [] : sortTerms(meta, schema);
    const order = terms.length > 0 ? ` ORDER BY ${terms.join(', ')}` : '';
    for (const group of groups) {
      if (Number(group['__n']) === 0) continue;
      const texts = pcols.map((c) => (group[c] === null || group[c] === undefined ? null : String(group[c])));
      const where = texts
        // Plain equality lets DuckDB skip the staged row groups of other partitions (zone maps); IS NOT
        // DISTINCT FROM would evaluate every row of the batch once per partition.
        .map((text, i) => (text === null ? `__p${i} IS NULL` : `__p${i} = ${sqlString(text)}`))
        .join(' AND ');
      const { partition, dir } = writer.partition(texts);
      await writer.writeRows(
        `SELECT ${columns} FROM ${stage}${where ? ` WHERE ${where}` : ''}${order}`,
        partition,
        dir,
        sortTerms(meta, schema).length > 0,
      );
    }
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
