import { describe, test, expect, beforeAll, afterAll } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalEndpoint, type LocalEndpoint } from './server';
import { LocalEndpointConfigError } from './errors';
import { MemoryWarehouse } from '../test/support/memory-warehouse';

describe('local endpoint server', () => {
  let dir: string;
  let endpoint: LocalEndpoint;
  const warehouse = new MemoryWarehouse();

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'local-server-'));
    endpoint = await startLocalEndpoint({ dataDir: dir, engine: { openWarehouse: async () => warehouse } });
  });
  afterAll(async () => {
    await endpoint.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('binds to loopback on an ephemeral port and answers the admin health check', async () => {
    const health = (await (await fetch(`${endpoint.url}/_local/health`)).json()) as { ok: boolean };
    expect(endpoint.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(endpoint.port).toBeGreaterThan(0);
    expect(health.ok).toBe(true);
  });

  test('an awsJson target no module serves is answered with an error naming it', async () => {
    const response = await fetch(endpoint.url, {
      method: 'POST',
      headers: {
        'x-amz-target': 'Kinesis_20131202.ListStreams',
        'content-type': 'application/x-amz-json-1.1',
      },
      body: '{}',
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('x-amzn-errortype')).toBe('UnsupportedOperationException');
    expect(((await response.json()) as { message: string }).message).toContain(
      'Kinesis_20131202.ListStreams is not supported by the local endpoint',
    );
  });

  test('awsQuery services (IAM, SNS...) get an awsQuery error naming the action', async () => {
    const response = await fetch(endpoint.url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
      body: 'Action=ListRoles&Version=2010-05-08',
    });
    const body = await response.text();
    expect(response.status).toBe(400);
    expect(body).toContain('<Code>UnsupportedOperation</Code>');
    expect(body).toContain('The operation ListRoles');
  });

  test('a port already in use is a configuration error that says what to do', async () => {
    await expect(
      startLocalEndpoint({
        dataDir: dir,
        port: endpoint.port,
        engine: { openWarehouse: async () => new MemoryWarehouse() },
      }),
    ).rejects.toThrow(LocalEndpointConfigError);
  });

  test('stop closes the engine', async () => {
    const other = new MemoryWarehouse();
    const second = await startLocalEndpoint({
      dataDir: join(dir, 'second'),
      engine: { openWarehouse: async () => other },
    });
    await second.stop();
    expect(other.closed).toBe(true);
  });

  test('maintenanceIntervalSeconds runs the maintenance jobs on a schedule', async () => {
    // Prepare
    const memory = new MemoryWarehouse();
    await memory.createTableBucket('sched-bucket');
    await memory.createNamespace('sched-bucket', 'network');
    await memory.createTable('sched-bucket', 'network', 'flows', { columns: [{ name: 'n', type: 'long' }] });
    const scheduled = await startLocalEndpoint({
      dataDir: join(dir, 'scheduled'),
      maintenanceIntervalSeconds: 1,
      engine: { openWarehouse: async () => memory },
    });

    // Act
    await new Promise((resolve) => setTimeout(resolve, 1600));
    const reports = (await (await fetch(`${scheduled.url}/_local/maintenance/reports`)).json()) as {
      reports: { type: string; status: string }[];
    };
    await scheduled.stop();

    // Assess
    expect(reports.reports.filter((r) => r.type === 'icebergCompaction').map((r) => r.status)).toContain(
      'Successful',
    );
  });
});
