// The Iceberg experiments' --target aws path with the AWS side pinned: S3 Tables API calls through a mocked SDK
// client, and the Iceberg REST requests (host, path, SigV4 scope, bodies) as they would reach
// https://s3tables.<region>.amazonaws.com/iceberg, answered by a stand-in that keeps the table's refs.
import { afterEach, beforeEach, describe, expect, test } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  GetTableMaintenanceConfigurationCommand,
  PutTableMaintenanceConfigurationCommand,
  S3TablesClient,
} from '@aws-sdk/client-s3tables';
import { mockClient } from 'aws-sdk-client-mock';
import { icebergCatalogOptions } from '../iceberg/catalog';
import type { LabTarget } from '../target/lab-target';
import type { LabResources } from '../target/resources';
import { ExperimentContext, FULL_SCALE } from './context';
import { setCompactionStrategy } from './maintenance-now';
import { TAG_MAX_REF_AGE_MS, tagCleanup } from './snapshot-cleanup';

const RESOURCES = {
  region: 'us-east-1',
  accountId: '123456789012',
  tableBucketName: 'loglake-01-flow-logs',
  namespace: 'network',
  table: 'vpc_flow_logs',
  maintenance: { compactionTargetFileSizeMb: 512, minSnapshotsToKeep: 1, maxSnapshotAgeHours: 120 },
} as LabResources;
const ARN = 'arn:aws:s3tables:us-east-1:123456789012:bucket/loglake-01-flow-logs';
const TABLE_PATH = `/iceberg/v1/${encodeURIComponent(ARN)}/namespaces/network/tables/vpc_flow_logs`;

interface Seen {
  method: string;
  url: URL;
  authorization: string;
  body: unknown;
}

/** A stand-in for S3 Tables' Iceberg REST endpoint: config, loadTable, and commits that set or remove refs. */
function restStandIn(seen: Seen[]): typeof globalThis.fetch {
  const refs: Record<string, unknown> = { main: { 'snapshot-id': 42, type: 'branch' } };
  const metadata = () => ({
    'format-version': 2,
    'table-uuid': 'u',
    'current-snapshot-id': 42,
    refs: { ...refs },
  });
  const json = (body: unknown) =>
    new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(String(input));
    const body =
      typeof init?.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : undefined;
    seen.push({
      method: init?.method ?? 'GET',
      url,
      authorization: new Headers(init?.headers).get('authorization') ?? '',
      body,
    });
    if (url.pathname === '/iceberg/v1/config')
      return json({ defaults: {}, overrides: { prefix: encodeURIComponent(ARN) } });
    if (url.pathname !== TABLE_PATH) return new Response('{}', { status: 404 });
    for (const u of (body?.updates ?? []) as Record<string, unknown>[]) {
      if (u.action === 'set-snapshot-ref')
        refs[u['ref-name'] as string] = { 'snapshot-id': u['snapshot-id'], type: u.type };
      if (u.action === 'remove-snapshot-ref') delete refs[u['ref-name'] as string];
    }
    return json({ 'metadata-location': 's3://x/metadata/v2.metadata.json', metadata: metadata() });
  }) as typeof globalThis.fetch;
}

let dir: string;
let realFetch: typeof globalThis.fetch;
let s3tables: S3TablesClient;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'iceberg-aws-'));
  realFetch = globalThis.fetch;
  s3tables = new S3TablesClient({
    region: 'us-east-1',
    credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' },
  });
});
afterEach(() => {
  globalThis.fetch = realFetch;
  s3tables.destroy();
  rmSync(dir, { recursive: true, force: true });
});

const awsTarget = () => ({ kind: 'aws', resources: RESOURCES, s3tables }) as unknown as LabTarget;

describe('Iceberg experiments on --target aws', () => {
  test("the catalog is S3 Tables' own endpoint in the region, warehouse = the table bucket ARN, requests signed", () => {
    const options = icebergCatalogOptions(awsTarget());
    expect(options.baseUrl).toBe('https://s3tables.us-east-1.amazonaws.com/iceberg');
    expect(options.warehouse).toBe(ARN);
    expect(options.fetch).toBeDefined();
    // Locally the same warehouse on the endpoint's /iceberg, signed too (authorization identifies the caller).
    expect(icebergCatalogOptions({ ...awsTarget(), localUrl: 'http://127.0.0.1:4566' })).toEqual({
      baseUrl: 'http://127.0.0.1:4566/iceberg',
      warehouse: ARN,
      fetch: expect.any(Function),
    });
  });

  test('tag-cleanup sets the tag through the signed REST endpoint and removes it; no maintenance is triggered', async () => {
    // Prepare
    const seen: Seen[] = [];
    globalThis.fetch = restStandIn(seen);
    const mock = mockClient(s3tables);
    mock.on(GetTableMaintenanceConfigurationCommand).resolves({
      tableARN: `${ARN}/table/u`,
      configuration: {
        icebergSnapshotManagement: {
          status: 'enabled',
          settings: { icebergSnapshotManagement: { minSnapshotsToKeep: 1, maxSnapshotAgeHours: 120 } },
        },
      },
    });
    const ctx = new ExperimentContext(awsTarget(), FULL_SCALE, {}, join(dir, 'state.json'), () => undefined);
    // Act
    const outcome = await tagCleanup.run(ctx);
    // Assess
    expect(outcome.checks).toEqual({ tagSet: true, tagRemoved: true });
    expect(mock.commandCalls(GetTableMaintenanceConfigurationCommand)[0]?.args[0].input).toEqual({
      tableBucketARN: ARN,
      namespace: 'network',
      name: 'vpc_flow_logs',
    });
    const commits = seen.filter((s) => s.method === 'POST');
    expect(commits.map((c) => c.body)).toEqual([
      {
        requirements: [{ type: 'assert-ref-snapshot-id', ref: 'main', 'snapshot-id': 42 }],
        updates: [
          {
            action: 'set-snapshot-ref',
            'ref-name': 'audit',
            type: 'tag',
            'snapshot-id': 42,
            'max-ref-age-ms': TAG_MAX_REF_AGE_MS,
          },
        ],
      },
      { requirements: [], updates: [{ action: 'remove-snapshot-ref', 'ref-name': 'audit' }] },
    ]);
    for (const request of seen) {
      expect(request.url.host).toBe('s3tables.us-east-1.amazonaws.com');
      expect(request.authorization).toMatch(
        /Credential=AKIDEXAMPLE\/\d{8}\/us-east-1\/s3tables\/aws4_request/,
      );
    }
    expect(seen.some((s) => s.url.pathname.startsWith('/_local'))).toBe(false);
    mock.restore();
  });

  test('the sort strategy is set with the unit target file size, as PutTableMaintenanceConfiguration takes it', async () => {
    // Prepare
    const mock = mockClient(s3tables);
    mock.on(PutTableMaintenanceConfigurationCommand).resolves({});
    const ctx = new ExperimentContext(awsTarget(), FULL_SCALE, {}, join(dir, 'state.json'), () => undefined);
    // Act
    await setCompactionStrategy(ctx, 'sort');
    // Assess
    expect(mock.commandCalls(PutTableMaintenanceConfigurationCommand)[0]?.args[0].input).toEqual({
      tableBucketARN: ARN,
      namespace: 'network',
      name: 'vpc_flow_logs',
      type: 'icebergCompaction',
      value: {
        status: 'enabled',
        settings: { icebergCompaction: { targetFileSizeMB: 512, strategy: 'sort' } },
      },
    });
    mock.restore();
  });
});
