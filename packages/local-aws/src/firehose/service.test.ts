import { describe, test, expect, beforeAll, afterAll } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CreateDeliveryStreamCommand,
  DeleteDeliveryStreamCommand,
  DescribeDeliveryStreamCommand,
  InvalidArgumentException,
  ListDeliveryStreamsCommand,
  PutRecordBatchCommand,
  PutRecordCommand,
  ResourceInUseException,
  ResourceNotFoundException,
  ServiceUnavailableException,
  type FirehoseClient,
} from '@aws-sdk/client-firehose';
import { startLocalEndpoint, type LocalEndpoint } from '../server';
import { flushLocalFirehose, localFirehoseStats } from '../admin-client';
import { MemoryWarehouse } from '../../test/support/memory-warehouse';
import { localClients, type LocalClients } from '../../test/support/clients';
import { createFlowTable, filesUnder, icebergStreamInput } from '../../test/support/lab-setup';

const encode = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value));
const flow = (i: number) => ({ srcaddr: `10.0.0.${i % 250}`, bytes: i, start_time: '2026-11-29T10:00:00Z' });

const streamInput = (name: string, sizeInMBs = 1, intervalInSeconds = 60) =>
  icebergStreamInput({
    name,
    bucket: 'lab-bucket',
    role: 'firehose',
    errorBucket: 'lab-errors',
    errorPrefix: 'errors/',
    sizeInMBs,
    intervalInSeconds,
  });

async function setup(clients: LocalClients): Promise<void> {
  await createFlowTable(clients.s3tables, 'lab-bucket', [
    { name: 'srcaddr', type: 'string' },
    { name: 'bytes', type: 'long', required: true },
    { name: 'start_time', type: 'timestamp' },
  ]);
}

function putBatch(firehose: FirehoseClient, name: string, records: Buffer[]) {
  return firehose.send(
    new PutRecordBatchCommand({ DeliveryStreamName: name, Records: records.map((Data) => ({ Data })) }),
  );
}

describe('Firehose over loopback (protocol layer, in-memory engine stand-in)', () => {
  let dir: string;
  let endpoint: LocalEndpoint;
  let clients: LocalClients;
  const warehouse = new MemoryWarehouse();

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'local-firehose-'));
    endpoint = await startLocalEndpoint({ dataDir: dir, engine: { openWarehouse: async () => warehouse } });
    clients = localClients(endpoint.url);
    await setup(clients);
    await clients.firehose.send(new CreateDeliveryStreamCommand(streamInput('flows')));
  });
  afterAll(async () => {
    clients.destroy();
    await endpoint.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('describes and lists the Iceberg stream as Firehose does', async () => {
    const { DeliveryStreamDescription: d } = await clients.firehose.send(
      new DescribeDeliveryStreamCommand({ DeliveryStreamName: 'flows' }),
    );
    const list = await clients.firehose.send(new ListDeliveryStreamsCommand({}));
    expect(d?.DeliveryStreamStatus).toBe('ACTIVE');
    expect(d?.DeliveryStreamARN).toBe('arn:aws:firehose:us-east-1:123456789012:deliverystream/flows');
    expect(d?.CreateTimestamp).toBeInstanceOf(Date);
    const iceberg = d?.Destinations?.[0]?.IcebergDestinationDescription;
    expect(iceberg?.BufferingHints).toEqual({ SizeInMBs: 1, IntervalInSeconds: 60 });
    expect(iceberg?.CatalogConfiguration?.CatalogARN).toBe(
      'arn:aws:glue:us-east-1:123456789012:catalog/s3tablescatalog/lab-bucket',
    );
    expect(iceberg?.S3DestinationDescription?.ErrorOutputPrefix).toBe('errors/');
    expect(list.DeliveryStreamNames).toEqual(['flows']);
    await expect(
      clients.firehose.send(new CreateDeliveryStreamCommand(streamInput('flows'))),
    ).rejects.toBeInstanceOf(ResourceInUseException);
  });

  test('rejects a catalog ARN that is not s3tablescatalog/<bucket>', async () => {
    const input = streamInput('bad');
    input.IcebergDestinationConfiguration.CatalogConfiguration.CatalogARN =
      'arn:aws:glue:us-east-1:123456789012:catalog';
    await expect(clients.firehose.send(new CreateDeliveryStreamCommand(input))).rejects.toThrow(
      InvalidArgumentException,
    );
  });

  test('enforces PutRecordBatch limits with the errors AWS returns', async () => {
    const tooMany = putBatch(
      clients.firehose,
      'flows',
      Array.from({ length: 501 }, (_, i) => encode(flow(i))),
    );
    const tooBig = putBatch(clients.firehose, 'flows', [Buffer.alloc(1_024_001, 97)]);
    const tooMuch = putBatch(
      clients.firehose,
      'flows',
      Array.from({ length: 5 }, () => Buffer.alloc(1_000_000, 97)),
    );
    await expect(tooMany).rejects.toMatchObject({
      name: 'ValidationException',
      message: expect.stringContaining('less than or equal to 500'),
    });
    await expect(tooBig).rejects.toMatchObject({
      name: 'ValidationException',
      message: expect.stringContaining('less than or equal to 1024000'),
    });
    await expect(tooMuch).rejects.toMatchObject({
      name: 'InvalidArgumentException',
      message: 'Records size exceeds 4 MB limit',
    });
    await expect(putBatch(clients.firehose, 'nope', [encode(flow(1))])).rejects.toBeInstanceOf(
      ResourceNotFoundException,
    );
  });

  test('each flush is one commit; malformed and misfit records land in the error output, whole, and are counted', async () => {
    // Prepare
    const good = Array.from({ length: 1200 }, (_, i) => encode(flow(i)));
    const bad = [encode('{not json'), encode({ srcaddr: 'x' }), encode({ srcaddr: 'y', bytes: 'many' })];
    const appendsBefore = warehouse.appendCalls;

    // Act
    for (let i = 0; i < good.length; i += 400)
      await putBatch(clients.firehose, 'flows', good.slice(i, i + 400));
    const batch = await putBatch(clients.firehose, 'flows', bad);
    await clients.firehose.send(
      new PutRecordCommand({ DeliveryStreamName: 'flows', Record: { Data: encode(flow(9999)) } }),
    );
    const stats = await flushLocalFirehose(endpoint.url);

    // Assess
    expect(batch.FailedPutCount).toBe(0);
    expect(warehouse.appendCalls - appendsBefore).toBe(1);
    expect(warehouse.rowsOf('lab-bucket', 'network', 'vpc_flow_logs')).toHaveLength(1201);
    // What the engine is handed: the record's canonical NDJSON line (its timestamp as exact text).
    expect(warehouse.rowsOf('lab-bucket', 'network', 'vpc_flow_logs')[0]).toEqual({
      srcaddr: '10.0.0.0',
      bytes: 0,
      start_time: '2026-11-29 10:00:00.000000',
    });
    expect(stats.flows).toMatchObject({
      recordsReceived: 1204,
      recordsDelivered: 1201,
      recordsFailed: 3,
      commits: 1,
      pendingRecords: 0,
    });
    const errorFiles = filesUnder(join(dir, 's3', 'lab-errors', 'errors'));
    expect(errorFiles).toHaveLength(1);
    const lines = readFileSync(errorFiles[0] as string, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, string>);
    expect(lines.map((l) => l.errorCode)).toEqual([
      'Iceberg.InvalidJson',
      'Iceberg.SchemaMismatch',
      'Iceberg.SchemaMismatch',
    ]);
    expect(lines.map((l) => Buffer.from(l.rawData as string, 'base64').toString())).toEqual(
      bad.map((b) => b.toString()),
    );
  });

  test('SizeInMBs does not cut commits: 2.7 MiB sent with 1 MiB hints waits for the interval, then is one commit', async () => {
    // Prepare
    await clients.firehose.send(new CreateDeliveryStreamCommand(streamInput('by-size', 1, 900)));
    const padded = (i: number) => encode({ ...flow(i), srcaddr: `10.0.${i}.1-${'x'.repeat(9000)}` });
    const appendsBefore = warehouse.appendCalls;

    // Act: ~2.7 MiB in 300 records of ~9 KiB, nearly three times the size hint.
    for (let i = 0; i < 300; i += 100)
      await putBatch(
        clients.firehose,
        'by-size',
        Array.from({ length: 100 }, (_, j) => padded(i + j)),
      );
    await new Promise((resolve) => setTimeout(resolve, 200));
    const beforeInterval = warehouse.appendCalls - appendsBefore;
    const stats = (await flushLocalFirehose(endpoint.url))['by-size'];

    // Assess: as the article's stream did (15.1 MiB with 1 MB hints in 3 commits, one a minute).
    expect(beforeInterval).toBe(0);
    expect(warehouse.appendCalls - appendsBefore).toBe(1);
    expect(stats).toMatchObject({ recordsDelivered: 300, commits: 1, flushes: 1 });
    await clients.firehose.send(new DeleteDeliveryStreamCommand({ DeliveryStreamName: 'by-size' }));
  });

  test('the interval cuts: what arrives within one buffer interval is one commit', async () => {
    // Prepare
    await clients.firehose.send(new CreateDeliveryStreamCommand(streamInput('by-interval', 1, 1)));
    const appendsBefore = warehouse.appendCalls;
    const waitForAppends = async (n: number) => {
      const deadline = Date.now() + 10_000;
      while (warehouse.appendCalls - appendsBefore < n && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 50));
      return warehouse.appendCalls - appendsBefore;
    };

    // Act: two batches within the first interval, then one more after it was cut.
    await putBatch(clients.firehose, 'by-interval', [encode(flow(1))]);
    await putBatch(clients.firehose, 'by-interval', [encode(flow(2))]);
    const first = await waitForAppends(1);
    await putBatch(clients.firehose, 'by-interval', [encode(flow(3))]);
    const second = await waitForAppends(2);

    // Assess
    expect([first, second]).toEqual([1, 2]);
    const stats = (await localFirehoseStats(endpoint.url))['by-interval'];
    expect(stats).toMatchObject({ recordsDelivered: 3, commits: 2, flushes: 2 });
    await clients.firehose.send(new DeleteDeliveryStreamCommand({ DeliveryStreamName: 'by-interval' }));
  });
});

describe('Firehose fault injection', () => {
  test('throttled calls raise ServiceUnavailableException; failed records come back in FailedPutCount', async () => {
    // Prepare
    const dir = mkdtempSync(join(tmpdir(), 'local-faults-'));
    const warehouse = new MemoryWarehouse();
    const throttled = await startLocalEndpoint({
      dataDir: join(dir, 'a'),
      faults: { throttleShare: 1 },
      engine: { openWarehouse: async () => warehouse },
    });
    const failing = await startLocalEndpoint({
      dataDir: join(dir, 'b'),
      faults: { recordFailureShare: 0.5, seed: 7 },
      engine: { openWarehouse: async () => warehouse },
    });
    const a = localClients(throttled.url);
    const b = localClients(failing.url);
    try {
      await setup(a);
      await a.firehose.send(new CreateDeliveryStreamCommand(streamInput('flows')));
      await b.firehose.send(new CreateDeliveryStreamCommand(streamInput('flows')));

      // Act
      const call = await putBatch(a.firehose, 'flows', [encode(flow(1))]).then(
        () => 'accepted',
        (error: unknown) => error,
      );
      const partial = await putBatch(
        b.firehose,
        'flows',
        Array.from({ length: 200 }, (_, i) => encode(flow(i))),
      );
      const stats = await flushLocalFirehose(failing.url);

      // Assess
      expect(call).toBeInstanceOf(ServiceUnavailableException);
      expect(throttled.faults.describe()).toEqual([
        'PutRecord/PutRecordBatch throttled (ServiceUnavailableException): 100%',
      ]);
      expect(partial.FailedPutCount).toBeGreaterThan(50);
      expect(partial.FailedPutCount).toBeLessThan(150);
      const failed = partial.RequestResponses?.filter((r) => r.ErrorCode) ?? [];
      expect(failed).toHaveLength(partial.FailedPutCount as number);
      expect(failed[0]).toEqual({ ErrorCode: 'ServiceUnavailableException', ErrorMessage: 'Slow down.' });
      expect(stats.flows?.recordsDelivered).toBe(200 - (partial.FailedPutCount as number));
    } finally {
      a.destroy();
      b.destroy();
      await throttled.stop();
      await failing.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('injected commit conflicts are retried: still one commit per flush', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'local-conflicts-'));
    const warehouse = new MemoryWarehouse();
    const endpoint = await startLocalEndpoint({
      dataDir: dir,
      faults: { commitConflictShare: 0.5, seed: 3 },
      engine: { openWarehouse: async () => warehouse },
    });
    const clients = localClients(endpoint.url);
    try {
      await setup(clients);
      await clients.firehose.send(new CreateDeliveryStreamCommand(streamInput('flows')));
      let stats: Awaited<ReturnType<typeof flushLocalFirehose>> = {};
      for (let i = 0; i < 6; i++) {
        await putBatch(clients.firehose, 'flows', [encode(flow(i))]);
        stats = await flushLocalFirehose(endpoint.url);
      }
      expect(stats.flows?.commits).toBe(6);
      expect(stats.flows?.commitConflicts).toBeGreaterThan(0);
      expect(warehouse.rowsOf('lab-bucket', 'network', 'vpc_flow_logs')).toHaveLength(6);
    } finally {
      clients.destroy();
      await endpoint.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
