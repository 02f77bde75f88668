// S3 Tables' table operations: create (with the encryption, storage class and tags a table is fixed with), list,
// get, delete and rename, the last two behind the version token. Apart from the metadata location handlers: this is
// a table's lifecycle and its settings' key (the table's UUID), not the commit point.
import type { TableSummary } from '@loglake/lakehouse';
import { LOCAL_ACCOUNT_ID, tableArn } from '../arn';
import { bad, checkToken, iso, page, type S3TablesContext } from './context';
import type { S3TablesOperations } from './operations';
import { columnsFromMetadata } from './schema';
import { DEFAULT_ENCRYPTION, DEFAULT_STORAGE_CLASS } from './settings';
import { checkEncryption, checkTags } from './settings-ops';

type TableOperations = Pick<
  S3TablesOperations,
  'CreateTable' | 'ListTables' | 'GetTable' | 'DeleteTable' | 'RenameTable'
>;

export function tableOperations(ctx: S3TablesContext): TableOperations {
  const { warehouse, call, bucketOf, tableExists, tableIdOf, settings, region } = ctx;
  const tableSummary = async (summary: TableSummary) => ({
    namespace: [summary.namespace],
    name: summary.name,
    type: 'customer' as const,
    tableARN: tableArn(region, summary.bucket, await tableIdOf(summary)),
    createdAt: iso(summary.createdAt),
    modifiedAt: iso(summary.modifiedAt),
    namespaceId: `${summary.bucket}.${summary.namespace}`,
    tableBucketId: summary.bucket,
  });
  return {
    async CreateTable(input) {
      const bucket = bucketOf(input.tableBucketARN);
      const columns = columnsFromMetadata(input.metadata);
      if (input.encryptionConfiguration) checkEncryption(input.encryptionConfiguration);
      if (input.tags) checkTags(input.tags, {});
      const bucketSettings = settings.bucket(bucket);
      const handle = await call(() =>
        // Without metadata, S3 Tables creates the table for its first writer to give a schema (API reference,
        // CreateTable: "metadata" is optional); locally it starts with an empty one.
        warehouse.createTable(bucket, input.namespace as string, input.name as string, {
          columns,
          deferSchema: input.metadata === undefined,
        }),
      );
      const summary = await call(() => warehouse.getTable(bucket, handle.namespace, handle.name));
      const id = (await handle.metadata())['table-uuid'];
      // A table's encryption and storage class are fixed at creation: the request's, else the bucket's
      // (API reference, CreateTable; user guide, "Specifying server-side encryption for tables").
      settings.forgetTable(id);
      settings.updateTable(id, (s) => {
        s.encryption = input.encryptionConfiguration ?? bucketSettings.encryption ?? DEFAULT_ENCRYPTION;
        s.storageClass =
          input.storageClassConfiguration?.storageClass ??
          bucketSettings.storageClass ??
          DEFAULT_STORAGE_CLASS;
        if (input.tags) s.tags = { ...input.tags };
      });
      return { tableARN: tableArn(region, bucket, id), versionToken: summary.versionToken };
    },
    async ListTables(input) {
      const bucket = bucketOf(input.tableBucketARN);
      const all = (await call(() => warehouse.listTables(bucket, input.namespace))).filter((t) =>
        t.name.startsWith(input.prefix ?? ''),
      );
      const { slice, continuationToken } = page(all, input.continuationToken, input.maxTables);
      return { tables: await call(() => Promise.all(slice.map(tableSummary))), continuationToken };
    },
    async GetTable(input) {
      const summary = input.tableArn
        ? await ctx.tableByArn(input.tableArn)
        : await (async () => {
            if (!input.tableBucketARN || !input.namespace || !input.name)
              throw bad('GetTable needs either tableArn, or tableBucketARN with namespace and name.');
            return tableExists(bucketOf(input.tableBucketARN), input.namespace, input.name);
          })();
      const handle = await call(() => warehouse.loadTable(summary.bucket, summary.namespace, summary.name));
      const metadata = await call(() => handle.metadata());
      return {
        name: summary.name,
        type: 'customer',
        tableARN: tableArn(region, summary.bucket, metadata['table-uuid']),
        namespace: [summary.namespace],
        namespaceId: `${summary.bucket}.${summary.namespace}`,
        versionToken: summary.versionToken,
        metadataLocation: summary.metadataLocation,
        warehouseLocation: metadata.location,
        createdAt: iso(summary.createdAt),
        createdBy: LOCAL_ACCOUNT_ID,
        modifiedAt: iso(summary.modifiedAt),
        modifiedBy: LOCAL_ACCOUNT_ID,
        ownerAccountId: LOCAL_ACCOUNT_ID,
        format: 'ICEBERG',
        tableBucketId: summary.bucket,
      };
    },
    async DeleteTable(input) {
      const summary = await tableExists(
        bucketOf(input.tableBucketARN),
        input.namespace as string,
        input.name as string,
      );
      checkToken(summary, input.versionToken);
      const id = await call(() => tableIdOf(summary));
      await call(() => warehouse.dropTable(summary.bucket, summary.namespace, summary.name, { purge: true }));
      settings.forgetTable(id);
    },
    async RenameTable(input) {
      const summary = await tableExists(
        bucketOf(input.tableBucketARN),
        input.namespace as string,
        input.name as string,
      );
      // "versionToken: The version token of the table" — a stale one is a conflict, as for the other writes.
      checkToken(summary, input.versionToken);
      const to = {
        namespace: input.newNamespaceName ?? summary.namespace,
        name: input.newName ?? summary.name,
      };
      if (to.namespace === summary.namespace && to.name === summary.name)
        throw bad('RenameTable needs newNamespaceName or newName different from the current ones.');
      await call(() => warehouse.renameTable(summary.bucket, summary.namespace, summary.name, to));
      ctx.maintenance.renameTable(summary, to);
    },
  };
}
