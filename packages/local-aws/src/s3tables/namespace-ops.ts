// S3 Tables' namespace operations: create, list, get and delete a table bucket's namespaces. Apart from the bucket
// and table handlers: a namespace has no settings and no version token, only the warehouse's record.
import { LOCAL_ACCOUNT_ID, tableBucketArn } from '../arn';
import { iso, page, type S3TablesContext } from './context';
import type { S3TablesOperations } from './operations';

type NamespaceOperations = Pick<
  S3TablesOperations,
  'CreateNamespace' | 'ListNamespaces' | 'GetNamespace' | 'DeleteNamespace'
>;

export function namespaceOperations(ctx: S3TablesContext): NamespaceOperations {
  const { warehouse, call, bucketOf, region } = ctx;
  const namespaceSummary = (info: { bucket: string; namespace: string; createdAt: Date }) => ({
    namespace: [info.namespace],
    createdAt: iso(info.createdAt),
    createdBy: LOCAL_ACCOUNT_ID,
    ownerAccountId: LOCAL_ACCOUNT_ID,
    namespaceId: `${info.bucket}.${info.namespace}`,
    tableBucketId: info.bucket,
  });
  return {
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
  };
}
