// Catalogs are the engine's connectors (Trino's catalogs, pyiceberg's Catalog): each resolves schema and table
// names to table handles and carries out the DDL the front end asks of it. The engine holds a list of
// providers and asks them, by catalog name, which catalog a statement means: S3 Tables buckets
// (`s3tablescatalog/<bucket>`) and the Glue Data Catalog (`awsdatacatalog`, supplied by the local endpoint) meet
// the engine here, and nothing else in sql/ knows where a table comes from.
import type { CreateTableInput, TableHandle } from '../../contract';

/** What the engine offers a catalog to build handles with: reading Parquet happens on the engine's connection. */
export interface CatalogServices {
  /** A read-only table over the Parquet files under an `s3://` location (a Hive table), scanned by the engine. */
  parquetTable(spec: ParquetTableSpec): TableHandle;
}

export interface ParquetTableSpec {
  schema: string;
  name: string;
  /** `s3://bucket/prefix/`: the table's current location. */
  location: string;
  /** The columns as Glue records them (Hive type names: `string`, `tinyint`, `array<string>`...). */
  columns: HiveColumn[];
  properties: Record<string, string>;
  /** Changes whenever the definition changes (Glue's VersionId), for the handle's metadata. */
  version: string;
  updatedMs: number;
}

/** A column of a Hive table as Glue stores it (`string`, `int`, `bigint`, `decimal(10,2)`, ...). */
export interface HiveColumn {
  name: string;
  type: string;
}

/** A Hive table's handle: its columns' Hive types say more than the Iceberg schema a TableHandle reports. */
export interface HiveTableHandle extends TableHandle {
  readonly hiveColumns: HiveColumn[];
}

export const isHiveTable = (table: TableHandle): table is HiveTableHandle => 'hiveColumns' in table;

/** What a CTAS with `external_location` asks the catalog to register once its Parquet is written. */
export interface ParquetTableRegistration {
  location: string;
  columns: HiveColumn[];
  /** Athena's write_compression, upper-cased (SNAPPY when not given). */
  compression: string;
}

export interface SqlCatalog {
  /** The name statements and errors use, lower-cased (`s3tablescatalog/lab`, `awsdatacatalog`). */
  readonly name: string;
  /** S3 Tables catalogs hold managed Iceberg tables and refuse what Athena refuses on them; Glue holds Hive tables. */
  readonly kind: 's3tables' | 'glue';
  schemaExists(schema: string): Promise<boolean>;
  /** Table names of a schema (sorted); undefined when the schema does not exist. */
  listTables(schema: string): Promise<string[] | undefined>;
  /** The table's handle, or undefined when the catalog has no such schema or table. */
  loadTable(schema: string, table: string, services: CatalogServices): Promise<TableHandle | undefined>;
  tableExists(schema: string, table: string): Promise<boolean>;
  /** Creates an Iceberg table; a catalog that cannot throws a SqlError saying so. */
  createTable(schema: string, table: string, input: CreateTableInput): Promise<TableHandle>;
  /** Drops the table (S3 Tables purge its data; Glue keeps a Hive table's files); false when there was none. */
  dropTable(schema: string, table: string): Promise<boolean>;
  /** Registers a Hive table over Parquet a CTAS wrote; absent when the catalog holds no Hive tables. */
  registerParquetTable?(schema: string, table: string, registration: ParquetTableRegistration): Promise<void>;
}

/** Answers for the catalogs of one kind: by name, or undefined when the name is not one of its catalogs. */
export interface CatalogProvider {
  catalog(name: string): SqlCatalog | undefined;
}
