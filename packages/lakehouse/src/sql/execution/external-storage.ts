// Where CTAS with `external_location = 's3://...'` writes its Parquet. Pluggable so the local endpoint can back it
// with its S3 store; the default lays `s3://bucket/prefix` out under `<dataDir>/s3` as the local endpoint's S3 does.
import { randomUUID } from 'node:crypto';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { namedPath, objectPath, objectsUnder } from '../../io/stored-paths';
import type { DuckDBConnection } from '@duckdb/node-api';
import { sqlIdent, sqlString } from '../../duckdb/duckdb-session';
import { GenericUserError } from '../errors';

export interface ParquetWriteOptions {
  /** Hive-style partition columns (Athena's `partitioned_by`), written as `col=value/` directories. */
  partitionedBy?: string[];
  /** Athena's write_compression: SNAPPY (default), ZSTD, GZIP, LZ4, NONE. */
  compression?: string;
}

export interface ExternalWriteResult {
  files: number;
  bytes: number;
}

export interface ExternalStorage {
  /** True when nothing exists under the location (Athena refuses to CTAS into a non-empty location). */
  isEmpty(location: string): Promise<boolean>;
  /** Local paths of the data files under a location, sorted; Athena skips names starting with `_` or `.`. */
  dataFiles(location: string): Promise<string[]>;
  /** Writes the rows of a DuckDB query on `connection` as Parquet files under `location`. */
  writeParquetFromSql(
    connection: DuckDBConnection,
    sql: string,
    location: string,
    options: ParquetWriteOptions,
  ): Promise<ExternalWriteResult>;
}

const S3_URI = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])\/(.*)$/;

/** An `s3://bucket/prefix` location; the prefix is an S3 key prefix (`..` in it is two characters, not a step up). */
export function parseS3Uri(location: string): { bucket: string; prefix: string } {
  const m = S3_URI.exec(location);
  if (!m) {
    throw new GenericUserError(
      'INVALID_TABLE_PROPERTY',
      `external_location must be an s3://bucket/prefix/ URI, got '${location}'`,
      { value: location },
    );
  }
  return { bucket: m[1] as string, prefix: m[2] as string };
}

/** The key prefix a location stands for: a table's files are the objects under `prefix/`. */
export function locationPrefix(location: string): { bucket: string; prefix: string } {
  const { bucket, prefix } = parseS3Uri(location);
  return { bucket, prefix: prefix === '' || prefix.endsWith('/') ? prefix : `${prefix}/` };
}

const PARQUET_COMPRESSIONS = ['SNAPPY', 'ZSTD', 'GZIP', 'LZ4', 'NONE'];

/** DuckDB's COPY codec for Athena's write_compression (checked: it is written into the COPY statement). */
function parquetCodec(compression = 'SNAPPY'): string {
  const requested = compression.toUpperCase();
  if (!PARQUET_COMPRESSIONS.includes(requested)) {
    throw new GenericUserError(
      'INVALID_TABLE_PROPERTY',
      `write_compression '${compression}' is not supported for Parquet; use one of ${PARQUET_COMPRESSIONS.join(', ')}`,
      { value: compression },
    );
  }
  return requested === 'NONE' ? 'UNCOMPRESSED' : requested;
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

/**
 * S3 on local disk, laid out as the local endpoint's S3 stores it (io/stored-paths: `<root>/<bucket>/<key>`, each key
 * segment encoded, so any key is exactly one object and `..` in it goes nowhere). Parquet is written aside by DuckDB,
 * then each file is moved in as the object its relative path names.
 */
export class LocalDirectoryStorage implements ExternalStorage {
  constructor(private readonly root: string) {}

  private bucketDir(bucket: string): string {
    return namedPath(this.root, [bucket]);
  }

  async isEmpty(location: string): Promise<boolean> {
    const { bucket, prefix } = locationPrefix(location);
    return objectsUnder(this.bucketDir(bucket), prefix).length === 0;
  }

  async dataFiles(location: string): Promise<string[]> {
    const { bucket, prefix } = locationPrefix(location);
    // Athena skips objects whose names start with `_` or `.`.
    return objectsUnder(this.bucketDir(bucket), prefix)
      .filter((o) => !/^[_.]/.test(o.key.slice(o.key.lastIndexOf('/') + 1)))
      .map((o) => o.path);
  }

  async writeParquetFromSql(
    connection: DuckDBConnection,
    sql: string,
    location: string,
    options: ParquetWriteOptions,
  ): Promise<ExternalWriteResult> {
    const { bucket, prefix } = locationPrefix(location);
    const bucketDir = this.bucketDir(bucket);
    const codec = parquetCodec(options.compression);
    // A folder the object layout never writes (its name starts with a dot), on the same file system.
    const staging = join(this.root, `.staging-${randomUUID()}`);
    await mkdir(staging, { recursive: true });
    try {
      if (options.partitionedBy?.length) {
        const columns = options.partitionedBy.map(sqlIdent).join(', ');
        await connection.run(
          `COPY (${sql}) TO ${sqlString(staging)} (FORMAT parquet, COMPRESSION ${codec}, PARTITION_BY (${columns}), OVERWRITE_OR_IGNORE true)`,
        );
      } else {
        await connection.run(
          `COPY (${sql}) TO ${sqlString(join(staging, `${randomUUID()}.parquet`))} (FORMAT parquet, COMPRESSION ${codec})`,
        );
      }
      let bytes = 0;
      const files = await listFiles(staging);
      for (const file of files) {
        const key = prefix + relative(staging, file).split(sep).join('/');
        const target = objectPath(bucketDir, key);
        await mkdir(dirname(target), { recursive: true });
        bytes += (await stat(file)).size;
        await rename(file, target);
      }
      return { files: files.length, bytes };
    } finally {
      await rm(staging, { recursive: true, force: true });
    }
  }
}
