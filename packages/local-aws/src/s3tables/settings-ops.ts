// S3 Tables' settings operations: encryption (SSE-S3 by default, SSE-KMS accepted and recorded), storage class,
// metrics configuration, tags on table buckets and tables, replication configuration (recorded and reported; the
// local endpoint does not replicate), and record expiration (refused: AWS offers it for AWS managed tables only).
import { randomUUID } from 'node:crypto';
import type { TableSummary } from '@loglake/lakehouse';
import { tableBucketArn, tableFromArn } from '../arn';
import { bad, conflict, methodNotAllowed, notFound, type S3TablesContext } from './context';
import type { S3TablesOperations } from './operations';
import { DEFAULT_ENCRYPTION, DEFAULT_STORAGE_CLASS, type Encryption, type Tags } from './settings';

type SettingsOperations = Pick<
  S3TablesOperations,
  | 'GetTableBucketEncryption'
  | 'PutTableBucketEncryption'
  | 'DeleteTableBucketEncryption'
  | 'GetTableEncryption'
  | 'GetTableBucketStorageClass'
  | 'PutTableBucketStorageClass'
  | 'GetTableStorageClass'
  | 'GetTableBucketMetricsConfiguration'
  | 'PutTableBucketMetricsConfiguration'
  | 'DeleteTableBucketMetricsConfiguration'
  | 'ListTagsForResource'
  | 'TagResource'
  | 'UntagResource'
  | 'GetTableBucketReplication'
  | 'PutTableBucketReplication'
  | 'DeleteTableBucketReplication'
  | 'GetTableReplication'
  | 'PutTableReplication'
  | 'DeleteTableReplication'
  | 'GetTableReplicationStatus'
  | 'GetTableRecordExpirationConfiguration'
  | 'PutTableRecordExpirationConfiguration'
  | 'GetTableRecordExpirationJobStatus'
>;

/** "Each table bucket and table can have up to 50 tags" (user guide, "Using tags with S3 table buckets"). */
const MAX_TAGS = 50;

/**
 * SSE-KMS names its key; SSE-S3 has none ("kmsKeyArn … required only when sseAlgorithm is set to aws:kms",
 * API reference, EncryptionConfiguration). A key with AES256 is not documented either way: refused locally.
 */
export function checkEncryption(encryption: Encryption): void {
  if (encryption.sseAlgorithm === 'aws:kms' && !encryption.kmsKeyArn)
    throw bad(
      'kmsKeyArn is required when sseAlgorithm is aws:kms: give the ARN of the KMS key to encrypt with.',
    );
  if (encryption.sseAlgorithm === 'AES256' && encryption.kmsKeyArn)
    throw bad('kmsKeyArn is only for sseAlgorithm aws:kms: remove it, or use aws:kms.');
}

/** Tags after adding `added` to `current`: at most 50, and `aws:` keys are AWS's own. */
export function checkTags(added: Tags, current: Tags): Tags {
  const reserved = Object.keys(added).find((key) => key.toLowerCase().startsWith('aws:'));
  if (reserved)
    throw bad(`Tag key ${JSON.stringify(reserved)} starts with aws:, which is reserved for AWS's own tags.`);
  const merged = { ...current, ...added };
  if (Object.keys(merged).length > MAX_TAGS)
    throw bad(
      `A resource can have at most ${MAX_TAGS} tags; this would give it ${Object.keys(merged).length}.`,
    );
  return merged;
}

export function settingsOperations(ctx: S3TablesContext): SettingsOperations {
  const { warehouse, settings, region, bucketOf, call, tableExists, tableIdOf } = ctx;
  const existingBucket = async (arn: string | undefined) => {
    const bucket = bucketOf(arn);
    await call(() => warehouse.getTableBucket(bucket));
    return bucket;
  };
  const tableId = async (input: { tableBucketARN?: string; namespace?: string; name?: string }) =>
    call(async () =>
      tableIdOf(
        await tableExists(bucketOf(input.tableBucketARN), input.namespace as string, input.name as string),
      ),
    );
  /** A tag operation's resource: a table (by its ARN) or a table bucket. */
  const resource = async (arn: string) => {
    if (tableFromArn(arn)) return { table: await tableIdFromArn(arn) };
    return { bucket: await existingBucket(arn) };
  };
  const tableIdFromArn = async (arn: string) => call(async () => tableIdOf(await ctx.tableByArn(arn)));
  const newToken = () => randomUUID();
  const checkVersion = (current: { versionToken: string } | undefined, given: string | undefined) => {
    if (current && given !== undefined && given !== current.versionToken)
      throw conflict('Provided version token does not match the replication configuration version token.');
  };
  /** A Put's new replication configuration, with a new version token (the given one must be the current one's). */
  const replace = <C>(
    current: { versionToken: string } | undefined,
    input: { versionToken?: string; configuration?: C },
  ) => {
    checkVersion(current, input.versionToken);
    return { configuration: input.configuration as C, versionToken: newToken() };
  };
  const replicationOf = (summary: TableSummary, id: string) =>
    settings.table(id).replication ?? settings.bucket(summary.bucket).replication;

  return {
    async GetTableBucketEncryption(input) {
      return {
        encryptionConfiguration:
          settings.bucket(await existingBucket(input.tableBucketARN)).encryption ?? DEFAULT_ENCRYPTION,
      };
    },
    async PutTableBucketEncryption(input) {
      const encryption = input.encryptionConfiguration as Encryption;
      checkEncryption(encryption);
      settings.updateBucket(await existingBucket(input.tableBucketARN), (s) => (s.encryption = encryption));
    },
    async DeleteTableBucketEncryption(input) {
      // Back to the default, SSE-S3: tables created from now on use it; existing tables keep theirs.
      settings.updateBucket(await existingBucket(input.tableBucketARN), (s) => delete s.encryption);
    },
    async GetTableEncryption(input) {
      return { encryptionConfiguration: settings.table(await tableId(input)).encryption };
    },
    async GetTableBucketStorageClass(input) {
      const storageClass =
        settings.bucket(await existingBucket(input.tableBucketARN)).storageClass ?? DEFAULT_STORAGE_CLASS;
      return { storageClassConfiguration: { storageClass } };
    },
    async PutTableBucketStorageClass(input) {
      // The bucket's default for tables created from now on (existing tables keep theirs).
      const storageClass = input.storageClassConfiguration?.storageClass ?? DEFAULT_STORAGE_CLASS;
      settings.updateBucket(
        await existingBucket(input.tableBucketARN),
        (s) => (s.storageClass = storageClass),
      );
    },
    async GetTableStorageClass(input) {
      return {
        storageClassConfiguration: { storageClass: settings.table(await tableId(input)).storageClass },
      };
    },
    async GetTableBucketMetricsConfiguration(input) {
      const bucket = await existingBucket(input.tableBucketARN);
      const id = settings.bucket(bucket).metricsId;
      if (id === undefined) throw notFound('The table bucket has no metrics configuration.');
      return { tableBucketARN: tableBucketArn(region, bucket), id };
    },
    async PutTableBucketMetricsConfiguration(input) {
      settings.updateBucket(await existingBucket(input.tableBucketARN), (s) => (s.metricsId ??= newToken()));
    },
    async DeleteTableBucketMetricsConfiguration(input) {
      settings.updateBucket(await existingBucket(input.tableBucketARN), (s) => delete s.metricsId);
    },
    async ListTagsForResource(input) {
      const target = await resource(input.resourceArn as string);
      const tags = target.table
        ? settings.table(target.table).tags
        : settings.bucket(target.bucket as string).tags;
      return { tags: tags ?? {} };
    },
    async TagResource(input) {
      const added = input.tags ?? {};
      const target = await resource(input.resourceArn as string);
      if (target.table) settings.updateTable(target.table, (s) => (s.tags = checkTags(added, s.tags ?? {})));
      else settings.updateBucket(target.bucket as string, (s) => (s.tags = checkTags(added, s.tags ?? {})));
      return {};
    },
    async UntagResource(input) {
      const remove = (tags: Tags | undefined) =>
        Object.fromEntries(
          Object.entries(tags ?? {}).filter(([key]) => !(input.tagKeys ?? []).includes(key)),
        );
      const target = await resource(input.resourceArn as string);
      if (target.table) settings.updateTable(target.table, (s) => (s.tags = remove(s.tags)));
      else settings.updateBucket(target.bucket as string, (s) => (s.tags = remove(s.tags)));
      return {};
    },
    async GetTableBucketReplication(input) {
      const replication = settings.bucket(await existingBucket(input.tableBucketARN)).replication;
      if (!replication) throw notFound('The table bucket has no replication configuration.');
      return replication;
    },
    async PutTableBucketReplication(input) {
      const bucket = await existingBucket(input.tableBucketARN);
      const replication = replace(settings.bucket(bucket).replication, input);
      settings.updateBucket(bucket, (s) => (s.replication = replication));
      return { versionToken: replication.versionToken, status: 'Success' };
    },
    async DeleteTableBucketReplication(input) {
      const bucket = await existingBucket(input.tableBucketARN);
      const current = settings.bucket(bucket).replication;
      if (!current) throw notFound('The table bucket has no replication configuration.');
      checkVersion(current, input.versionToken);
      settings.updateBucket(bucket, (s) => delete s.replication);
    },
    async GetTableReplication(input) {
      const replication = settings.table(await tableIdFromArn(input.tableArn as string)).replication;
      if (!replication) throw notFound('The table has no replication configuration.');
      return replication;
    },
    async PutTableReplication(input) {
      const id = await tableIdFromArn(input.tableArn as string);
      const replication = replace(settings.table(id).replication, input);
      settings.updateTable(id, (s) => (s.replication = replication));
      return { versionToken: replication.versionToken, status: 'Success' };
    },
    async DeleteTableReplication(input) {
      const id = await tableIdFromArn(input.tableArn as string);
      const current = settings.table(id).replication;
      if (!current) throw notFound('The table has no replication configuration.');
      checkVersion(current, input.versionToken);
      settings.updateTable(id, (s) => delete s.replication);
    },
    async GetTableReplicationStatus(input) {
      const summary = await ctx.tableByArn(input.tableArn as string);
      const replication = replicationOf(summary, await call(() => tableIdOf(summary)));
      if (!replication)
        throw notFound("The table has no replication configuration (neither its own nor its bucket's).");
      // Recorded, never carried out: each destination reports that, rather than a replication that will not come.
      const destinations = replication.configuration.rules?.flatMap((rule) => rule.destinations ?? []) ?? [];
      return {
        sourceTableArn: input.tableArn as string,
        destinations: destinations.map((d) => ({
          replicationStatus: 'failed' as const,
          destinationTableBucketArn: d.destinationTableBucketARN as string,
          failureMessage:
            'The local endpoint records replication configurations but does not replicate tables.',
        })),
      };
    },
    async GetTableRecordExpirationConfiguration(input) {
      await ctx.tableByArn(input.tableArn as string);
      throw recordExpirationRefused();
    },
    async PutTableRecordExpirationConfiguration(input) {
      await ctx.tableByArn(input.tableArn as string);
      throw recordExpirationRefused();
    },
    async GetTableRecordExpirationJobStatus(input) {
      await ctx.tableByArn(input.tableArn as string);
      throw recordExpirationRefused();
    },
  };
}

/**
 * Record expiration is for AWS managed tables (S3 Metadata journal tables), not tables you create (user guide,
 * "Expiring records in journal tables"); the model answers MethodNotAllowedException (405) for the others. Every
 * local table is one you created.
 */
function recordExpirationRefused() {
  return methodNotAllowed(
    'Record expiration is available only for AWS managed tables (S3 Metadata journal tables), not for tables you create.',
  );
}
