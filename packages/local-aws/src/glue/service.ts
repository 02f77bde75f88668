// AWS Glue (awsJson1_1, `AWSGlue.<Op>`): the Data Catalog operations the snapshots unit uses — databases and
// tables, UpdateTable with VersionId compare-and-swap, table versions. Exceptions carry `Message`, as Glue's do.
// Every request is checked against Glue's model first (models/glue.json).
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
  UpdateTableRequest,
} from '@aws-sdk/client-glue';
import { AwsServiceError } from '../errors';
import { serviceApi, type Wire } from '../model/api';
import { awsJsonService, type ServiceModule } from '../protocol';
import type { JsonStore } from '../store';
import { LocalGlueCatalog, type GlueTableInput } from './catalog';

export interface GlueOptions {
  store: JsonStore;
  accountId: string;
  /** Share one catalog with other modules (e.g. the SQL engine resolving Glue tables). */
  catalog?: LocalGlueCatalog;
}

// Glue answers input that breaks its model with ValidationException ("1 validation error detected: Value … at
// 'databaseInput.name' failed to satisfy constraint: …"); InvalidInputException stays for values the model allows
// and the service refuses.
export const GLUE_API = serviceApi('glue', {
  invalid: (message) => new AwsServiceError('ValidationException', 400, message),
  malformed: (message) => new AwsServiceError('SerializationException', 400, message),
});

type Op<I> = (input: Wire<I>) => Promise<unknown>;
interface GlueOperations {
  [operation: string]: Op<never>;
  CreateDatabase: Op<CreateDatabaseRequest>;
  GetDatabase: Op<GetDatabaseRequest>;
  GetDatabases: Op<GetDatabasesRequest>;
  DeleteDatabase: Op<DeleteDatabaseRequest>;
  CreateTable: Op<CreateTableRequest>;
  GetTable: Op<GetTableRequest>;
  GetTables: Op<GetTablesRequest>;
  UpdateTable: Op<UpdateTableRequest>;
  GetTableVersions: Op<GetTableVersionsRequest>;
  DeleteTable: Op<DeleteTableRequest>;
}

// The model has made TableInput present, with a Name, before a handler sees it.
const tableInput = (input: { TableInput?: unknown }) => input.TableInput as GlueTableInput;

export function createGlueService(options: GlueOptions): ServiceModule & { catalog: LocalGlueCatalog } {
  const catalog = options.catalog ?? new LocalGlueCatalog(options.store, options.accountId);
  const operations: GlueOperations = {
    CreateDatabase: async ({ DatabaseInput: db }) => {
      catalog.createDatabase({
        Name: db?.Name ?? '',
        Description: db?.Description,
        LocationUri: db?.LocationUri,
        Parameters: db?.Parameters,
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
      catalog.updateTable(input.DatabaseName, tableInput(input), input.VersionId, input.SkipArchive === true);
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
  };
  const service = awsJsonService({
    name: 'Glue',
    api: GLUE_API,
    messageKey: 'Message',
    internalErrorCode: 'InternalServiceException',
    operations,
    notServed: () =>
      'the local Glue Data Catalog serves the database and table operations the snapshots unit uses',
  });
  return Object.assign(service, { catalog });
}
