// CreateTable without `metadata` (S3 Tables accepts it; Terraform's provider 5.x has no schema block), on the real
// engine: the table exists with an empty schema, modified no earlier than it was created; the first writer gives
// it its schema (an Iceberg REST commit adding one) and Athena reads the columns; before that, a Firehose record
// for it goes to the error output with its bytes rather than becoming an empty row.
import { describe, test, expect, beforeAll, afterAll } from '@jest/globals';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StartQueryExecutionCommand, GetQueryResultsCommand } from '@aws-sdk/client-athena';
import { CreateDeliveryStreamCommand, PutRecordCommand } from '@aws-sdk/client-firehose';
import {
  CreateNamespaceCommand,
  CreateTableBucketCommand,
  CreateTableCommand,
  GetTableCommand,
  GetTableMetadataLocationCommand,
} from '@aws-sdk/client-s3tables';
import { startLocalEndpoint, type LocalEndpoint } from '../server';
import { flushLocalFirehose } from '../admin-client';
import { localClients, waitForQuery, type LocalClients } from '../../test/support/clients';
import { icebergStreamInput } from '../../test/support/lab-setup';

const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });

describe('S3 Tables CreateTable without a schema (real engine)', () => {
  let dir: string;
  let endpoint: LocalEndpoint;
  let clients: LocalClients;
  let tableBucketARN: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'local-no-schema-'));
    endpoint = await startLocalEndpoint({ dataDir: dir, firehoseBufferIntervalOverrideSeconds: 0 });
    clients = localClients(endpoint.url);
    tableBucketARN = (await clients.s3tables.send(new CreateTableBucketCommand({ name: 'later-bucket' })))
      .arn as string;
    await clients.s3tables.send(new CreateNamespaceCommand({ tableBucketARN, namespace: ['network'] }));
  });
  afterAll(async () => {
    clients.destroy();
    await endpoint.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('the table is created with an empty schema; modifiedAt is not before createdAt', async () => {
    await clients.s3tables.send(
      new CreateTableCommand({ tableBucketARN, namespace: 'network', name: 'later', format: 'ICEBERG' }),
    );
    const table = await clients.s3tables.send(
      new GetTableCommand({ tableBucketARN, namespace: 'network', name: 'later' }),
    );
    expect(table.modifiedAt!.getTime()).toBeGreaterThanOrEqual(table.createdAt!.getTime());
    const location = await clients.s3tables.send(
      new GetTableMetadataLocationCommand({ tableBucketARN, namespace: 'network', name: 'later' }),
    );
    const metadata = JSON.parse(readFileSync(new URL(location.metadataLocation as string), 'utf8')) as {
      schemas: { fields: unknown[] }[];
    };
    expect(metadata.schemas).toEqual([{ 'schema-id': 0, type: 'struct', fields: [] }]);
  });

  test('before it has columns, a Firehose record for it goes to the error output whole', async () => {
    await clients.firehose.send(
      new CreateDeliveryStreamCommand(
        icebergStreamInput({
          name: 'to-later',
          bucket: 'later-bucket',
          role: 'firehose',
          errorBucket: 'later-errors',
        }),
      ),
    );
    // The stream points at network.vpc_flow_logs; make that one schemaless too.
    await clients.s3tables.send(
      new CreateTableCommand({
        tableBucketARN,
        namespace: 'network',
        name: 'vpc_flow_logs',
        format: 'ICEBERG',
      }),
    );
    const record = JSON.stringify({ srcaddr: '10.0.0.1', bytes: 42 });
    await clients.firehose.send(
      new PutRecordCommand({ DeliveryStreamName: 'to-later', Record: { Data: Buffer.from(record) } }),
    );
    await flushLocalFirehose(endpoint.url);
    const output = files(join(dir, 's3', 'later-errors'))
      .map((f) => readFileSync(f, 'utf8'))
      .join('\n');
    const line = JSON.parse(output.trim().split('\n')[0] as string) as { errorCode: string; rawData: string };
    expect(line.errorCode).toBe('Iceberg.SchemaMismatch');
    expect(Buffer.from(line.rawData, 'base64').toString()).toBe(record);
  });

  test('the first writer gives it a schema (an Iceberg REST commit), and Athena reads its columns', async () => {
    const prefix = encodeURIComponent(tableBucketARN);
    const response = await fetch(`${endpoint.url}/iceberg/v1/${prefix}/namespaces/network/tables/later`, {
      method: 'POST',
      body: JSON.stringify({
        requirements: [{ type: 'assert-current-schema-id', 'current-schema-id': 0 }],
        updates: [
          {
            action: 'add-schema',
            schema: {
              type: 'struct',
              'schema-id': 1,
              fields: [{ id: 1, name: 'srcaddr', type: 'string', required: false }],
            },
            'last-column-id': 1,
          },
          { action: 'set-current-schema', 'schema-id': -1 },
        ],
      }),
    });
    expect(response.status).toBe(200);
    const { QueryExecutionId } = await clients.athena.send(
      new StartQueryExecutionCommand({
        QueryString:
          'SELECT count(*) AS n, count(srcaddr) AS s FROM "s3tablescatalog/later-bucket".network.later',
        ResultConfiguration: { OutputLocation: 's3://results/' },
      }),
    );
    expect(await waitForQuery(clients.athena, QueryExecutionId as string)).toBe('SUCCEEDED');
    const results = await clients.athena.send(new GetQueryResultsCommand({ QueryExecutionId }));
    expect(results.ResultSet?.Rows?.map((r) => r.Data?.map((d) => d.VarCharValue))).toEqual([
      ['n', 's'],
      ['0', '0'],
    ]);
  });
});
