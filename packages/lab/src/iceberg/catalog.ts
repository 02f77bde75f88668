// The lab's Iceberg REST catalog client (iceberg-js) for a target: the local endpoint's /iceberg, or S3 Tables'
// own endpoint (AWS: https://s3tables.<region>.amazonaws.com/iceberg, warehouse = the table bucket ARN), each request
// signed with SigV4 (signing name s3tables) with the same credentials the lab's SDK clients use.
import { IcebergRestCatalog, type IcebergRestCatalogOptions } from 'iceberg-js';
import type { LabTarget } from '../target/lab-target';
import type { LabResources } from '../target/resources';
import { sigv4Fetch } from './sigv4-fetch';

export function tableBucketArn(r: Pick<LabResources, 'region' | 'accountId' | 'tableBucketName'>): string {
  return `arn:aws:s3tables:${r.region}:${r.accountId}:bucket/${r.tableBucketName}`;
}

/** The flow table as the S3 Tables API addresses it (tableBucketARN, namespace, name). */
export function flowTableAddress(
  r: Pick<LabResources, 'region' | 'accountId' | 'tableBucketName' | 'namespace' | 'table'>,
) {
  return { tableBucketARN: tableBucketArn(r), namespace: r.namespace, name: r.table };
}

export function icebergCatalogOptions(
  target: Pick<LabTarget, 'resources' | 'localUrl' | 's3tables'>,
): IcebergRestCatalogOptions {
  const r = target.resources;
  // Signed on both targets: the local endpoint, when it enforces authorization, identifies the caller by the
  // request's access key too.
  return {
    baseUrl: target.localUrl
      ? `${target.localUrl}/iceberg`
      : `https://s3tables.${r.region}.amazonaws.com/iceberg`,
    warehouse: tableBucketArn(r),
    fetch: sigv4Fetch({ region: r.region, credentials: () => target.s3tables.config.credentials() }),
  };
}

export function icebergCatalog(
  target: Pick<LabTarget, 'resources' | 'localUrl' | 's3tables'>,
): IcebergRestCatalog {
  return new IcebergRestCatalog(icebergCatalogOptions(target));
}
