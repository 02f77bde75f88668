import { describe, test, expect, beforeEach } from '@jest/globals';
import { mockClient } from 'aws-sdk-client-mock';
import {
  FirehoseClient,
  PutRecordBatchCommand,
  ResourceNotFoundException,
  ServiceUnavailableException,
} from '@aws-sdk/client-firehose';
import type { PutRecordBatchCommandInput } from '@aws-sdk/client-firehose';
import { PutRecordBatchLoader, jsonRecords } from './put-record-batch-loader';

const firehose = mockClient(FirehoseClient);
const client = new FirehoseClient({
  region: 'us-east-1',
  credentials: { accessKeyId: 'x', secretAccessKey: 'y' },
});
const decoder = new TextDecoder();
const noSleep = async () => {};

function records(n: number) {
  return jsonRecords(
    Array.from({ length: n }, (_, i) => i),
    (i) => `id-${i}`,
    (i) => JSON.stringify({ n: i }),
  );
}

function sentPayloads(): string[][] {
  return firehose
    .commandCalls(PutRecordBatchCommand)
    .map((call) =>
      (call.args[0].input as PutRecordBatchCommandInput).Records!.map((r) => decoder.decode(r.Data)),
    );
}

function acceptAll(input: PutRecordBatchCommandInput) {
  return {
    FailedPutCount: 0,
    RequestResponses: input.Records!.map((_, i) => ({ RecordId: `rid-${i}` })),
  };
}

beforeEach(() => {
  firehose.reset();
});

describe('PutRecordBatchLoader', () => {
  test('sends the stream name and each record as raw JSON bytes, 500 per request', async () => {
    // Prepare
    firehose.on(PutRecordBatchCommand).callsFake(acceptAll);
    const loader = new PutRecordBatchLoader({ client, streamName: 'lab-flows', sleep: noSleep });
    // Act
    const report = await loader.load(records(1001));
    // Assess
    const calls = firehose.commandCalls(PutRecordBatchCommand);
    expect(calls.map((c) => c.args[0].input.DeliveryStreamName)).toEqual([
      'lab-flows',
      'lab-flows',
      'lab-flows',
    ]);
    expect(
      sentPayloads()
        .map((p) => p.length)
        .sort((a, b) => b - a),
    ).toEqual([500, 500, 1]);
    expect(sentPayloads().flat()).toContain('{"n":1000}');
    expect(report).toMatchObject({
      records: 1001,
      sent: 1001,
      accepted: 1001,
      retried: 0,
      failedForGood: 0,
      notSent: 0,
    });
    expect(report.jsonBytes).toBe(records(1001).reduce((n, r) => n + r.data.byteLength, 0));
  });

  test('retries only the records Firehose reports failed, with growing jittered delays', async () => {
    // Prepare: first call fails records 1 and 3, second call fails record 3 again, third accepts.
    const failing = [new Set([1, 3]), new Set([1]), new Set<number>()];
    let call = 0;
    firehose.on(PutRecordBatchCommand).callsFake((input: PutRecordBatchCommandInput) => {
      const fail = failing[call++]!;
      return {
        FailedPutCount: fail.size,
        RequestResponses: input.Records!.map((_, i) =>
          fail.has(i)
            ? { ErrorCode: 'ServiceUnavailableException', ErrorMessage: 'Slow down.' }
            : { RecordId: `r${i}` },
        ),
      };
    });
    const delays: number[] = [];
    const loader = new PutRecordBatchLoader({
      client,
      streamName: 's',
      baseDelayMs: 100,
      random: () => 0.5,
      sleep: async (ms) => void delays.push(ms),
    });
    // Act
    const report = await loader.load(records(5));
    // Assess
    expect(sentPayloads()).toEqual([
      ['{"n":0}', '{"n":1}', '{"n":2}', '{"n":3}', '{"n":4}'],
      ['{"n":1}', '{"n":3}'],
      ['{"n":3}'],
    ]);
    expect(delays).toEqual([50, 100]);
    expect(report).toMatchObject({ sent: 5, accepted: 5, retried: 3, failedForGood: 0, requests: 3 });
    expect(report.errors).toEqual({ ServiceUnavailableException: 3 });
  });

  test('a record that keeps failing is failed for good after maxAttempts; the others land', async () => {
    firehose.on(PutRecordBatchCommand).callsFake((input: PutRecordBatchCommandInput) => ({
      FailedPutCount: 1,
      RequestResponses: input.Records!.map((r) =>
        decoder.decode(r.Data) === '{"n":2}' ? { ErrorCode: 'InternalFailure' } : { RecordId: 'ok' },
      ),
    }));
    const loader = new PutRecordBatchLoader({ client, streamName: 's', maxAttempts: 4, sleep: noSleep });
    const report = await loader.load(records(3));
    expect(report).toMatchObject({ accepted: 2, failedForGood: 1, retried: 3, requests: 4 });
    expect(report.accepted + report.failedForGood + report.notSent).toBe(report.records);
  });

  test('a throttled request is retried whole; a missing stream stops the load with the reason', async () => {
    firehose
      .on(PutRecordBatchCommand)
      .rejectsOnce(new ServiceUnavailableException({ message: 'throttled', $metadata: {} }))
      .callsFake(acceptAll);
    const ok = await new PutRecordBatchLoader({ client, streamName: 's', sleep: noSleep }).load(records(3));
    expect(ok).toMatchObject({ accepted: 3, retried: 3, failedForGood: 0 });

    firehose.reset();
    firehose
      .on(PutRecordBatchCommand)
      .rejects(new ResourceNotFoundException({ message: 'Firehose lab-flows not found', $metadata: {} }));
    const dead = await new PutRecordBatchLoader({
      client,
      streamName: 'lab-flows',
      concurrency: 1,
      limits: { recordsPerBatch: 2, bytesPerBatch: 1e6, bytesPerRecord: 1e5 },
      sleep: noSleep,
    }).load(records(6));
    expect(dead.fatalError).toMatch(/ResourceNotFoundException: Firehose lab-flows not found/);
    expect(dead).toMatchObject({ accepted: 0, failedForGood: 2, notSent: 4, requests: 1 });
  });

  test('never more requests in flight than the concurrency', async () => {
    let inFlight = 0;
    let peak = 0;
    firehose.on(PutRecordBatchCommand).callsFake(async (input: PutRecordBatchCommandInput) => {
      peak = Math.max(peak, ++inFlight);
      await new Promise((r) => setTimeout(r, 5));
      inFlight--;
      return acceptAll(input);
    });
    const limits = { recordsPerBatch: 10, bytesPerBatch: 1e6, bytesPerRecord: 1e5 };
    const report = await new PutRecordBatchLoader({ client, streamName: 's', concurrency: 3, limits }).load(
      records(200),
    );
    expect(peak).toBe(3);
    expect(report.accepted).toBe(200);
  });

  test('interrupting stops new requests, keeps every accepted record counted and reports the rest as not sent', async () => {
    const controller = new AbortController();
    let calls = 0;
    firehose.on(PutRecordBatchCommand).callsFake(async (input: PutRecordBatchCommandInput) => {
      if (++calls === 2) controller.abort(); // Ctrl-C arrives while two requests are in flight
      await new Promise((r) => setTimeout(r, 5));
      return acceptAll(input);
    });
    const limits = { recordsPerBatch: 10, bytesPerBatch: 1e6, bytesPerRecord: 1e5 };
    const report = await new PutRecordBatchLoader({
      client,
      streamName: 's',
      concurrency: 2,
      limits,
      signal: controller.signal,
    }).load(records(100));
    expect(report.interrupted).toBe(true);
    expect(report.accepted).toBe(20);
    expect(report.notSent).toBe(80);
    expect(report.accepted + report.failedForGood + report.notSent).toBe(100);
  });

  test('the same id accepted twice is counted as a duplicate', async () => {
    firehose.on(PutRecordBatchCommand).callsFake(acceptAll);
    const twice = [...records(3), ...records(2)];
    const report = await new PutRecordBatchLoader({ client, streamName: 's' }).load(twice);
    expect(report).toMatchObject({ accepted: 5, duplicateIds: 2 });
  });

  test('an oversized record is failed for good without being sent', async () => {
    firehose.on(PutRecordBatchCommand).callsFake(acceptAll);
    const big = { id: 'big', data: new Uint8Array(1000 * 1024 + 1) };
    const report = await new PutRecordBatchLoader({ client, streamName: 's' }).load([big, ...records(1)]);
    expect(report).toMatchObject({ records: 2, accepted: 1, failedForGood: 1 });
    expect(report.errors).toEqual({ RecordTooLarge: 1 });
    expect(sentPayloads()).toEqual([['{"n":0}']]);
  });
});
