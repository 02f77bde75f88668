// S3 Tables' table bucket operations: create (with the naming rules, encryption and tags it is created with), list,
// get and delete. Apart from the namespace and table handlers: a bucket's settings start and end here.
import { LOCAL_ACCOUNT_ID, tableBucketArn } from '../arn';
import { bad, iso, page, type S3TablesContext } from './context';
import type { S3TablesOperations } from './operations';
import { checkEncryption, checkTags } from './settings-ops';

type BucketOperations = Pick<
  S3TablesOperations,
  'CreateTableBucket' | 'ListTableBuckets' | 'GetTableBucket' | 'DeleteTableBucket'
>;

export function bucketOperations(ctx: S3TablesContext): BucketOperations {
  const { warehouse, call, bucketOf, settings, region } = ctx;
  const bucketSummary = (info: { name: string; createdAt: Date }) => ({
    arn: tableBucketArn(region, info.name),
    name: info.name,
    ownerAccountId: LOCAL_ACCOUNT_ID,
    createdAt: iso(info.createdAt),
    tableBucketId: info.name,
    type: 'customer' as const,
  });
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
  };
}
