// Glue's database operations. A database is the default catalog's record, or in an S3 Tables catalog a table
// bucket's namespace (create, read, list and delete it; UpdateDatabase is refused there); Lake Formation is asked
// first on the S3 Tables catalogs (catalog-access.ts). Apart from the table handlers: they share only the catalog
// access and the pages.
import { withTags } from '../tags';
import type { GlueContext, GlueOperations } from './operation';
import { page } from './pages';
import { tagRefusal } from './tag-operations';

type DatabaseOperations = Pick<
  GlueOperations,
  'CreateDatabase' | 'GetDatabase' | 'GetDatabases' | 'UpdateDatabase' | 'DeleteDatabase'
>;

export function databaseOperations(ctx: GlueContext): DatabaseOperations {
  const { catalog, s3t, guard, tableBucketOf, s3TablesBucket, refuseInS3Tables, sees } = ctx;
  return {
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
  };
}
