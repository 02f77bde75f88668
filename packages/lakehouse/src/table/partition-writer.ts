// The COPY statements of one data write: DuckDB writes Parquet with the table's options, field ids and its own
// statistics (RETURN_STATS); files move by rename from a staging directory to unique names in their partition
// directory; everything created is remembered so a failed write leaves nothing behind.
import { randomUUID } from 'node:crypto';
import { mkdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import type { Schema } from '../contract';
import { duckdbReason, sqlIdent, sqlString, type DuckDbSession } from '../duckdb/duckdb-session';
import { SchemaMismatchError } from '../errors';
import { removeUris, toUri } from '../io/file-io';
import { CONTENT_DATA, type DataFile } from '../manifests/data-file';
import { specPartitionTypes } from '../manifests/live-files';
import { defaultSpec } from '../metadata/table-metadata';
import { parseTransform, partitionPathValue } from '../metadata/transforms';
import { coerceValue, type Literal } from '../metadata/values';
import { completeBounds, parseCopyStats, type CopiedFile } from './copy-stats';
import type { WriteDataInput } from './data-writer';
import { parquetWriterOptions } from './parquet-options';

const DEFAULT_TARGET_FILE_SIZE = 512 * 1024 * 1024;

/** Directory names are informational only (values live in manifests): keep them to portable characters. */
function safeSegment(value: string): string {
  return value.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 100);
}

/** A file written for one partition: its final path, partition tuple and the writer's statistics. */
interface WrittenFile {
  path: string;
  partition: (Literal | null)[];
  stats: CopiedFile['stats'];
  /** Position of its partition in the write, so files list in the same order however the COPYs interleave. */
  order: number;
}

/** Where one partition's rows go: the DuckDB session that runs its COPY and the partition's place in the write. */
interface Lane {
  session: DuckDbSession;
  order: number;
}

/** Runs the COPY statements of one write and moves their files into place, remembering all it created. */
export class PartitionWriter {
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
    mkdirSync(dir, { recursive: true }); // directory and rename calls are synchronous: see io/file-io.ts
    return stageDir;
  }

  /** Runs a COPY with RETURN_STATS; conversion failures are the rows' fault, not the engine's. */
  async copy(sql: string, session: DuckDbSession = this.input.session): Promise<CopiedFile[]> {
    try {
      return parseCopyStats(await session.all(sql), this.schema);
    } catch (error) {
      const reason = duckdbReason(error);
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
    lane: Lane = { session: this.input.session, order: 0 },
  ): Promise<void> {
    const stageDir = await this.stageDir(dir);
    if (!ordered) {
      const files = await this.copy(
        `COPY (${select}) TO ${sqlString(stageDir)} (${this.options([`FILE_SIZE_BYTES ${this.target}`, `FILENAME_PATTERN 'part_{i}'`])})`,
        lane.session,
      );
      await this.place(files, partition, dir, lane.order);
      return;
    }
    mkdirSync(stageDir, { recursive: true });
    const [whole] = await this.copy(
      `COPY (${select}) TO ${sqlString(join(stageDir, 'whole.parquet'))} (${this.options([])})`,
      lane.session,
    );
    if (!whole) return;
    const pieces = Math.min(Math.ceil(whole.stats.fileSizeInBytes / this.target), whole.stats.recordCount);
    if (pieces <= 1) {
      await this.place([whole], partition, dir, lane.order);
      return;
    }
    const columns = this.schema.fields.map((f) => sqlIdent(f.name)).join(', ');
    const per = Math.ceil(whole.stats.recordCount / pieces);
    const parts: CopiedFile[] = [];
    for (let i = 0; i * per < whole.stats.recordCount; i++) {
      const [part] = await this.copy(
        `COPY (SELECT ${columns} FROM read_parquet(${sqlString(whole.path)}, file_row_number = true, hive_partitioning = false) ` +
          `WHERE file_row_number >= ${i * per} AND file_row_number < ${(i + 1) * per}) TO ${sqlString(join(stageDir, `part_${i}.parquet`))} (${this.options([])})`,
        lane.session,
      );
      if (part) parts.push(part);
    }
    await removeUris([whole.path]);
    await this.place(parts, partition, dir, lane.order);
  }

  /** Moves copied files to unique names in their partition directory. */
  async place(files: CopiedFile[], partition: (Literal | null)[], dir: string, order = 0): Promise<void> {
    mkdirSync(dir, { recursive: true });
    for (const file of files) {
      const finalPath = join(dir, `${randomUUID()}.parquet`);
      renameSync(file.path, finalPath);
      this.written.push({ path: finalPath, partition, stats: file.stats, order });
    }
  }

  /** Checks required columns, completes bounds, drops empty files and returns the manifest entries. */
  async finish(): Promise<DataFile[]> {
    await removeUris(this.stageDirs);
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
    const live = this.written.filter((w) => w.stats.recordCount > 0).sort((a, b) => a.order - b.order);
    await removeUris(this.written.filter((w) => w.stats.recordCount === 0).map((w) => w.path));
    await completeBounds(this.input.session, this.schema, live);
    for (const w of live) {
      files.push({
        content: CONTENT_DATA,
        filePath: toUri(w.path),
        fileFormat: 'PARQUET',
        partition: w.partition,
        ...w.stats,
        keyMetadata: null,
        splitOffsets: null,
        equalityIds: null,
        sortOrderId: this.input.meta['default-sort-order-id'],
        referencedDataFile: null,
      });
    }
    return files;
  }

  async discard(): Promise<void> {
    await removeUris([...this.written.map((w) => w.path), ...this.stageDirs]);
  }
}
