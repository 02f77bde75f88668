// Writes rows from a DuckDB query as Iceberg data files: casts to the schema, computes partition values
// with the spec's transforms, writes ZSTD Parquet files per partition (split near the target file size, in
// the declared sort order, with field ids), and takes the manifest statistics from the writer itself.
// Most tables are written by one COPY straight from the source (hive-partitioned by DuckDB when the spec
// has partitions); a table that is both partitioned and sorted, or whose transforms need JS (bucket,
// binary/decimal truncate), is staged once and written partition by partition.
import { randomUUID } from 'node:crypto';
import type { Schema, SchemaField, TableMetadata } from '../contract';
import { duckdbReason, sqlIdent, sqlString, type DuckDbSession } from '../duckdb/duckdb-session';
import { SchemaMismatchError } from '../errors';
import { removeUris } from '../io/file-io';
import type { TableLayout } from '../io/table-layout';
import type { DataFile } from '../manifests/data-file';
import { specPartitionTypes } from '../manifests/live-files';
import { fieldById } from '../metadata/schema';
import { currentSchema, defaultSortOrder, defaultSpec } from '../metadata/table-metadata';
import { applyTransform, parseTransform, transformTextSql, transformValueSql } from '../metadata/transforms';
import { duckdbType, parseType } from '../metadata/types';
import { coerceValue, literalToText } from '../metadata/values';
import { PartitionWriter } from './partition-writer';

export interface WriteDataInput {
  session: DuckDbSession;
  layout: TableLayout;
  meta: TableMetadata;
  /** A DuckDB query whose columns are (a subset of) the table's columns, by name. */
  sourceSql: string;
  /** The source's column names, when the caller knows them (no DESCRIBE round trip). */
  sourceColumns?: string[];
  table: string;
}

/** Maps source columns to fields, refusing unknown columns and missing required ones. */
async function sourceProjection(input: WriteDataInput, schema: Schema): Promise<string> {
  let columns: { name: string }[];
  try {
    columns =
      input.sourceColumns?.map((name) => ({ name })) ??
      (await input.session.describe(`SELECT * FROM (${input.sourceSql}) AS src`));
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

function textOf(field: SchemaField): string {
  return parseType(field.type).kind === 'binary'
    ? `to_base64(${sqlIdent(field.name)})`
    : `CAST(${sqlIdent(field.name)} AS VARCHAR)`;
}

function sortTerms(meta: TableMetadata, schema: Schema): string[] {
  const order = defaultSortOrder(meta);
  const terms = order.fields.flatMap((sf) => {
    const field = fieldById(schema, sf['source-id']);
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
    const field = fieldById(schema, pf['source-id']);
    return field !== undefined && transformTextSql(parseTransform(pf.transform), field.type, 'x') === null;
  });
}

export async function writeDataFiles(input: WriteDataInput): Promise<DataFile[]> {
  const { meta } = input;
  const schema = currentSchema(meta);
  const spec = defaultSpec(meta);
  const projection = await sourceProjection(input, schema);
  const partitionExprs = spec.fields.map((pf) => {
    const field = fieldById(schema, pf['source-id']);
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
    const field = fieldById(writer.schema, pf['source-id']);
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
      await removeUris([file.path]);
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
  const declared = sortTerms(meta, schema);
  const presorted = !hasJsPartitions(meta, schema) && (await insertionOrderKept(session));
  const stageOrder = presorted ? [...pexprs.map((_, i) => `__p${i} ASC NULLS FIRST`), ...declared] : [];
  try {
    await session.run(
      `CREATE TABLE ${stage} AS SELECT *${pexprs.map((e) => `, ${e}`).join('')} FROM (SELECT ${projection} FROM (${input.sourceSql}) AS src) AS casted` +
        (stageOrder.length > 0 ? ` ORDER BY ${stageOrder.join(', ')}` : ''),
    );
  } catch (error) {
    throw new SchemaMismatchError(`Rows do not fit the schema of ${input.table}: ${duckdbReason(error)}`, {
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
    const order = !presorted && declared.length > 0 ? ` ORDER BY ${declared.join(', ')}` : '';
    const writeGroup = async (index: number, session: DuckDbSession) => {
      const group = groups[index] as Record<string, unknown>;
      if (Number(group['__n']) === 0) return;
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
        declared.length > 0,
        { session, order: index },
      );
    };
    // A partition's COPY is small and runs on one thread: two connections write two partitions at a time
    // (the stage is a database table, so both see it). Both lanes finish before any failure is raised, so
    // nothing is still being written while the caller cleans up; after a failure neither starts another group.
    let next = 0;
    let stopped = false;
    const lane = async (laneSession: DuckDbSession) => {
      try {
        while (!stopped && next < groups.length) await writeGroup(next++, laneSession);
      } catch (error) {
        stopped = true;
        throw error;
      }
    };
    const lanes = groups.length > 1 ? [session, await session.sibling()] : [session];
    const failed = (await Promise.allSettled(lanes.map(lane))).find((r) => r.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;
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
    const field = fieldById(schema, pf['source-id']);
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
