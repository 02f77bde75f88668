// ARNs and names as AWS spells them. The local endpoint has one account (123456789012, the documentation account)
// and answers for any region; ARNs it receives are matched by resource name, whatever account or region they carry.
export const LOCAL_ACCOUNT_ID = '123456789012';

export function tableBucketArn(region: string, bucket: string): string {
  return `arn:aws:s3tables:${region}:${LOCAL_ACCOUNT_ID}:bucket/${bucket}`;
}

export function tableArn(region: string, bucket: string, tableId: string): string {
  return `arn:aws:s3tables:${region}:${LOCAL_ACCOUNT_ID}:bucket/${bucket}/table/${tableId}`;
}

/** `arn:aws:s3tables:<region>:<account>:bucket/<name>` → name; undefined when it is not a table bucket ARN. */
export function bucketFromArn(arn: string): string | undefined {
  const match = /^arn:aws[a-z-]*:s3tables:[^:]*:[^:]*:bucket\/([^/]+)$/.exec(arn);
  return match?.[1];
}

/** `arn:aws:s3tables:<region>:<account>:bucket/<name>/table/<id>` → bucket and table id; undefined otherwise. */
export function tableFromArn(arn: string): { bucket: string; tableId: string } | undefined {
  const match = /^arn:aws[a-z-]*:s3tables:[^:]*:[^:]*:bucket\/([^/]+)\/table\/(.+)$/.exec(arn);
  return match ? { bucket: match[1] as string, tableId: match[2] as string } : undefined;
}

/** `arn:aws:glue:<region>:<account>:catalog/s3tablescatalog/<bucket>` → bucket. */
export function bucketFromCatalogArn(arn: string): string | undefined {
  const match = /^arn:aws[a-z-]*:glue:[^:]*:[^:]*:catalog\/s3tablescatalog\/([^/]+)$/.exec(arn);
  return match?.[1];
}

/** `arn:aws:s3:::<bucket>` → bucket. */
export function bucketFromS3Arn(arn: string): string | undefined {
  const match = /^arn:aws[a-z-]*:s3:::([^/]+)$/.exec(arn);
  return match?.[1];
}

export function deliveryStreamArn(region: string, name: string): string {
  return `arn:aws:firehose:${region}:${LOCAL_ACCOUNT_ID}:deliverystream/${name}`;
}
