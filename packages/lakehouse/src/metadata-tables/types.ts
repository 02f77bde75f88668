// A metadata table is data: named columns with Athena's type names (what the SQL front end reports) and the
// DuckDB type the values are cast to when the table is bound as a relation.
import type { ResultColumn } from '../contract';

export const METADATA_TABLE_NAMES = [
  'snapshots',
  'history',
  'files',
  'manifests',
  'partitions',
  'refs',
] as const;

export type MetadataTableName = (typeof METADATA_TABLE_NAMES)[number];

export interface MetadataColumn extends ResultColumn {
  /** DuckDB type used by `toRelationSql`, e.g. `MAP(VARCHAR, VARCHAR)`. */
  duckdbType: string;
}

/** Values: scalars; Date for instants; Map for SQL maps; arrays; plain objects (field order kept) for rows. */
export type MetadataValue =
  | null
  | boolean
  | number
  | bigint
  | string
  | Date
  | Uint8Array
  | MetadataValue[]
  | Map<number | string, MetadataValue>
  | { [field: string]: MetadataValue };

export interface MetadataTable {
  /** e.g. `vpc_flow_logs$snapshots`. */
  name: string;
  columns: MetadataColumn[];
  rows: MetadataValue[][];
}
