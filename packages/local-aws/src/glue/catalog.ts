// The Glue Data Catalog's default catalog (AwsDataCatalog), as far as the lab uses it: databases and Hive-style
// tables (the snapshots' Parquet tables), persisted in the endpoint's JSON store. Table updates are a
// compare-and-swap on VersionId like Glue's UpdateTable, and each update keeps the previous version (GetTableVersions),
// so a publish is atomic: a reader resolving a table sees one complete version.
import type { JsonStore } from '../store';
import { wireError } from '../model/wire-errors';

export interface GlueColumn {
  Name: string;
  Type?: string;
  Comment?: string;
}

export interface GlueStorageDescriptor {
  Columns?: GlueColumn[];
  Location?: string;
  InputFormat?: string;
  OutputFormat?: string;
  Compressed?: boolean;
  SerdeInfo?: { Name?: string; SerializationLibrary?: string; Parameters?: Record<string, string> };
  Parameters?: Record<string, string>;
  [key: string]: unknown;
}

export interface GlueTableInput {
  Name: string;
  Description?: string;
  Owner?: string;
  Retention?: number;
  StorageDescriptor?: GlueStorageDescriptor;
  PartitionKeys?: GlueColumn[];
  TableType?: string;
  Parameters?: Record<string, string>;
  ViewOriginalText?: string;
  ViewExpandedText?: string;
}

export interface GlueTableRecord extends GlueTableInput {
  DatabaseName: string;
  CatalogId: string;
  CreateTime: number;
  UpdateTime: number;
  VersionId: string;
  /** The table's tags (TagResource): kept with it, not part of GetTable. */
  Tags?: Record<string, string>;
}

export interface GlueDatabaseRecord {
  Name: string;
  Description?: string;
  LocationUri?: string;
  Parameters?: Record<string, string>;
  /** Lake Formation's default grants on new tables, echoed as given (not enforced on the default catalog). */
  CreateTableDefaultPermissions?: unknown[];
  TargetDatabase?: unknown;
  FederatedDatabase?: unknown;
  CatalogId: string;
  CreateTime: number;
  /** The database's tags (CreateDatabase's Tags, TagResource): kept with it, not part of GetDatabase. */
  Tags?: Record<string, string>;
}

const NAME = /^[a-z0-9_][a-z0-9_.-]{0,254}$/;

export const glueError = {
  notFound: (message: string) => wireError('glue', 'EntityNotFoundException', message),
  exists: (message: string) => wireError('glue', 'AlreadyExistsException', message),
  invalid: (message: string) => wireError('glue', 'InvalidInputException', message),
  conflict: (message: string) => wireError('glue', 'ConcurrentModificationException', message),
};

/** Glue stores names in lower case and refuses characters outside its pattern. */
function checkName(kind: string, raw: unknown): string {
  if (typeof raw !== 'string' || raw.length === 0) throw glueError.invalid(`${kind} name is required.`);
  const name = raw.toLowerCase();
  if (!NAME.test(name)) throw glueError.invalid(`${kind} name ${JSON.stringify(raw)} is not valid.`);
  return name;
}

export class LocalGlueCatalog {
  constructor(
    private readonly store: JsonStore,
    readonly catalogId: string,
  ) {}

  private dbKey = (name: string) => ['glue', 'databases', name];
  private tableKey = (db: string, name: string) => ['glue', 'tables', db, name];
  private versionKey = (db: string, name: string, version: string) => ['glue', 'versions', db, name, version];

  createDatabase(input: Omit<GlueDatabaseRecord, 'CatalogId' | 'CreateTime'>): GlueDatabaseRecord {
    const name = checkName('Database', input.Name);
    if (this.store.read(this.dbKey(name))) throw glueError.exists(`Database ${name} already exists.`);
    const record: GlueDatabaseRecord = {
      ...(Object.fromEntries(
        Object.entries(input).filter(([, v]) => v !== undefined && v !== null),
      ) as typeof input),
      Name: name,
      CatalogId: this.catalogId,
      CreateTime: Date.now() / 1000,
    };
    if (record.Tags && Object.keys(record.Tags).length === 0) delete record.Tags;
    this.store.write(this.dbKey(name), record);
    return record;
  }

  getDatabase(raw: unknown): GlueDatabaseRecord {
    const name = checkName('Database', raw);
    const record = this.store.read<GlueDatabaseRecord>(this.dbKey(name));
    if (!record) throw glueError.notFound(`Database ${name} not found.`);
    return record;
  }

  /** A database as GetDatabase answers it (its tags are GetTags'). */
  databaseView = (record: GlueDatabaseRecord): Omit<GlueDatabaseRecord, 'Tags'> => {
    const { Tags: _tags, ...view } = record;
    return view;
  };

  /** A table as GetTable answers it (its tags are GetTags'). */
  tableView = (record: GlueTableRecord): Omit<GlueTableRecord, 'Tags'> => {
    const { Tags: _tags, ...view } = record;
    return view;
  };

  /** Glue's UpdateDatabase: the database's definition replaced; its name stays (a rename is refused). */
  updateDatabase(
    raw: unknown,
    input: {
      Name?: string | null;
      Description?: string | null;
      LocationUri?: string | null;
      Parameters?: Record<string, string> | null;
      CreateTableDefaultPermissions?: unknown[] | null;
      TargetDatabase?: unknown;
      FederatedDatabase?: unknown;
    },
  ): GlueDatabaseRecord {
    const current = this.getDatabase(raw);
    if (input.Name && input.Name.toLowerCase() !== current.Name)
      throw glueError.invalid(
        `UpdateDatabase cannot rename database ${current.Name} to ${input.Name}: create the new database and move its tables.`,
      );
    const next: GlueDatabaseRecord = {
      Name: current.Name,
      CatalogId: current.CatalogId,
      CreateTime: current.CreateTime,
      ...(input.Description != null ? { Description: input.Description } : {}),
      ...(input.LocationUri != null ? { LocationUri: input.LocationUri } : {}),
      ...(input.Parameters != null ? { Parameters: input.Parameters } : {}),
      ...(input.CreateTableDefaultPermissions != null
        ? { CreateTableDefaultPermissions: input.CreateTableDefaultPermissions }
        : {}),
      ...(input.TargetDatabase != null ? { TargetDatabase: input.TargetDatabase } : {}),
      ...(input.FederatedDatabase != null ? { FederatedDatabase: input.FederatedDatabase } : {}),
      ...(current.Tags ? { Tags: current.Tags } : {}),
    };
    this.store.write(this.dbKey(current.Name), next);
    return next;
  }

  setDatabaseTags(raw: string, tags: Record<string, string>): void {
    const current = this.getDatabase(raw);
    this.store.write(this.dbKey(current.Name), { ...current, Tags: tags });
  }

  setTableTags(rawDb: string, rawName: string, tags: Record<string, string>): void {
    const current = this.getTable(rawDb, rawName);
    this.store.write(this.tableKey(current.DatabaseName, current.Name), { ...current, Tags: tags });
  }

  listDatabases(): GlueDatabaseRecord[] {
    return this.store
      .list(['glue', 'databases'])
      .flatMap((name) => this.store.read<GlueDatabaseRecord>(this.dbKey(name)) ?? []);
  }

  deleteDatabase(raw: unknown): void {
    const db = this.getDatabase(raw).Name;
    for (const table of this.listTables(db)) this.deleteTable(db, table.Name);
    this.store.delete(this.dbKey(db));
  }

  createTable(rawDb: unknown, input: GlueTableInput): GlueTableRecord {
    const db = this.getDatabase(rawDb).Name;
    const name = checkName('Table', input.Name);
    if (this.store.read(this.tableKey(db, name)))
      throw glueError.exists(`Table ${db}.${name} already exists.`);
    const now = Date.now() / 1000;
    const record: GlueTableRecord = {
      ...input,
      Name: name,
      DatabaseName: db,
      CatalogId: this.catalogId,
      CreateTime: now,
      UpdateTime: now,
      VersionId: '0',
    };
    this.store.write(this.tableKey(db, name), record);
    return record;
  }

  getTable(rawDb: unknown, rawName: unknown): GlueTableRecord {
    const db = this.getDatabase(rawDb).Name;
    const name = checkName('Table', rawName);
    const record = this.store.read<GlueTableRecord>(this.tableKey(db, name));
    if (!record) throw glueError.notFound(`Table ${name} not found in database ${db}.`);
    return record;
  }

  /** Like getTable, without the errors: what a query engine resolving a name calls. */
  findTable(db: string, name: string): GlueTableRecord | undefined {
    // The same name rules as every other lookup: a name Glue cannot hold names no table.
    const [database, table] = [db.toLowerCase(), name.toLowerCase()];
    if (!NAME.test(database) || !NAME.test(table)) return undefined;
    return this.store.read<GlueTableRecord>(this.tableKey(database, table));
  }

  listTables(rawDb: unknown): GlueTableRecord[] {
    const db = this.getDatabase(rawDb).Name;
    return this.store
      .list(['glue', 'tables', db])
      .flatMap((name) => this.store.read<GlueTableRecord>(this.tableKey(db, name)) ?? []);
  }

  /** Glue's UpdateTable: replaces the table's definition; with VersionId, only if it is still the current one. */
  updateTable(
    rawDb: unknown,
    input: GlueTableInput,
    versionId?: string,
    skipArchive = false,
  ): GlueTableRecord {
    const current = this.getTable(rawDb, input.Name);
    if (versionId !== undefined && versionId !== current.VersionId) {
      throw glueError.conflict(
        `Table ${current.DatabaseName}.${current.Name} was updated concurrently: version ${versionId} is not the current version ${current.VersionId}.`,
      );
    }
    if (!skipArchive)
      this.store.write(this.versionKey(current.DatabaseName, current.Name, current.VersionId), current);
    const next: GlueTableRecord = {
      ...input,
      Name: current.Name,
      DatabaseName: current.DatabaseName,
      CatalogId: this.catalogId,
      CreateTime: current.CreateTime,
      UpdateTime: Date.now() / 1000,
      VersionId: String(Number(current.VersionId) + 1),
      ...(current.Tags ? { Tags: current.Tags } : {}),
    };
    // One atomic file replace (temp + rename): readers see the old or the new definition.
    this.store.write(this.tableKey(current.DatabaseName, current.Name), next);
    return next;
  }

  tableVersions(rawDb: unknown, rawName: unknown): GlueTableRecord[] {
    const current = this.getTable(rawDb, rawName);
    const old = this.store
      .list(['glue', 'versions', current.DatabaseName, current.Name])
      .flatMap(
        (v) => this.store.read<GlueTableRecord>(this.versionKey(current.DatabaseName, current.Name, v)) ?? [],
      );
    return [current, ...old].sort((a, b) => Number(b.VersionId) - Number(a.VersionId));
  }

  deleteTable(rawDb: unknown, rawName: unknown): void {
    const table = this.getTable(rawDb, rawName);
    this.store.delete(this.tableKey(table.DatabaseName, table.Name));
  }
}
