// The Glue table a snapshot is catalogued as, defined once: the snapshots stack declares it for Terraform and the
// local lab creates it through the Glue API, so offline and AWS hold the same table. Pure: no SDK, no cdktf.
import { SNAPSHOT_META_COLUMNS, type SnapshotColumn, type SnapshotDefinition } from './definitions';

export interface SnapshotTableShape {
  readonly description: string;
  readonly tableType: 'EXTERNAL_TABLE';
  readonly parameters: Readonly<Record<string, string>>;
  /** Empty until the first publish moves the table to its first run. */
  readonly location: string;
  readonly inputFormat: string;
  readonly outputFormat: string;
  readonly serializationLibrary: string;
  /** The definition's columns, then the ones every snapshot row carries. */
  readonly columns: readonly SnapshotColumn[];
}

/** The table of `def` in the snapshot bucket `bucket` (a name, or a Terraform reference to one). */
export function snapshotTableShape(def: SnapshotDefinition, bucket: string): SnapshotTableShape {
  return {
    description: `Latest complete day of ${def.source.namespace}.${def.source.table}, rebuilt daily`,
    tableType: 'EXTERNAL_TABLE',
    parameters: { classification: 'parquet', EXTERNAL: 'TRUE', 'parquet.compression': 'ZSTD' },
    location: `s3://${bucket}/${def.name}/initial/`,
    inputFormat: 'org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat',
    outputFormat: 'org.apache.hadoop.hive.ql.io.parquet.MapredParquetOutputFormat',
    serializationLibrary: 'org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe',
    columns: [...def.columns, ...SNAPSHOT_META_COLUMNS].map((c) => ({ name: c.name, type: c.type })),
  };
}
