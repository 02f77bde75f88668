// Glue's table operations, table versions among them: the default catalog's tables (UpdateTable's VersionId
// compare-and-swap, the versions it archives), and an S3 Tables catalog's Iceberg tables, read-only (GetTable,
// GetTables; the writes and GetTableVersions are refused there). Lake Formation is asked first on the S3 Tables
// catalogs (catalog-access.ts). Apart from the database handlers: they share only the catalog access and the pages.
import type { GlueTableInput } from './catalog';
import type { GlueContext, GlueOperations } from './operation';
import { nameFilter, page } from './pages';

type TableOperations = Pick<
  GlueOperations,
  'CreateTable' | 'GetTable' | 'GetTables' | 'UpdateTable' | 'GetTableVersions' | 'DeleteTable'
>;

// The model has made TableInput present, with a Name, before a handler sees it.
const tableInput = (input: { TableInput?: unknown }) => input.TableInput as GlueTableInput;

export function tableOperations(ctx: GlueContext): TableOperations {
  const { catalog, s3t, s3TablesBucket, refuseInS3Tables, sees } = ctx;
  return {
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
  };
}
