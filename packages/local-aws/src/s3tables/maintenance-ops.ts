// S3 Tables' maintenance settings and job status, and resource policies (stored documents, not enforced).
import { tableArn, tableBucketArn } from '../arn';
import { bad, notFound, type S3TablesContext } from './context';
import type { S3TablesOperations } from './operations';

type MaintenanceOperations = Pick<
  S3TablesOperations,
  | 'GetTableBucketMaintenanceConfiguration'
  | 'PutTableBucketMaintenanceConfiguration'
  | 'GetTableMaintenanceConfiguration'
  | 'PutTableMaintenanceConfiguration'
  | 'GetTableMaintenanceJobStatus'
  | 'GetTableBucketPolicy'
  | 'PutTableBucketPolicy'
  | 'DeleteTableBucketPolicy'
  | 'GetTablePolicy'
  | 'PutTablePolicy'
  | 'DeleteTablePolicy'
>;

/** One maintenance setting as S3 Tables answers it: the settings wrapped in an object named after their type. */
const onWire = <T extends string, S>(type: T, entry: { status: 'enabled' | 'disabled'; settings: S }) => ({
  status: entry.status,
  settings: { [type]: entry.settings } as { [K in T]: S },
});

/** A policy is a JSON document given as a string; S3 Tables refuses one that is not JSON. */
function checkPolicy(policy: string): string {
  try {
    JSON.parse(policy);
  } catch {
    throw bad('resourcePolicy is not valid JSON: pass the policy document as a JSON string.');
  }
  return policy;
}

export function maintenanceOperations(ctx: S3TablesContext): MaintenanceOperations {
  const { warehouse, maintenance, settings, region, bucketOf, call, tableExists, tableIdOf } = ctx;
  const existingBucket = async (arn: string | undefined) => {
    const bucket = bucketOf(arn);
    await call(() => warehouse.getTableBucket(bucket));
    return bucket;
  };
  const table = async (input: { tableBucketARN?: string; namespace?: string; name?: string }) => {
    const summary = await tableExists(
      bucketOf(input.tableBucketARN),
      input.namespace as string,
      input.name as string,
    );
    return { summary, id: await call(() => tableIdOf(summary)) };
  };
  return {
    async GetTableBucketMaintenanceConfiguration(input) {
      const bucket = await existingBucket(input.tableBucketARN);
      const config = maintenance.bucketConfig(bucket);
      return {
        tableBucketARN: tableBucketArn(region, bucket),
        configuration: {
          icebergUnreferencedFileRemoval: onWire(
            'icebergUnreferencedFileRemoval',
            config.icebergUnreferencedFileRemoval,
          ),
        },
      };
    },
    async PutTableBucketMaintenanceConfiguration(input) {
      maintenance.putBucketConfig(await existingBucket(input.tableBucketARN), input.value ?? {});
    },
    async GetTableMaintenanceConfiguration(input) {
      const { summary, id } = await table(input);
      const config = maintenance.tableConfig(summary.bucket, summary.namespace, summary.name);
      return {
        tableARN: tableArn(region, summary.bucket, id),
        configuration: {
          icebergCompaction: onWire('icebergCompaction', config.icebergCompaction),
          icebergSnapshotManagement: onWire('icebergSnapshotManagement', config.icebergSnapshotManagement),
        },
      };
    },
    async PutTableMaintenanceConfiguration(input) {
      const { summary } = await table(input);
      maintenance.putTableConfig(
        summary.bucket,
        summary.namespace,
        summary.name,
        input.type ?? 'icebergCompaction',
        input.value ?? {},
      );
    },
    async GetTableMaintenanceJobStatus(input) {
      const { summary, id } = await table(input);
      return {
        tableARN: tableArn(region, summary.bucket, id),
        status: maintenance.jobStatus(summary.bucket, summary.namespace, summary.name),
      };
    },
    async GetTableBucketPolicy(input) {
      const policy = settings.bucket(await existingBucket(input.tableBucketARN)).policy;
      if (policy === undefined) throw notFound('The table bucket policy does not exist.');
      return { resourcePolicy: policy };
    },
    async PutTableBucketPolicy(input) {
      const policy = checkPolicy(input.resourcePolicy as string);
      settings.updateBucket(await existingBucket(input.tableBucketARN), (s) => (s.policy = policy));
    },
    async DeleteTableBucketPolicy(input) {
      settings.updateBucket(await existingBucket(input.tableBucketARN), (s) => delete s.policy);
    },
    async GetTablePolicy(input) {
      const policy = settings.table((await table(input)).id).policy;
      if (policy === undefined) throw notFound('The table policy does not exist.');
      return { resourcePolicy: policy };
    },
    async PutTablePolicy(input) {
      const policy = checkPolicy(input.resourcePolicy as string);
      settings.updateTable((await table(input)).id, (s) => (s.policy = policy));
    },
    async DeleteTablePolicy(input) {
      settings.updateTable((await table(input)).id, (s) => delete s.policy);
    },
  };
}
