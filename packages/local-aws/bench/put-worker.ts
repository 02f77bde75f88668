// `pnpm bench local`'s client on its own thread: the same AWS SDK Firehose client and PutRecordBatch calls (500
// records, 4 in flight) as the in-process side, but its serialization and signing run outside the endpoint's event
// loop, as any real client's do. It builds the records and warms the client up first, says `ready`, and on `go`
// sends them all, then answers `{ failed }`.
import { parentPort, workerData } from 'node:worker_threads';
import { FirehoseClient, ListDeliveryStreamsCommand, PutRecordBatchCommand } from '@aws-sdk/client-firehose';
import { localClientConfig } from '../src/client-config';
import { syntheticFlowRecord } from '../src/test-support/lab-setup';

export interface PutWorkerData {
  url: string;
  stream: string;
  records: number;
  batch: number;
  inFlight: number;
}

const data = workerData as PutWorkerData;
const port = parentPort;
if (!port) throw new Error('put-worker.ts runs as a worker thread of bench/local.ts');

const records = Array.from({ length: data.records }, (_, i) => syntheticFlowRecord(i));
const firehose = new FirehoseClient(localClientConfig(data.url, 3));
await firehose.send(new ListDeliveryStreamsCommand({}));
port.once('message', () => {
  void (async () => {
    let next = 0;
    let failed = 0;
    const sender = async () => {
      while (next < records.length) {
        const batch = records.slice(next, next + data.batch);
        next += data.batch;
        const result = await firehose.send(
          new PutRecordBatchCommand({
            DeliveryStreamName: data.stream,
            Records: batch.map((Data) => ({ Data })),
          }),
        );
        failed += result.FailedPutCount ?? 0;
      }
    };
    await Promise.all(Array.from({ length: data.inFlight }, sender));
    firehose.destroy();
    port.postMessage({ failed });
  })();
});
port.postMessage('ready');
