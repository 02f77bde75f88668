// The CloudWatch metrics Firehose documents for a Direct PUT stream delivering to Apache Iceberg Tables, namespace
// AWS/Firehose, dimension DeliveryStreamName:
// - "Monitor metrics" for Apache Iceberg Tables (Firehose developer guide, apache-iceberg-metric.html):
//   DeliveryToIceberg.Bytes, .IncomingRowCount, .SuccessfulRowCount, .FailedRowCount ("Number of failed rows
//   delivered to S3 backup bucket"), .DataFreshness, .Success ("Sum of successful commits").
// - "Data ingestion through Direct PUT" (monitoring-with-cloudwatch-metrics.html): IncomingBytes, IncomingRecords,
//   IncomingPutRequests, PutRecord.Requests, PutRecordBatch.Requests, PutRecordBatch.Records.
// Firehose publishes them per minute ("Firehose accumulates and publishes a particular metric … in one minute
// intervals", PutRecord API reference); the local endpoint records each put and each delivery as it happens, which
// the one-minute storage of a standard-resolution metric adds up the same way.

export const FIREHOSE_NAMESPACE = 'AWS/Firehose';

export const FIREHOSE_METRIC = {
  incomingBytes: 'IncomingBytes',
  incomingRecords: 'IncomingRecords',
  incomingPutRequests: 'IncomingPutRequests',
  putRecordRequests: 'PutRecord.Requests',
  putRecordBatchRequests: 'PutRecordBatch.Requests',
  putRecordBatchRecords: 'PutRecordBatch.Records',
  icebergBytes: 'DeliveryToIceberg.Bytes',
  icebergIncomingRows: 'DeliveryToIceberg.IncomingRowCount',
  icebergSuccessfulRows: 'DeliveryToIceberg.SuccessfulRowCount',
  icebergFailedRows: 'DeliveryToIceberg.FailedRowCount',
  icebergDataFreshness: 'DeliveryToIceberg.DataFreshness',
  icebergCommits: 'DeliveryToIceberg.Success',
} as const;

export type FirehoseMetricName = (typeof FIREHOSE_METRIC)[keyof typeof FIREHOSE_METRIC];

export interface FirehoseDatum {
  name: FirehoseMetricName;
  value: number;
  unit: 'Bytes' | 'Count' | 'Seconds';
}

/** Where a stream's metrics go (the endpoint's CloudWatch); stamped with CloudWatch's clock by the sink. */
export type FirehoseMetricSink = (streamName: string, data: readonly FirehoseDatum[]) => void;

/** A put call: records and bytes accepted. */
export function putMetrics(
  operation: 'PutRecord' | 'PutRecordBatch',
  records: number,
  bytes: number,
): FirehoseDatum[] {
  return [
    { name: FIREHOSE_METRIC.incomingBytes, value: bytes, unit: 'Bytes' },
    { name: FIREHOSE_METRIC.incomingRecords, value: records, unit: 'Count' },
    { name: FIREHOSE_METRIC.incomingPutRequests, value: 1, unit: 'Count' },
    ...(operation === 'PutRecord'
      ? [{ name: FIREHOSE_METRIC.putRecordRequests, value: 1, unit: 'Count' as const }]
      : [
          { name: FIREHOSE_METRIC.putRecordBatchRequests, value: 1, unit: 'Count' as const },
          { name: FIREHOSE_METRIC.putRecordBatchRecords, value: records, unit: 'Count' as const },
        ]),
  ];
}

/** One delivery (a flush): rows attempted, delivered and failed, bytes delivered, commits, the oldest record's age. */
export function deliveryMetrics(d: {
  attempted: number;
  delivered: number;
  failed: number;
  deliveredBytes: number;
  commits: number;
  oldestAgeSeconds: number;
}): FirehoseDatum[] {
  return [
    { name: FIREHOSE_METRIC.icebergIncomingRows, value: d.attempted, unit: 'Count' },
    { name: FIREHOSE_METRIC.icebergSuccessfulRows, value: d.delivered, unit: 'Count' },
    { name: FIREHOSE_METRIC.icebergFailedRows, value: d.failed, unit: 'Count' },
    { name: FIREHOSE_METRIC.icebergBytes, value: d.deliveredBytes, unit: 'Bytes' },
    { name: FIREHOSE_METRIC.icebergCommits, value: d.commits, unit: 'Count' },
    { name: FIREHOSE_METRIC.icebergDataFreshness, value: d.oldestAgeSeconds, unit: 'Seconds' },
  ];
}
