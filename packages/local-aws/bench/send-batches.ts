// The bench's client loop, the same on both sides (in process, or on a worker thread): PutRecordBatch of `batch`
// records, `inFlight` calls at a time, until every record is sent; returns the records that failed.
import { PutRecordBatchCommand, type FirehoseClient } from '@aws-sdk/client-firehose';

export async function sendAll(
  firehose: FirehoseClient,
  stream: string,
  records: readonly Buffer[],
  batch: number,
  inFlight: number,
): Promise<number> {
  let next = 0;
  let failed = 0;
  const sender = async () => {
    while (next < records.length) {
      const part = records.slice(next, next + batch);
      next += batch;
      const result = await firehose.send(
        new PutRecordBatchCommand({ DeliveryStreamName: stream, Records: part.map((Data) => ({ Data })) }),
      );
      failed += result.FailedPutCount ?? 0;
    }
  };
  await Promise.all(Array.from({ length: inFlight }, sender));
  return failed;
}
