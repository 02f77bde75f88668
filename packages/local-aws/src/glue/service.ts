// AWS Glue (awsJson1_1, `AWSGlue.<Op>`): the Data Catalog operations the snapshots unit and Terraform's Glue
// resources use — databases (with UpdateDatabase) and tables, UpdateTable with VersionId compare-and-swap, table
// versions, tags — in the default catalog, and the S3 Tables catalogs (`CatalogId <account>:s3tablescatalog/<bucket>`:
// the bucket's namespaces as databases, its tables read-only). Lists page with MaxResults/NextToken. Exceptions carry
// `Message`, as Glue's do. Every request is checked against Glue's model first (models/glue.json).
import type {
  CreateDatabaseRequest,
  CreateTableRequest,
  DeleteDatabaseRequest,
  DeleteTableRequest,
  GetDatabaseRequest,
  GetDatabasesRequest,
  GetTableRequest,
  GetTablesRequest,
  GetTableVersionsRequest,
  GetTagsRequest,
  TagResourceRequest,
  UntagResourceRequest,
  UpdateDatabaseRequest,
  UpdateTableRequest,
} from '@aws-sdk/client-glue';
import type { Warehouse } from '@loglake/lakehouse';
import { serviceApi } from '../model/api';
import type { Caller } from '../iam/principals';
import { awsJsonService, type LocalRequest, type ServiceModule, type WireOperation } from '../protocol';
import type { JsonStore } from '../store';
import { withoutTags, withTags } from '../tags';
import { glueError, LocalGlueCatalog, type GlueTableInput } from './catalog';
import { catalogIdOf, catalogOf } from './catalog-id';
import { S3TablesGlueCatalog, s3TablesWriteRefused } from './s3tables-databases';
import { wireError } from '../model/wire-errors';

export interface GlueOptions {
  store: JsonStore;
  accountId: string;
  /** The S3 Tables catalogs are the warehouse's table buckets. */
  warehouse?: Warehouse;
  /** Share one catalog with other modules (e.g. the SQL engine resolving Glue tables). */
  catalog?: LocalGlueCatalog;
  /** With authorization: Lake Formation's check on the S3 Tables catalogs (authz/glue-lake-formation.ts). */
  s3TablesGuard?: S3TablesCatalogGuard;
}

/** A Glue operation on a database, or a table of it, in an S3 Tables catalog. */
export interface S3TablesCatalogNeed {
  readonly operation:
    | 'GetDatabase'
    | 'GetTables'
    | 'CreateDatabase'
    | 'UpdateDatabase'
    | 'DeleteDatabase'
    | 'CreateTable'
    | 'GetTable'
    | 'GetTableVersions'
    | 'UpdateTable'
    | 'DeleteTable';
  readonly bucket: string;
  readonly database: string;
  readonly table?: string;
}

/** Lake Formation's say on the S3 Tables catalogs, when the endpoint enforces authorization. */
export interface S3TablesCatalogGuard {
  /** Why the caller may not (AccessDeniedException's message), or undefined. */
  refusal(caller: Caller, need: S3TablesCatalogNeed): string | undefined;
  /** Whether a list (GetDatabases, GetTables) shows the caller the database, or the table. */
  seesDatabase(caller: Caller, bucket: string, database: string): boolean;
  seesTable(caller: Caller, bucket: string, database: string, table: string): boolean;
  createdDatabase(caller: Caller, bucket: string, database: string): void;
  droppedDatabase(bucket: string, database: string): void;
}

// Glue answers input that breaks its model with ValidationException ("1 validation error detected: Value … at
// 'databaseInput.name' failed to satisfy constraint: …"); InvalidInputException stays for values the model allows
// and the service refuses.
export const GLUE_API = serviceApi('glue', {
  invalid: (message) => wireError('glue', 'ValidationException', message),
  malformed: (message) => wireError('glue', 'SerializationException', message),
});

interface GlueOperations {
  [operation: string]: WireOperation<never, unknown>;
  CreateDatabase: WireOperation<CreateDatabaseRequest, unknown>;
  GetDatabase: WireOperation<GetDatabaseRequest, unknown>;
  GetDatabases: WireOperation<GetDatabasesRequest, unknown>;
  UpdateDatabase: WireOperation<UpdateDatabaseRequest, unknown>;
  DeleteDatabase: WireOperation<DeleteDatabaseRequest, unknown>;
  CreateTable: WireOperation<CreateTableRequest, unknown>;
  GetTable: WireOperation<GetTableRequest, unknown>;
  GetTables: WireOperation<GetTablesRequest, unknown>;
  UpdateTable: WireOperation<UpdateTableRequest, unknown>;
  GetTableVersions: WireOperation<GetTableVersionsRequest, unknown>;
  DeleteTable: WireOperation<DeleteTableRequest, unknown>;
  GetTags: WireOperation<GetTagsRequest, unknown>;
  TagResource: WireOperation<TagResourceRequest, unknown>;
  UntagResource: WireOperation<UntagResourceRequest, unknown>;
}

// The model has made TableInput present, with a Name, before a handler sees it.
const tableInput = (input: { TableInput?: unknown }) => input.TableInput as GlueTableInput;

/** Glue's list pages: MaxResults (the model allows 1-100 for these), NextToken an opaque offset. */
function page<T>(items: T[], input: { MaxResults?: number | null; NextToken?: string | null }, max = 100) {
  const start = input.NextToken ? decodeToken(input.NextToken) : 0;
  const size = input.MaxResults ?? max;
  const slice = items.slice(start, start + size);
  return { slice, ...(start + size < items.length ? { NextToken: encodeToken(start + size) } : {}) };
}
const encodeToken = (offset: number) => Buffer.from(`glue-offset:${offset}`).toString('base64');
function decodeToken(token: string): number {
  const match = /^glue-offset:(\d+)$/.exec(Buffer.from(token, 'base64').toString('utf8'));
  if (!match)
    throw glueError.invalid(
      `Invalid NextToken ${JSON.stringify(token)}: pass the token the previous page returned.`,
    );
  return Number(match[1]);
}

/** GetTables' Expression: "a regular expression pattern", matched against the whole name. */
function nameFilter(expression: string | null | undefined): (name: string) => boolean {
  if (!expression) return () => true;
  let pattern: RegExp;
  try {
    pattern = new RegExp(`^(?:${expression})$`, 'i');
  } catch {
    throw glueError.invalid(`Expression ${JSON.stringify(expression)} is not a valid regular expression.`);
  }
  return (name) => pattern.test(name);
}

export function createGlueService(options: GlueOptions): ServiceModule & { catalog: LocalGlueCatalog } {
  const catalog = options.catalog ?? new LocalGlueCatalog(options.store, options.accountId);
  const s3tables = options.warehouse
    ? new S3TablesGlueCatalog(options.warehouse, options.accountId)
    : undefined;
  /** The S3 Tables catalog a CatalogId names, or undefined for the default catalog. */
  const tableBucketOf = (catalogId: string | null | undefined): string | undefined => {
    const ref = catalogOf(catalogId, options.accountId);
    if (ref.kind === 'default') return undefined;
    if (ref.kind === 's3tablesParent' || !s3tables)
      throw glueError.invalid(
        `Catalog ${catalogIdOf(ref, options.accountId)} holds one catalog per table bucket, not databases: use ${options.accountId}:s3tablescatalog/<table bucket>.`,
      );
    return ref.bucket;
  };
  const s3t = () => s3tables as S3TablesGlueCatalog;
  const guard = options.s3TablesGuard;
  /**
   * The S3 Tables catalog a CatalogId names (undefined for the default catalog), once Lake Formation allows the
   * operation — before anything is looked up, so a refusal does not tell whether the resource exists.
   */
  const s3TablesBucket = (
    catalogId: string | null | undefined,
    request: LocalRequest,
    need: Omit<S3TablesCatalogNeed, 'bucket'>,
  ): string | undefined => {
    const bucket = tableBucketOf(catalogId);
    if (bucket === undefined || !guard) return bucket;
    const caller = request.caller;
    const refused = caller
      ? guard.refusal(caller, { ...need, bucket })
      : 'The local endpoint enforces Lake Formation here, and the request has no caller.';
    if (refused) throw wireError('glue', 'AccessDeniedException', refused);
    return bucket;
  };
  /**
   * An operation Glue does not serve in an S3 Tables catalog (its writes, its table versions): refused, after the
   * Lake Formation check every Glue path to that catalog makes, so the refusal says nothing the caller may not know.
   */
  const refuseInS3Tables = (
    catalogId: string | null | undefined,
    request: LocalRequest,
    need: Omit<S3TablesCatalogNeed, 'bucket'>,
  ): void => {
    if (s3TablesBucket(catalogId, request, need) !== undefined) throw s3TablesWriteRefused(need.operation);
  };
  /** Whether a list shows the caller this database or table (everything, without authorization). */
  const sees = (request: LocalRequest, bucket: string, database: string, table?: string): boolean => {
    if (!guard) return true;
    const caller = request.caller;
    if (!caller) return false;
    return table === undefined
      ? guard.seesDatabase(caller, bucket, database)
      : guard.seesTable(caller, bucket, database, table);
  };

  /** A Glue resource ARN (`database/<name>`, `table/<db>/<name>`) in the default catalog: its tags' owner. */
  const tagged = (arn: string) => {
    const match = /^arn:aws[a-z-]*:glue:[^:]*:[^:]*:(database|table)\/([^/]+)(?:\/([^/]+))?$/.exec(arn);
    if (!match || (match[1] === 'table') !== (match[3] !== undefined))
      throw glueError.notFound(
        `Resource ${arn} not found: the local Glue keeps tags of databases (arn:aws:glue:<region>:<account>:database/<name>) and tables (…:table/<database>/<name>) of the default catalog.`,
      );
    return match[1] === 'database'
      ? {
          tags: () => catalog.getDatabase(match[2]).Tags,
          set: (tags: Record<string, string>) => catalog.setDatabaseTags(match[2] as string, tags),
        }
      : {
          tags: () => catalog.getTable(match[2], match[3]).Tags,
          set: (tags: Record<string, string>) =>
            catalog.setTableTags(match[2] as string, match[3] as string, tags),
        };
  };
  const tagRefusal = (message: string) => glueError.invalid(message);

  const operations: GlueOperations = {
    CreateDatabase: async ({ DatabaseInput: db, CatalogId, Tags }, request) => {
      const name = db?.Name ?? '';
      const bucket = s3TablesBucket(CatalogId, request, { operation: 'CreateDatabase', database: name });
      if (bucket !== undefined) {
        await s3t().createDatabase(bucket, name);
        if (request.caller) guard?.createdDatabase(request.caller, bucket, name);
        return {};
      }
      catalog.createDatabase({
        Name: db?.Name ?? '',
        Description: db?.Description,
        LocationUri: db?.LocationUri,
        Parameters: db?.Parameters,
        CreateTableDefaultPermissions: db?.CreateTableDefaultPermissions,
        TargetDatabase: db?.TargetDatabase,
        FederatedDatabase: db?.FederatedDatabase,
        Tags: withTags({}, Tags ?? {}, tagRefusal),
      });
      return {};
    },
    GetDatabase: async (input, request) => {
      const bucket = s3TablesBucket(input.CatalogId, request, {
        operation: 'GetDatabase',
        database: input.Name as string,
      });
      if (bucket !== undefined) return { Database: await s3t().database(bucket, input.Name as string) };
      return { Database: catalog.databaseView(catalog.getDatabase(input.Name)) };
    },
    GetDatabases: async (input, request) => {
      const bucket = tableBucketOf(input.CatalogId);
      // Lake Formation lists the databases the caller may see (the others are left out, not refused).
      const all: object[] =
        bucket !== undefined
          ? (await s3t().databases(bucket)).filter((d) => sees(request, bucket, d.Name))
          : catalog.listDatabases().map(catalog.databaseView);
      const { slice, NextToken } = page(all, input);
      return { DatabaseList: slice, ...(NextToken ? { NextToken } : {}) };
    },
    UpdateDatabase: async (input, request) => {
      refuseInS3Tables(input.CatalogId, request, {
        operation: 'UpdateDatabase',
        database: input.Name as string,
      });
      catalog.updateDatabase(input.Name, input.DatabaseInput ?? {});
      return {};
    },
    DeleteDatabase: async (input, request) => {
      const name = input.Name as string;
      const bucket = s3TablesBucket(input.CatalogId, request, {
        operation: 'DeleteDatabase',
        database: name,
      });
      if (bucket !== undefined) {
        await s3t().deleteDatabase(bucket, name);
        guard?.droppedDatabase(bucket, name);
      } else catalog.deleteDatabase(input.Name);
      return {};
    },
    CreateTable: async (input, request) => {
      refuseInS3Tables(input.CatalogId, request, {
        operation: 'CreateTable',
        database: input.DatabaseName as string,
      });
      catalog.createTable(input.DatabaseName, tableInput(input));
      return {};
    },
    GetTable: async (input, request) => {
      const bucket = s3TablesBucket(input.CatalogId, request, {
        operation: 'GetTable',
        database: input.DatabaseName as string,
        table: input.Name as string,
      });
      if (bucket !== undefined)
        return { Table: await s3t().table(bucket, input.DatabaseName as string, input.Name as string) };
      return { Table: catalog.tableView(catalog.getTable(input.DatabaseName, input.Name)) };
    },
    GetTables: async (input, request) => {
      const database = input.DatabaseName as string;
      const bucket = s3TablesBucket(input.CatalogId, request, { operation: 'GetTables', database });
      const matches = nameFilter(input.Expression);
      // Lake Formation lists the tables the caller may describe (the others are left out, not refused).
      const all = (
        (bucket !== undefined
          ? await s3t().tables(bucket, database, (name) => sees(request, bucket, database, name))
          : catalog.listTables(input.DatabaseName).map(catalog.tableView)) as { Name: string }[]
      ).filter((t) => matches(t.Name));
      const { slice, NextToken } = page(all, input);
      return { TableList: slice, ...(NextToken ? { NextToken } : {}) };
    },
    UpdateTable: async (input, request) => {
      refuseInS3Tables(input.CatalogId, request, {
        operation: 'UpdateTable',
        database: input.DatabaseName as string,
        table: tableInput(input).Name,
      });
      catalog.updateTable(input.DatabaseName, tableInput(input), input.VersionId, input.SkipArchive === true);
      return {};
    },
    GetTableVersions: async (input, request) => {
      refuseInS3Tables(input.CatalogId, request, {
        operation: 'GetTableVersions',
        database: input.DatabaseName as string,
        table: input.TableName as string,
      });
      const versions = catalog
        .tableVersions(input.DatabaseName, input.TableName)
        .map((table) => ({ Table: catalog.tableView(table), VersionId: table.VersionId }));
      const { slice, NextToken } = page(versions, input);
      return { TableVersions: slice, ...(NextToken ? { NextToken } : {}) };
    },
    DeleteTable: async (input, request) => {
      refuseInS3Tables(input.CatalogId, request, {
        operation: 'DeleteTable',
        database: input.DatabaseName as string,
        table: input.Name as string,
      });
      catalog.deleteTable(input.DatabaseName, input.Name);
      return {};
    },
    GetTags: async (input) => ({ Tags: tagged(input.ResourceArn as string).tags() ?? {} }),
    TagResource: async (input) => {
      const resource = tagged(input.ResourceArn as string);
      resource.set(withTags(resource.tags(), input.TagsToAdd ?? {}, tagRefusal));
      return {};
    },
    UntagResource: async (input) => {
      const resource = tagged(input.ResourceArn as string);
      resource.set(withoutTags(resource.tags(), input.TagsToRemove ?? []));
      return {};
    },
  };
  const service = awsJsonService({
    name: 'Glue',
    api: GLUE_API,
    messageKey: 'Message',
    internalErrorCode: 'InternalServiceException',
    operations,
    notServed: () =>
      'the local Glue Data Catalog serves the database, table and tag operations the snapshots unit and Terraform use',
  });
  return Object.assign(service, { catalog });
}
