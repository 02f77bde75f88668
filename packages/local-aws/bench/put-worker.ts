// `pnpm bench local`'s client on its own thread: the same AWS SDK Firehose client and PutRecordBatch calls (500
// records, 4 in flight) as the in-process side, but its serialization and signing run outside the endpoint's event
// loop, as any real client's do. It builds the records and warms the client up first, says `ready`, and on `go`
// sends them all, then answers `{ failed }`.
import { parentPort, workerData } from 'node:worker_threads';
import { FirehoseClient, ListDeliveryStreamsCommand } from '@aws-sdk/client-firehose';
import { localClientConfig } from '../src/client-config';
import { syntheticFlowRecord } from '../test/support/lab-setup';
import { sendAll } from './send-batches';

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
  void sendAll(firehose, data.stream, records, data.batch, data.inFlight).then((failed) => {
    firehose.destroy();
    port.postMessage({ failed });
  });
});
port.postMessage('ready');
