// S3 Tables' metadata location operations, the commit point other writers (Iceberg clients committing on their
// own, Athena) go through: read a table's current metadata location and version token, and swap in a new location
// when the caller's token is still current. Apart from the table handlers: this is the compare-and-swap, not the
// table's lifecycle.
import { tableArn } from '../arn';
import { checkToken, type S3TablesContext } from './context';
import type { S3TablesOperations } from './operations';

type MetadataLocationOperations = Pick<
  S3TablesOperations,
  'GetTableMetadataLocation' | 'UpdateTableMetadataLocation'
>;

export function metadataLocationOperations(ctx: S3TablesContext): MetadataLocationOperations {
  const { warehouse, call, bucketOf, tableExists, tableIdOf, region } = ctx;
  return {
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
