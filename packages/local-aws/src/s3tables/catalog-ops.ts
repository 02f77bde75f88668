// S3 Tables' catalog operations over the embedded warehouse: table buckets, namespaces and tables, with the
// version-token compare-and-swaps (UpdateTableMetadataLocation, DeleteTable, RenameTable) and the encryption,
// storage class and tags a bucket or table is created with.
import type { TableSummary } from '@loglake/lakehouse';
import { LOCAL_ACCOUNT_ID, tableArn, tableBucketArn } from '../arn';
import { bad, conflict, VERSION_TOKEN_MISMATCH, type S3TablesContext } from './context';
import type { S3TablesOperations } from './operations';
import { columnsFromMetadata } from './schema';
import { DEFAULT_ENCRYPTION, DEFAULT_STORAGE_CLASS } from './settings';
import { checkEncryption, checkTags } from './settings-ops';

type CatalogOperations = Pick<
  S3TablesOperations,
  | 'CreateTableBucket'
  | 'ListTableBuckets'
  | 'GetTableBucket'
  | 'DeleteTableBucket'
  | 'CreateNamespace'
  | 'ListNamespaces'
  | 'GetNamespace'
  | 'DeleteNamespace'
  | 'CreateTable'
  | 'ListTables'
  | 'GetTable'
  | 'DeleteTable'
  | 'RenameTable'
  | 'GetTableMetadataLocation'
  | 'UpdateTableMetadataLocation'
>;

const iso = (date: Date) => date.toISOString();

/** One page of a list: `continuationToken` is the offset of the next entry (opaque to callers). */
function page<T>(items: T[], token: string | undefined, max: number | undefined) {
  const start = Number(token ?? '0') || 0;
  const size = max ?? 1000;
  return {
    slice: items.slice(start, start + size),
    continuationToken: start + size < items.length ? String(start + size) : undefined,
  };
}

export function catalogOperations(ctx: S3TablesContext): CatalogOperations {
  const { warehouse, call, bucketOf, tableExists, tableIdOf, settings, region } = ctx;
  const bucketSummary = (info: { name: string; createdAt: Date }) => ({
    arn: tableBucketArn(region, info.name),
    name: info.name,
    ownerAccountId: LOCAL_ACCOUNT_ID,
    createdAt: iso(info.createdAt),
    tableBucketId: info.name,
    type: 'customer' as const,
  });
  const namespaceSummary = (info: { bucket: string; namespace: string; createdAt: Date }) => ({
    namespace: [info.namespace],
    createdAt: iso(info.createdAt),
    createdBy: LOCAL_ACCOUNT_ID,
    ownerAccountId: LOCAL_ACCOUNT_ID,
    namespaceId: `${info.bucket}.${info.namespace}`,
    tableBucketId: info.bucket,
  });
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
  const checkToken = (summary: TableSummary, token: string | undefined) => {
    if (token !== undefined && token !== summary.versionToken) throw conflict(VERSION_TOKEN_MISMATCH);
  };

  return {
    async CreateTableBucket(input) {
      const name = input.name as string;
      // The model checks 3-63 characters of [0-9a-z-]; the naming rules add the first and last character
      // (user guide, "Amazon S3 table bucket naming rules").
      if (!/^[a-z0-9].*[a-z0-9]$/.test(name))
        throw bad(
          `Invalid table bucket name ${JSON.stringify(name)}: it must begin and end with a letter or digit.`,
        );
      if (input.encryptionConfiguration) checkEncryption(input.encryptionConfiguration);
      if (input.tags) checkTags(input.tags, {});
      const info = await call(() => warehouse.createTableBucket(name));
      settings.forgetBucket(name);
      settings.updateBucket(name, (s) => {
        if (input.encryptionConfiguration) s.encryption = input.encryptionConfiguration;
        if (input.tags) s.tags = { ...input.tags };
      });
      return { arn: tableBucketArn(region, info.name) };
    },
    async ListTableBuckets(input) {
      // Every local bucket is a customer bucket: `type: aws` lists none.
      const all = (await call(() => warehouse.listTableBuckets())).filter(
        (b) => b.name.startsWith(input.prefix ?? '') && (input.type ?? 'customer') === 'customer',
      );
      const { slice, continuationToken } = page(all, input.continuationToken, input.maxBuckets);
      return { tableBuckets: slice.map(bucketSummary), continuationToken };
    },
    async GetTableBucket(input) {
      return bucketSummary(await call(() => warehouse.getTableBucket(bucketOf(input.tableBucketARN))));
    },
    async DeleteTableBucket(input) {
      const bucket = bucketOf(input.tableBucketARN);
      await call(() => warehouse.deleteTableBucket(bucket));
      settings.forgetBucket(bucket);
    },
    async CreateNamespace(input) {
      const bucket = bucketOf(input.tableBucketARN);
      const namespace = (input.namespace ?? [])[0] as string;
      await call(() => warehouse.createNamespace(bucket, namespace));
      return { tableBucketARN: tableBucketArn(region, bucket), namespace: [namespace] };
    },
    async ListNamespaces(input) {
      const all = (await call(() => warehouse.listNamespaces(bucketOf(input.tableBucketARN)))).filter((n) =>
        n.namespace.startsWith(input.prefix ?? ''),
      );
      const { slice, continuationToken } = page(all, input.continuationToken, input.maxNamespaces);
      return { namespaces: slice.map(namespaceSummary), continuationToken };
    },
    async GetNamespace(input) {
      const bucket = bucketOf(input.tableBucketARN);
      return namespaceSummary(await call(() => warehouse.getNamespace(bucket, input.namespace as string)));
    },
    async DeleteNamespace(input) {
      await call(() => warehouse.deleteNamespace(bucketOf(input.tableBucketARN), input.namespace as string));
    },
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
    async GetTableMetadataLocation(input) {
      const summary = await tableExists(
        bucketOf(input.tableBucketARN),
        input.namespace as string,
        input.name as string,
      );
      const metadata = await call(async () =>
        (await warehouse.loadTable(summary.bucket, summary.namespace, summary.name)).metadata(),
      );
      return {
        versionToken: summary.versionToken,
        metadataLocation: summary.metadataLocation,
        warehouseLocation: metadata.location,
      };
    },
    async UpdateTableMetadataLocation(input) {
      const bucket = bucketOf(input.tableBucketARN);
      const current = await tableExists(bucket, input.namespace as string, input.name as string);
      checkToken(current, input.versionToken);
      const updated = await call(() =>
        warehouse.updateMetadataLocation(
          bucket,
          current.namespace,
          current.name,
          input.versionToken as string,
          input.metadataLocation as string,
        ),
      );
      return {
        name: updated.name,
        tableARN: tableArn(region, bucket, await call(() => tableIdOf(updated))),
        namespace: [updated.namespace],
        versionToken: updated.versionToken,
        metadataLocation: updated.metadataLocation,
      };
    },
  };
}
