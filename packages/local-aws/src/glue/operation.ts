// What the Glue handlers share, types only: the operations by name (typed with the SDK's requests), the Lake
// Formation guard's shape on the S3 Tables catalogs (authz/glue-lake-formation.ts implements it), and the context a
// handler module is built from. Kept apart so the handler modules and service.ts import one another's types
// without a cycle.
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
import type { Caller } from '../iam/principals';
import type { LocalRequest, WireOperation } from '../protocol';
import type { LocalGlueCatalog } from './catalog';
import type { S3TablesGlueCatalog } from './s3tables-databases';

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

export interface GlueOperations {
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

/** How a handler reaches a catalog: the default one, or an S3 Tables one once Lake Formation allows it. */
export interface GlueCatalogAccess {
  /** The S3 Tables catalog a CatalogId names, or undefined for the default catalog (no Lake Formation check). */
  tableBucketOf(catalogId: string | null | undefined): string | undefined;
  /** The same, once Lake Formation allows the operation (before anything is looked up). */
  s3TablesBucket(
    catalogId: string | null | undefined,
    request: LocalRequest,
    need: Omit<S3TablesCatalogNeed, 'bucket'>,
  ): string | undefined;
  /** Refuses an operation Glue does not serve in an S3 Tables catalog, after the Lake Formation check. */
  refuseInS3Tables(
    catalogId: string | null | undefined,
    request: LocalRequest,
    need: Omit<S3TablesCatalogNeed, 'bucket'>,
  ): void;
  /** Whether a list shows the caller this database or table (everything, without authorization). */
  sees(request: LocalRequest, bucket: string, database: string, table?: string): boolean;
}

export interface GlueContext extends GlueCatalogAccess {
  /** The default catalog. */
  readonly catalog: LocalGlueCatalog;
  /** The S3 Tables catalogs; only called once `tableBucketOf` named a bucket, which needs a warehouse. */
  s3t(): S3TablesGlueCatalog;
  readonly guard: S3TablesCatalogGuard | undefined;
}
