// The S3 Tables Iceberg REST endpoint driven by iceberg-js (a REST catalog client no one here wrote), on the real
// engine: create, load, commit with requirements, a failed requirement, the idempotent retry, bad input; and the
// same catalog seen through the S3 Tables API and Athena (a REST append is a new snapshot Athena reads).
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateWorkGroupCommand } from '@aws-sdk/client-athena';
import {
  CreateNamespaceCommand,
  CreateTableBucketCommand,
  GetTableCommand,
  GetTableMetadataLocationCommand,
} from '@aws-sdk/client-s3tables';
import { IcebergError, IcebergRestCatalog, type TableMetadata } from 'iceberg-js';
import { DuckDbSession, TableLayout, produceSnapshot, writeDataFiles } from '@loglake/lakehouse/testing';
import { type TableMetadata as EngineMetadata } from '@loglake/lakehouse/iceberg';
import { startLocalEndpoint, type LocalEndpoint } from '../server';
import { localClients, type LocalClients } from '../../test/support/clients';
import { athenaRows } from '../../test/support/athena';

const BUCKET = 'rest-lab';
const ARN = `arn:aws:s3tables:us-east-1:123456789012:bucket/${BUCKET}`;
const ID = { namespace: ['network'], name: 'events' };

let dir: string;
let endpoint: LocalEndpoint;
let clients: LocalClients;
let catalog: IcebergRestCatalog;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'iceberg-rest-'));
  endpoint = await startLocalEndpoint({ dataDir: dir, athenaMinCutoffBytes: 1 });
  clients = localClients(endpoint.url);
  await clients.s3tables.send(new CreateTableBucketCommand({ name: BUCKET }));
  await clients.athena.send(
    new CreateWorkGroupCommand({
      Name: 'rest',
      Configuration: { ManagedQueryResultsConfiguration: { Enabled: true } },
    }),
  );
  catalog = new IcebergRestCatalog({ baseUrl: `${endpoint.url}/iceberg`, warehouse: ARN });
}, 60_000);

afterAll(async () => {
  clients?.destroy();
  await endpoint?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function refused(work: Promise<unknown>): Promise<IcebergError> {
  const error = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof IcebergError)) throw new Error(`expected an IcebergError, got ${String(error)}`);
  return error;
}

const metadataLocation = async () =>
  (
    await clients.s3tables.send(
      new GetTableMetadataLocationCommand({ tableBucketARN: ARN, namespace: 'network', name: 'events' }),
    )
  ).metadataLocation;

describe('S3 Tables Iceberg REST endpoint, driven by iceberg-js', () => {
  test('config names the warehouse as a one-segment prefix; a namespace made through REST is one S3 Tables lists', async () => {
    // Act
    const config = await catalog.loadConfig();
    await catalog.createNamespace({ namespace: ['network'] });
    // Assess
    expect(config.overrides.prefix).toBe(encodeURIComponent(ARN));
    expect((await catalog.listNamespaces()).namespaces).toEqual([{ namespace: ['network'] }]);
  });

  test('create and load: the table S3 Tables GetTable returns, at format version 2', async () => {
    // Act
    const created = await catalog.createTable(
      { namespace: ['network'] },
      {
        name: 'events',
        schema: {
          type: 'struct',
          fields: [
            { id: 1, name: 'srcaddr', type: 'string', required: false },
            { id: 2, name: 'bytes', type: 'long', required: false },
            { id: 3, name: 'start_time', type: 'timestamp', required: false },
          ],
        },
      },
    );
    const loaded = await catalog.loadTableResult(ID);
    const viaApi = await clients.s3tables.send(
      new GetTableCommand({ tableBucketARN: ARN, namespace: 'network', name: 'events' }),
    );
    // Assess
    expect(created['format-version']).toBe(2);
    expect(loaded?.['metadata-location']).toBe(viaApi.metadataLocation);
    expect((await catalog.listTables({ namespace: ['network'] })).identifiers).toEqual([ID]);
  });

  test('a commit with requirements is the next metadata location; a stale requirement is a 409 that changes nothing; the retried addition is idempotent', async () => {
    // Prepare
    const before = await metadataLocation();
    const declareOrder = {
      action: 'add-sort-order' as const,
      'sort-order': {
        'order-id': 1,
        fields: [
          {
            'source-id': 3,
            transform: 'identity',
            direction: 'asc' as const,
            'null-order': 'nulls-first' as const,
          },
        ],
      },
    };
    const commit = {
      requirements: [{ type: 'assert-default-sort-order-id' as const, 'default-sort-order-id': 0 }],
      updates: [declareOrder, { action: 'set-default-sort-order' as const, 'sort-order-id': -1 }],
    };
    // Act
    const committed = await catalog.commitTable(ID, commit);
    const stale = await refused(catalog.commitTable(ID, commit));
    const afterStale = await metadataLocation();
    const retried = await catalog.commitTable(ID, { requirements: [], updates: commit.updates });
    // Assess
    expect(committed['metadata-location']).not.toBe(before);
    expect(afterStale).toBe(committed['metadata-location']);
    expect(stale.status).toBe(409);
    expect(stale.icebergType).toBe('CommitFailedException');
    expect(retried.metadata['sort-orders'].map((o) => o['order-id'])).toEqual([0, 1]);
    expect(retried.metadata['default-sort-order-id']).toBe(1);
  });

  test('a REST append (files written by the client, snapshot committed with assert-ref-snapshot-id) is a new snapshot Athena reads', async () => {
    // Prepare: the client writes a data file and a manifest list into the table location, as a REST writer does.
    const loaded = (await catalog.loadTable(ID)) as TableMetadata;
    const meta = loaded as unknown as EngineMetadata;
    const session = await DuckDbSession.open();
    const layout = new TableLayout(meta.location);
    const files = await writeDataFiles({
      session,
      layout,
      meta,
      sourceSql: `SELECT '10.0.0.' || i AS srcaddr, i * 100 AS bytes, TIMESTAMP '2026-11-30 12:00:00' AS start_time FROM range(5) t(i)`,
      table: 'network.events',
    });
    const produced = await produceSnapshot(meta, layout, {
      operation: 'append',
      added: files.map((file) => ({ file, specId: 0 })),
      removed: [],
    });
    session.close();
    const snapshot = produced.snapshot;
    // Act
    const appended = await catalog.commitTable(ID, {
      requirements: [{ type: 'assert-ref-snapshot-id', ref: 'main', 'snapshot-id': null }],
      updates: [
        { action: 'add-snapshot', snapshot: snapshot as never },
        {
          action: 'set-snapshot-ref',
          'ref-name': 'main',
          type: 'branch',
          'snapshot-id': snapshot['snapshot-id'],
        },
      ],
    });
    const rows = await athenaRows(clients.athena, {
      sql: 'SELECT count(*), sum(bytes) FROM events',
      workgroup: 'rest',
      catalog: `s3tablescatalog/${BUCKET}`,
      database: 'network',
    });
    const snapshots = await athenaRows(clients.athena, {
      sql: 'SELECT snapshot_id, operation FROM "events$snapshots"',
      workgroup: 'rest',
      catalog: `s3tablescatalog/${BUCKET}`,
      database: 'network',
    });
    // Assess
    expect(appended['metadata-location']).toBe(await metadataLocation());
    expect(rows).toEqual([['5', '1000']]);
    expect(snapshots).toEqual([[String(snapshot['snapshot-id']), 'append']]);
  }, 60_000);

  test('bad input answers the REST error model: unknown warehouse, malformed body, unsupported update, bad names, unserved endpoints', async () => {
    // Prepare
    const other = new IcebergRestCatalog({
      baseUrl: `${endpoint.url}/iceberg`,
      warehouse: 'arn:aws:s3tables:us-east-1:123456789012:bucket/no-such-bucket',
    });
    const before = await metadataLocation();
    const post = (path: string, body: string) =>
      fetch(`${endpoint.url}/iceberg/v1/${encodeURIComponent(ARN)}${path}`, { method: 'POST', body });
    // Act
    const unknown = await refused(other.listNamespaces());
    const malformed = await post('/namespaces/network/tables/events', '{"updates": [');
    const upgrade = await refused(
      catalog.commitTable(ID, {
        requirements: [],
        updates: [{ action: 'upgrade-format-version', 'format-version': 3 }],
      }),
    );
    // Well-formed JSON, malformed members: each a 400, none a crash (a 500) inside the commit.
    const shapes = await Promise.all(
      [
        '{"requirements": [null], "updates": []}',
        '{"updates": [null]}',
        '{"updates": [{"action": "remove-snapshots", "snapshot-ids": 5}]}',
        '{"updates": [{"action": "set-properties", "updates": {"a": 1}}]}',
        '{"requirements": [{"type": "assert-current-schema-id"}], "updates": []}',
        '{"requirements": []}',
      ].map((body) => post('/namespaces/network/tables/events', body)),
    );
    const badName = await refused(catalog.createNamespace({ namespace: ['Bad-Name'] }));
    const nested = await refused(catalog.createNamespace({ namespace: ['a', 'b'] }));
    const register = await refused(
      catalog.registerTable({ namespace: ['network'] }, { name: 'x', 'metadata-location': before as string }),
    );
    // Assess
    expect([unknown.status, unknown.icebergType]).toEqual([404, 'NoSuchWarehouseException']);
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as { error: { type: string; code: number } }).error).toMatchObject({
      type: 'BadRequestException',
      code: 400,
    });
    expect([upgrade.status, upgrade.icebergType]).toEqual([400, 'BadRequestException']);
    expect(shapes.map((r) => r.status)).toEqual([400, 400, 400, 400, 400, 400]);
    for (const r of shapes)
      expect(((await r.json()) as { error: { type: string } }).error.type).toBe('BadRequestException');
    expect([badName.status, nested.status]).toEqual([400, 400]);
    expect([register.status, register.icebergType]).toEqual([406, 'UnsupportedOperationException']);
    expect(await metadataLocation()).toBe(before);
    // The S3 Tables API sees the namespace the REST client made.
    await expect(
      clients.s3tables.send(new CreateNamespaceCommand({ tableBucketARN: ARN, namespace: ['network'] })),
    ).rejects.toMatchObject({ name: 'ConflictException' });
  });
});
