// The disk is full: the stream's log cannot be written (a real ENOSPC: the log's next files are /dev/full). The put
// is answered ServiceUnavailableException (HTTP 503, a server fault), never acknowledged; the SDK's own retry gets
// through once the log can be written again, and the records land once.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CreateDeliveryStreamCommand,
  FirehoseClient,
  PutRecordBatchCommand,
  ServiceUnavailableException,
} from '@aws-sdk/client-firehose';
import { GetTableCommand } from '@aws-sdk/client-s3tables';
import { readLatestWithIcebird } from '@loglake/lakehouse/testing';
import { flushLocalFirehose } from '../admin-client';
import { localClientConfig } from '../client-config';
import { startLocalEndpoint, type LocalEndpoint } from '../server';
import { localClients, type LocalClients } from '../../test/support/clients';
import { createFlowTable, icebergStreamInput } from '../../test/support/lab-setup';
import { segmentName } from './log-format';

const flows = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => ({
    Data: Buffer.from(JSON.stringify({ id: from + i, start_time: '2026-11-29T10:00:00.000Z' })),
  }));

describe('a full disk: the log cannot be written', () => {
  let dir: string;
  let endpoint: LocalEndpoint;
  let clients: LocalClients;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'local-disk-full-'));
    endpoint = await startLocalEndpoint({ dataDir: dir, firehoseBufferIntervalOverrideSeconds: 900 });
    clients = localClients(endpoint.url);
    await createFlowTable(clients.s3tables, 'full-lab', [
      { name: 'id', type: 'long', required: true },
      { name: 'start_time', type: 'timestamp' },
    ]);
    await clients.firehose.send(
      new CreateDeliveryStreamCommand(
        icebergStreamInput({ name: 'full', bucket: 'full-lab', role: 'full', errorBucket: 'full-errors' }),
      ),
    );
  });
  afterAll(async () => {
    clients.destroy();
    await endpoint.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('a put is refused with a retryable 503, never acknowledged; the SDK retry lands the records once', async () => {
    // Prepare: one delivered batch, then the next generation's first two log files point at /dev/full.
    expect(existsSync('/dev/full')).toBe(true);
    const put = (client: FirehoseClient, from: number) =>
      client.send(new PutRecordBatchCommand({ DeliveryStreamName: 'full', Records: flows(from, 100) }));
    await put(clients.firehose, 0);
    await flushLocalFirehose(endpoint.url);
    const logDir = join(dir, 'firehose', 'full');
    const next = JSON.parse(readFileSync(join(logDir, 'checkpoint.json'), 'utf8')).deliveredGeneration + 1;
    for (const part of [0, 1]) symlinkSync('/dev/full', join(logDir, segmentName(next, part)));
    const once = new FirehoseClient(localClientConfig(endpoint.url, 1));
    const retrying = new FirehoseClient(localClientConfig(endpoint.url, 3));

    // Act
    const refused = await put(once, 100).catch((error: unknown) => error);
    const retried = await put(retrying, 100);
    const stats = (await flushLocalFirehose(endpoint.url))['full'];
    once.destroy();
    retrying.destroy();

    // Assess: AWS's service-side failure, with its status and shape; the SDK retries it by itself.
    expect(refused).toBeInstanceOf(ServiceUnavailableException);
    const failure = refused as ServiceUnavailableException;
    expect(failure.$fault).toBe('server');
    expect(failure.$metadata.httpStatusCode).toBe(503);
    expect(failure.message).toMatch(/accepted none of them: .*ENOSPC.* Back off and retry/);
    expect(retried.FailedPutCount).toBe(0);
    expect(retried.$metadata.attempts).toBe(2);
    expect(stats).toMatchObject({ recordsReceived: 200, recordsDelivered: 200, recordsFailed: 0 });
    expect(stats?.durability?.failedWrites).toBe(2);
    const table = await clients.s3tables.send(
      new GetTableCommand({
        tableBucketARN: 'arn:aws:s3tables:us-east-1:123456789012:bucket/full-lab',
        namespace: 'network',
        name: 'vpc_flow_logs',
      }),
    );
    const ids = (await readLatestWithIcebird(table.warehouseLocation as string)).map((r) => Number(r['id']));
    expect(ids.sort((a, b) => a - b)).toEqual(Array.from({ length: 200 }, (_, i) => i));
  });
});
