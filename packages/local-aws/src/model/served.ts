// Operations of the large models (Glue: 265, S3: 107) whose input shapes the compact models keep: the ones the
// endpoint serves. The smaller models (S3 Tables, Firehose, Athena) keep every operation's input.
export const SERVED_OPERATIONS_OF_LARGE_MODELS: Record<string, string[]> = {
  glue: [
    'CreateDatabase',
    'GetDatabase',
    'GetDatabases',
    'DeleteDatabase',
    'CreateTable',
    'GetTable',
    'GetTables',
    'UpdateTable',
    'GetTableVersions',
    'DeleteTable',
  ],
  s3: [
    'CreateBucket',
    'HeadBucket',
    'ListBuckets',
    'DeleteBucket',
    'PutObject',
    'GetObject',
    'HeadObject',
    'DeleteObject',
    'DeleteObjects',
    'ListObjectsV2',
  ],
};
