// Where CTAS with `external_location = 's3://...'` writes its Parquet. Pluggable so the local endpoint can back it
// with its S3 store; the default maps `s3://bucket/prefix` to `<dataDir>/s3/bucket/prefix` on local disk.
import { randomUUID } from 'node:crypto';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { basename, join, resolve, sep } from 'node:path';
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

export function parseS3Uri(location: string): { bucket: string; prefix: string } {
  const m = S3_URI.exec(location);
  if (!m || (m[2] ?? '').split('/').includes('..')) {
    throw new GenericUserError(
      'INVALID_TABLE_PROPERTY',
      `external_location must be an s3://bucket/prefix/ URI, got '${location}'`,
      { value: location },
    );
  }
  return { bucket: m[1] as string, prefix: m[2] as string };
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

export class LocalDirectoryStorage implements ExternalStorage {
  constructor(private readonly root: string) {}

  /** The local directory standing in for an s3:// location. */
  directoryFor(location: string): string {
    const { bucket, prefix } = parseS3Uri(location);
    const dir = resolve(this.root, bucket, prefix);
    if (!dir.startsWith(resolve(this.root) + sep))
      throw new GenericUserError(
        'INVALID_TABLE_PROPERTY',
        `external_location escapes the storage root: '${location}'`,
      );
    return dir;
  }

  async isEmpty(location: string): Promise<boolean> {
    return (await listFiles(this.directoryFor(location))).length === 0;
  }

  async dataFiles(location: string): Promise<string[]> {
    const files = await listFiles(this.directoryFor(location));
    return files.filter((f) => !/^[_.]/.test(basename(f))).sort();
  }

  async writeParquetFromSql(
    connection: DuckDBConnection,
    sql: string,
    location: string,
    options: ParquetWriteOptions,
  ): Promise<ExternalWriteResult> {
    const dir = this.directoryFor(location);
    const codec = parquetCodec(options.compression);
    await mkdir(dir, { recursive: true });
    try {
      if (options.partitionedBy?.length) {
        const columns = options.partitionedBy.map(sqlIdent).join(', ');
        await connection.run(
          `COPY (${sql}) TO ${sqlString(dir)} (FORMAT parquet, COMPRESSION ${codec}, PARTITION_BY (${columns}), OVERWRITE_OR_IGNORE true)`,
        );
      } else {
        await connection.run(
          `COPY (${sql}) TO ${sqlString(join(dir, `${randomUUID()}.parquet`))} (FORMAT parquet, COMPRESSION ${codec})`,
        );
      }
    } catch (error) {
      await rm(dir, { recursive: true, force: true });
      throw error;
    }
    const files = await listFiles(dir);
    let bytes = 0;
    for (const file of files) bytes += (await stat(file)).size;
    return { files: files.length, bytes };
  }
}
