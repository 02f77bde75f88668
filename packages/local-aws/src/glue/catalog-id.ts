// Glue's CatalogId, as the Data Catalog reads it: absent or the account id is the default catalog (AwsDataCatalog);
// `<account>:s3tablescatalog/<table bucket>` is the catalog the S3 Tables integration federates for one table
// bucket, whose databases are the bucket's namespaces (S3 User Guide, "Integrating S3 Tables with AWS analytics
// services": `--catalog-id 111122223333:s3tablescatalog/amzn-s3-demo-table-bucket`). The parent
// `<account>:s3tablescatalog` holds catalogs, not databases. Any other id names a catalog the endpoint does not have.
import { LOCAL_ACCOUNT_ID } from '../arn';
import { glueError } from './catalog';

export type GlueCatalogRef =
  { kind: 'default' } | { kind: 's3tables'; bucket: string } | { kind: 's3tablesParent' };

export function catalogOf(
  catalogId: string | null | undefined,
  accountId: string = LOCAL_ACCOUNT_ID,
): GlueCatalogRef {
  if (catalogId === undefined || catalogId === null || catalogId === accountId) return { kind: 'default' };
  const match = /^(\d{12}):s3tablescatalog(?:\/([a-z0-9][a-z0-9-]{1,61}[a-z0-9]))?$/.exec(catalogId);
  if (match && match[1] === accountId)
    return match[2] ? { kind: 's3tables', bucket: match[2] } : { kind: 's3tablesParent' };
  throw glueError.notFound(
    `Catalog ${catalogId} not found: the local Data Catalog has the account's default catalog (${accountId}) and one ` +
      `catalog per table bucket (${accountId}:s3tablescatalog/<table bucket>).`,
  );
}

/** The CatalogId Glue reports for a catalog. */
export function catalogIdOf(ref: GlueCatalogRef, accountId: string = LOCAL_ACCOUNT_ID): string {
  if (ref.kind === 'default') return accountId;
  return ref.kind === 's3tables'
    ? `${accountId}:s3tablescatalog/${ref.bucket}`
    : `${accountId}:s3tablescatalog`;
}
