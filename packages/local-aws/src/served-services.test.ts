import { describe, expect, test } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalEndpoint } from './server';
import { checkServedList, SERVED_SERVICES, servedServicesText } from './served-services';

describe('the one list of served services', () => {
  test('the endpoint starts with exactly the listed modules', async () => {
    // Prepare
    const dataDir = mkdtempSync(join(tmpdir(), 'served-'));
    try {
      // Act: start checks its modules against SERVED_SERVICES
      const endpoint = await startLocalEndpoint({ dataDir, port: 0 });
      await endpoint.stop();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  test('a module missing from the list (or the list naming one not built) is refused', () => {
    const modules = SERVED_SERVICES.map((s) => s.module);
    expect(() => checkServedList([...modules, 'Kinesis'])).toThrow(/not listed \["Kinesis"\]/);
    expect(() => checkServedList(modules.slice(1))).toThrow(/not built \["S3Tables"\]/);
  });

  test('the sentence names every service, the Iceberg REST endpoint, CloudWatch and STS included', () => {
    expect(servedServicesText()).toBe(
      "S3 Tables, S3 Tables' Iceberg REST endpoint, Firehose, Athena, CloudWatch, Glue, S3 and STS",
    );
  });
});
