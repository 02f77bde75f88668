// Glue's default catalog (AwsDataCatalog) as one of the SQL engine's catalogs: Athena resolves `db.table` without
// an S3 Tables catalog here. A Glue table is a Hive table: the engine reads the Parquet under its *current*
// location (so moving the location switches readers at once), a CTAS with external_location registers one, and
// DROP TABLE removes the catalog entry and keeps the data (Hive external-table semantics).
import type {
  CatalogProvider,
  CatalogServices,
  HiveColumn,
  SqlCatalog,
  TableHandle,
} from '@loglake/lakehouse';
import { DEFAULT_CATALOG, NotSupportedError, type ParquetTableRegistration } from '@loglake/lakehouse';
import { AwsServiceError } from '../errors';
import type { GlueTableRecord, LocalGlueCatalog } from './catalog';

/** A Glue table's columns (partition keys last), with the Hive type names Glue records; the engine reads them. */
function columnsOf(table: GlueTableRecord): HiveColumn[] {
  const columns = [...(table.StorageDescriptor?.Columns ?? []), ...(table.PartitionKeys ?? [])];
  return columns.map((c) => ({ name: c.Name.toLowerCase(), type: (c.Type ?? 'string').toLowerCase() }));
}

const NO_SUCH_DATABASE = new Set(['EntityNotFoundException', 'InvalidInputException']);

class GlueSqlCatalog implements SqlCatalog {
  readonly name = DEFAULT_CATALOG;
  readonly kind = 'glue' as const;

  constructor(private readonly glue: LocalGlueCatalog) {}

  async schemaExists(schema: string): Promise<boolean> {
    try {
      this.glue.getDatabase(schema);
      return true;
    } catch (error) {
      // No such database, or a name Glue cannot hold (so no database has it); anything else is a failure.
      if (error instanceof AwsServiceError && NO_SUCH_DATABASE.has(error.type)) return false;
      throw error;
    }
  }

  async listTables(schema: string): Promise<string[] | undefined> {
    if (!(await this.schemaExists(schema))) return undefined;
    return this.glue
      .listTables(schema)
      .map((t) => t.Name)
      .sort();
  }

  async loadTable(
    schema: string,
    table: string,
    services: CatalogServices,
  ): Promise<TableHandle | undefined> {
    const record = this.glue.findTable(schema, table);
    if (!record) return undefined;
    return services.parquetTable({
      schema: record.DatabaseName,
      name: record.Name,
      location: record.StorageDescriptor?.Location ?? '',
      columns: columnsOf(record),
      properties: { ...(record.Parameters ?? {}) },
      version: record.VersionId,
      updatedMs: Math.round(record.UpdateTime * 1000),
    });
  }

  async tableExists(schema: string, table: string): Promise<boolean> {
    return this.glue.findTable(schema, table) !== undefined;
  }

  createTable(): Promise<TableHandle> {
    return Promise.reject(
      new NotSupportedError(
        'CREATE TABLE in awsdatacatalog (the local engine creates Iceberg tables in s3tablescatalog/<bucket> and Hive tables by CTAS with external_location)',
      ),
    );
  }

  async dropTable(schema: string, table: string): Promise<boolean> {
    if (!this.glue.findTable(schema, table)) return false;
    this.glue.deleteTable(schema, table);
    return true;
  }

  async registerParquetTable(
    schema: string,
    table: string,
    registration: ParquetTableRegistration,
  ): Promise<void> {
    this.glue.createTable(schema, {
      Name: table,
      TableType: 'EXTERNAL_TABLE',
      Parameters: {
        classification: 'parquet',
        'parquet.compression': registration.compression,
        EXTERNAL: 'TRUE',
      },
      StorageDescriptor: {
        Columns: registration.columns.map((c) => ({ Name: c.name, Type: c.type })),
        Location: registration.location,
        InputFormat: 'org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat',
        OutputFormat: 'org.apache.hadoop.hive.ql.io.parquet.MapredParquetOutputFormat',
        SerdeInfo: { SerializationLibrary: 'org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe' },
      },
    });
  }
}

/** The engine's `awsdatacatalog`, answered from the endpoint's Glue store. */
export function glueSqlCatalog(glue: LocalGlueCatalog): CatalogProvider {
  const catalog = new GlueSqlCatalog(glue);
  return { catalog: (name) => (name.toLowerCase() === DEFAULT_CATALOG ? catalog : undefined) };
}
