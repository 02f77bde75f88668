// Iceberg's Parquet writer table properties (write.parquet.*) as DuckDB COPY options, refusing what the writer
// could not honour.
import { InvalidPropertyError } from '../errors';

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
