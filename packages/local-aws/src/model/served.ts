// Operations of the large models (Glue: 265, S3: 107) whose input shapes the compact models keep: the ones the
// endpoint serves. The smaller models (S3 Tables, Firehose, Athena, CloudWatch) keep every operation's input.
export const SERVED_OPERATIONS_OF_LARGE_MODELS: Record<string, string[]> = {
  glue: [
    'CreateDatabase',
    'GetDatabase',
    'GetDatabases',
    'UpdateDatabase',
    'DeleteDatabase',
    'CreateTable',
    'GetTable',
    'GetTables',
    'UpdateTable',
    'GetTableVersions',
    'DeleteTable',
    'GetTags',
    'TagResource',
    'UntagResource',
  ],
  s3: [
    'CreateBucket',
    'HeadBucket',
    'ListBuckets',
    'DeleteBucket',
    'GetBucketLocation',
    'PutObject',
    'CopyObject',
    'GetObject',
    'HeadObject',
    'DeleteObject',
    'DeleteObjects',
    'ListObjects',
    'ListObjectsV2',
    'ListObjectVersions',
    'CreateMultipartUpload',
    'UploadPart',
    'CompleteMultipartUpload',
    'AbortMultipartUpload',
    'ListParts',
    'ListMultipartUploads',
    ...bucketSubresourceOperations(),
  ],
};

/**
 * Operations whose output shapes the compact models keep: where the endpoint writes replies by the model's shapes.
 * CloudWatch is also answered in awsQuery (XML) and rpcv2Cbor, whose timestamps, lists and maps are typed by the
 * output shapes; S3's bucket configurations are written back as the XML documents their outputs describe.
 */
export const OUTPUT_SHAPES_OF_MODELS: Record<string, string[] | 'all'> = {
  cloudwatch: 'all',
  s3: bucketSubresourceOperations().filter((op) => op.startsWith('Get')),
};

/** S3's bucket configurations (sub-resources) the endpoint keeps: each one's Get, Put and (where S3 has one) Delete. */
function bucketSubresourceOperations(): string[] {
  return [
    'GetBucketPolicy',
    'PutBucketPolicy',
    'DeleteBucketPolicy',
    'GetBucketPolicyStatus',
    'GetBucketVersioning',
    'PutBucketVersioning',
    'GetBucketLifecycleConfiguration',
    'PutBucketLifecycleConfiguration',
    'DeleteBucketLifecycle',
    'GetBucketEncryption',
    'PutBucketEncryption',
    'DeleteBucketEncryption',
    'GetPublicAccessBlock',
    'PutPublicAccessBlock',
    'DeletePublicAccessBlock',
    'GetBucketOwnershipControls',
    'PutBucketOwnershipControls',
    'DeleteBucketOwnershipControls',
    'GetBucketAcl',
    'PutBucketAcl',
    'GetBucketCors',
    'PutBucketCors',
    'DeleteBucketCors',
    'GetBucketWebsite',
    'PutBucketWebsite',
    'DeleteBucketWebsite',
    'GetBucketLogging',
    'PutBucketLogging',
    'GetBucketReplication',
    'PutBucketReplication',
    'DeleteBucketReplication',
    'GetBucketAccelerateConfiguration',
    'PutBucketAccelerateConfiguration',
    'GetBucketRequestPayment',
    'PutBucketRequestPayment',
    'GetObjectLockConfiguration',
    'PutObjectLockConfiguration',
    'GetBucketTagging',
    'PutBucketTagging',
    'DeleteBucketTagging',
    'GetBucketNotificationConfiguration',
    'PutBucketNotificationConfiguration',
  ];
}
