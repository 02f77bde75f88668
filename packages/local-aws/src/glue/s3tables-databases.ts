// An S3 Tables catalog as Glue shows it (`CatalogId <account>:s3tablescatalog/<bucket>`): the table bucket's
// namespaces are its databases and their Iceberg tables its tables (S3 User Guide, "Integrating S3 Tables with AWS
// analytics services"). Databases can be created and deleted here (they are namespaces); tables are created and
// changed through S3 Tables, Athena or the Iceberg REST endpoint, and read here.
import type { Schema } from '@loglake/lakehouse/iceberg';
import type { TableSummary, Warehouse } from '@loglake/lakehouse';
import { glueErrorFor } from '../engine-errors';
import { glueError } from './catalog';

export interface S3TablesGlueDatabase {
  Name: string;
  CatalogId: string;
  CreateTime: number;
  Parameters: Record<string, string>;
}

export interface S3TablesGlueTable {
  Name: string;
  DatabaseName: string;
  CatalogId: string;
  CreateTime: number;
  UpdateTime: number;
  TableType: 'EXTERNAL_TABLE';
  Parameters: Record<string, string>;
  StorageDescriptor: { Location: string; Columns: { Name: string; Type: string }[] };
  VersionId: string;
  IsRegisteredWithLakeFormation: boolean;
}

const seconds = (date: Date) => date.getTime() / 1000;

export class S3TablesGlueCatalog {
  constructor(
    private readonly warehouse: Warehouse,
    private readonly accountId: string,
  ) {}

  private catalogId = (bucket: string) => `${this.accountId}:s3tablescatalog/${bucket}`;

  private async call<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw glueErrorFor(error);
    }
  }

  async databases(bucket: string): Promise<S3TablesGlueDatabase[]> {
    const namespaces = await this.call(() => this.warehouse.listNamespaces(bucket));
    return namespaces.map((n) => this.databaseView(n.bucket, n.namespace, n.createdAt));
  }

  async database(bucket: string, name: string): Promise<S3TablesGlueDatabase> {
    const n = await this.call(() => this.warehouse.getNamespace(bucket, name));
    return this.databaseView(n.bucket, n.namespace, n.createdAt);
  }

  async createDatabase(bucket: string, name: string): Promise<void> {
    await this.call(() => this.warehouse.createNamespace(bucket, name));
  }

  /** A namespace that still has tables is not deleted (its tables hold data; drop them first). */
  async deleteDatabase(bucket: string, name: string): Promise<void> {
    await this.call(() => this.warehouse.deleteNamespace(bucket, name));
  }

  /** The database's tables (those `shown` keeps: only theirs is read). */
  async tables(
    bucket: string,
    database: string,
    shown: (table: string) => boolean = () => true,
  ): Promise<S3TablesGlueTable[]> {
    await this.database(bucket, database);
    const summaries = await this.call(() => this.warehouse.listTables(bucket, database));
    return Promise.all(summaries.filter((s) => shown(s.name)).map((s) => this.tableView(s)));
  }

  async table(bucket: string, database: string, name: string): Promise<S3TablesGlueTable> {
    return this.tableView(await this.call(() => this.warehouse.getTable(bucket, database, name)));
  }

  private databaseView(bucket: string, name: string, createdAt: Date): S3TablesGlueDatabase {
    return { Name: name, CatalogId: this.catalogId(bucket), CreateTime: seconds(createdAt), Parameters: {} };
  }

  private async tableView(summary: TableSummary): Promise<S3TablesGlueTable> {
    const metadata = await this.call(async () =>
      (await this.warehouse.loadTable(summary.bucket, summary.namespace, summary.name)).metadata(),
    );
    const schema = metadata.schemas.find((s) => s['schema-id'] === metadata['current-schema-id']);
    return {
      Name: summary.name,
      DatabaseName: summary.namespace,
      CatalogId: this.catalogId(summary.bucket),
      CreateTime: seconds(summary.createdAt),
      UpdateTime: seconds(summary.modifiedAt),
      TableType: 'EXTERNAL_TABLE',
      Parameters: { table_type: 'ICEBERG', metadata_location: summary.metadataLocation },
      StorageDescriptor: { Location: metadata.location, Columns: columnsOf(schema) },
      VersionId: summary.versionToken,
      IsRegisteredWithLakeFormation: true,
    };
  }
}

/** Iceberg's primitive types by the names Glue's catalog uses for them (Hive's: long is bigint, uuid a string). */
const GLUE_TYPES: Record<string, string> = {
  long: 'bigint',
  int: 'int',
  integer: 'int',
  uuid: 'string',
  timestamptz: 'timestamp',
  time: 'string',
};

function columnsOf(schema: Schema | undefined): { Name: string; Type: string }[] {
  return (schema?.fields ?? []).map((f) => ({ Name: f.name, Type: GLUE_TYPES[f.type] ?? f.type }));
}

export const s3TablesWriteRefused = (what: string) =>
  glueError.invalid(
    `${what} in an S3 Tables catalog is not served through Glue locally: create and change its tables with S3 Tables, Athena or the Iceberg REST endpoint.`,
  );
