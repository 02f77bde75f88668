// A `cdktf deploy --outputs-file` JSON of the whole lab, as the aws target reads it (example account).
export const DEPLOYED_OUTPUTS = {
  'table-bucket': {
    table_bucket_name: 'loglake-01-flow-logs',
    table_bucket_arn: 'arn:aws:s3tables:us-east-1:123456789012:bucket/loglake-01-flow-logs',
    namespace: 'network',
    table_name: 'vpc_flow_logs',
    workgroup_name: 'loglake-01',
    alerts_topic_arn: 'arn:aws:sns:us-east-1:123456789012:loglake-01-alerts',
  },
  firehose: {
    stream_name: 'loglake-01-vpc-flow-logs',
    error_bucket_name: 'loglake-01-firehose-errors-123456789012',
    failed_rows_alarm_name: 'loglake-01-firehose-failed-rows',
    role_arn: 'arn:aws:iam::123456789012:role/loglake-01-firehose',
  },
  'ref-data': { namespaces: ['ref', 'enriched', 'lab'] },
  analyst: {
    role_arn: 'arn:aws:iam::123456789012:role/loglake-01-analyst',
    role_name: 'loglake-01-analyst',
  },
};
