// AWS Glue (awsJson1_1, `AWSGlue.<Op>`): the Data Catalog operations the snapshots unit uses — databases and
// tables, UpdateTable with VersionId compare-and-swap, table versions. Exceptions carry `Message`, as Glue's do.
import { awsJsonService, type ServiceModule } from '../protocol';
import type { JsonStore } from '../store';
import { LocalGlueCatalog, glueError, type GlueTableInput } from './catalog';

export interface GlueOptions {
  store: JsonStore;
  accountId: string;
  /** Share one catalog with other modules (e.g. the SQL engine resolving Glue tables). */
  catalog?: LocalGlueCatalog;
}

function tableInput(input: Record<string, unknown>): GlueTableInput {
  const value = input.TableInput;
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw glueError.invalid('TableInput is required.');
  return value as GlueTableInput;
}

function str(input: Record<string, unknown>, key: string): string | undefined {
  const value = input[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw glueError.invalid(`${key} must be a string.`);
  return value;
}

export function createGlueService(options: GlueOptions): ServiceModule & { catalog: LocalGlueCatalog } {
  const catalog = options.catalog ?? new LocalGlueCatalog(options.store, options.accountId);
  const service = awsJsonService({
    name: 'Glue',
    targetPrefix: 'AWSGlue',
    messageKey: 'Message',
    internalErrorCode: 'InternalServiceException',
    operations: {
      CreateDatabase: async (input) => {
        const db = input.DatabaseInput as Record<string, unknown> | undefined;
        if (!db) throw glueError.invalid('DatabaseInput is required.');
        catalog.createDatabase({
          Name: String(db.Name ?? ''),
          Description: db.Description as string | undefined,
          LocationUri: db.LocationUri as string | undefined,
          Parameters: db.Parameters as Record<string, string> | undefined,
        });
        return {};
      },
      GetDatabase: async (input) => ({ Database: catalog.getDatabase(input.Name) }),
      GetDatabases: async () => ({ DatabaseList: catalog.listDatabases() }),
      DeleteDatabase: async (input) => {
        catalog.deleteDatabase(input.Name);
        return {};
      },
      CreateTable: async (input) => {
        catalog.createTable(input.DatabaseName, tableInput(input));
        return {};
      },
      GetTable: async (input) => ({ Table: catalog.getTable(input.DatabaseName, input.Name) }),
      GetTables: async (input) => ({ TableList: catalog.listTables(input.DatabaseName) }),
      UpdateTable: async (input) => {
        catalog.updateTable(
          input.DatabaseName,
          tableInput(input),
          str(input, 'VersionId'),
          input.SkipArchive === true,
        );
        return {};
      },
      GetTableVersions: async (input) => ({
        TableVersions: catalog
          .tableVersions(input.DatabaseName, input.TableName)
          .map((table) => ({ Table: table, VersionId: table.VersionId })),
      }),
      DeleteTable: async (input) => {
        catalog.deleteTable(input.DatabaseName, input.Name);
        return {};
      },
    },
  });
  return Object.assign(service, { catalog });
}
