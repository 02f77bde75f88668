// Which catalog a Glue request's CatalogId reaches, and Lake Formation's check on the S3 Tables ones. Apart from the
// handlers because every database and table handler goes through it first, in the same order: the CatalogId is
// read, then Lake Formation asked, and only then anything looked up, so a refusal does not tell whether the
// resource exists.
import type { LocalRequest } from '../protocol';
import { wireError } from '../model/wire-errors';
import { glueError } from './catalog';
import { catalogIdOf, catalogOf } from './catalog-id';
import type { GlueCatalogAccess, S3TablesCatalogGuard, S3TablesCatalogNeed } from './operation';
import { s3TablesWriteRefused } from './s3tables-databases';

export function glueCatalogAccess(options: {
  accountId: string;
  /** Whether the S3 Tables catalogs exist (the endpoint has a warehouse). */
  hasS3Tables: boolean;
  guard: S3TablesCatalogGuard | undefined;
}): GlueCatalogAccess {
  const { accountId, hasS3Tables, guard } = options;
  /** The S3 Tables catalog a CatalogId names, or undefined for the default catalog. */
  const tableBucketOf = (catalogId: string | null | undefined): string | undefined => {
    const ref = catalogOf(catalogId, accountId);
    if (ref.kind === 'default') return undefined;
    if (ref.kind === 's3tablesParent' || !hasS3Tables)
      throw glueError.invalid(
        `Catalog ${catalogIdOf(ref, accountId)} holds one catalog per table bucket, not databases: use ${accountId}:s3tablescatalog/<table bucket>.`,
      );
    return ref.bucket;
  };
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
  return { tableBucketOf, s3TablesBucket, refuseInS3Tables, sees };
}
