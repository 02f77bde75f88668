// AWS Glue (awsJson1_1, `AWSGlue.<Op>`): the Data Catalog operations the snapshots unit and Terraform's Glue
// resources use — databases (with UpdateDatabase) and tables, UpdateTable with VersionId compare-and-swap, table
// versions, tags — in the default catalog, and the S3 Tables catalogs (`CatalogId <account>:s3tablescatalog/<bucket>`:
// the bucket's namespaces as databases, its tables read-only). Lists page with MaxResults/NextToken. Exceptions carry
// `Message`, as Glue's do. Every request is checked against Glue's model first (models/glue.json).
// The handlers live by job: database-operations.ts, table-operations.ts, tag-operations.ts, over catalog-access.ts
// (which catalog a CatalogId reaches, and Lake Formation's check) and pages.ts; operation.ts holds their types.
import type { Warehouse } from '@loglake/lakehouse';
import { serviceApi } from '../model/api';
import { awsJsonService, type ServiceModule } from '../protocol';
import type { JsonStore } from '../store';
import { LocalGlueCatalog } from './catalog';
import { glueCatalogAccess } from './catalog-access';
import { databaseOperations } from './database-operations';
import type { GlueContext, GlueOperations, S3TablesCatalogGuard } from './operation';
import { S3TablesGlueCatalog } from './s3tables-databases';
import { tableOperations } from './table-operations';
import { tagOperations } from './tag-operations';
import { wireError } from '../model/wire-errors';

export type { S3TablesCatalogGuard, S3TablesCatalogNeed } from './operation';

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

// Glue answers input that breaks its model with ValidationException ("1 validation error detected: Value … at
// 'databaseInput.name' failed to satisfy constraint: …"); InvalidInputException stays for values the model allows
// and the service refuses.
export const GLUE_API = serviceApi('glue', {
  invalid: (message) => wireError('glue', 'ValidationException', message),
  malformed: (message) => wireError('glue', 'SerializationException', message),
});

export function createGlueService(options: GlueOptions): ServiceModule & { catalog: LocalGlueCatalog } {
  const catalog = options.catalog ?? new LocalGlueCatalog(options.store, options.accountId);
  const s3tables = options.warehouse
    ? new S3TablesGlueCatalog(options.warehouse, options.accountId)
    : undefined;
  const guard = options.s3TablesGuard;
  const ctx: GlueContext = {
    catalog,
    s3t: () => s3tables as S3TablesGlueCatalog,
    guard,
    ...glueCatalogAccess({ accountId: options.accountId, hasS3Tables: s3tables !== undefined, guard }),
  };
  const operations: GlueOperations = {
    ...databaseOperations(ctx),
    ...tableOperations(ctx),
    ...tagOperations(catalog),
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
