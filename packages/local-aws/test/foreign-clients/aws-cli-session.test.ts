// The AWS CLI v1 and v2, where this machine has them (found explicitly: both are called `aws`), each through a lab
// user's session against one local endpoint (aws-cli-session.ts). A CLI that is missing skips, saying why; every
// check of a CLI that is there must pass. LOGLAKE_FOREIGN_CLIENTS=skip skips them (CI runs them on one Node line).
import { describe, expect, test, beforeAll, afterAll } from '@jest/globals';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CreateNamespaceCommand,
  CreateTableBucketCommand,
  CreateTableCommand,
  S3TablesClient,
} from '@aws-sdk/client-s3tables';
import {
  CreateDeliveryStreamCommand,
  FirehoseClient,
  type CreateDeliveryStreamCommandInput,
} from '@aws-sdk/client-firehose';
import { startLocalEndpoint, type LocalEndpoint } from '../../src/server';
import { localClientConfig } from '../../src/client-config';
import { awsCliSession, type SessionSetup } from './aws-cli-session';
import { findAwsClis, type AwsCli } from './toolchains';
import { foreignClientsSkipped } from './skip';

const skipped = foreignClientsSkipped();
const clis = skipped ? undefined : await findAwsClis();
const available = clis
  ? (['v1', 'v2'] as const).flatMap((v) => ('found' in clis[v] ? [[v, clis[v].found] as const] : []))
  : [];
for (const v of ['v1', 'v2'] as const) {
  const why = skipped ?? (clis && 'missing' in clis[v] ? clis[v].missing : undefined);
  if (why) console.log(`AWS CLI ${v} session skipped: ${why}`);
}
const maybe = available.length > 0 ? describe : describe.skip;

maybe('the AWS CLI against the local endpoint (a lab user session)', () => {
  let dir: string;
  let endpoint: LocalEndpoint;
  let s3tables: S3TablesClient;
  let firehose: FirehoseClient;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'local-aws-cli-'));
    endpoint = await startLocalEndpoint({
      dataDir: join(dir, 'data'),
      firehoseBufferIntervalOverrideSeconds: 1,
    });
    s3tables = new S3TablesClient(localClientConfig(endpoint.url));
    firehose = new FirehoseClient(localClientConfig(endpoint.url));
  });
  afterAll(async () => {
    s3tables?.destroy();
    firehose?.destroy();
    await endpoint?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** For a CLI release without `s3tables` commands: the bucket, namespaces and flow table by the AWS SDK. */
  const tableBucket = async (bucket: string, namespaces: string[]) => {
    const { arn } = await s3tables.send(new CreateTableBucketCommand({ name: bucket }));
    for (const namespace of namespaces)
      await s3tables.send(new CreateNamespaceCommand({ tableBucketARN: arn, namespace: [namespace] }));
    await s3tables.send(
      new CreateTableCommand({
        tableBucketARN: arn,
        namespace: 'flows',
        name: 'vpc_flow_logs',
        format: 'ICEBERG',
        metadata: {
          iceberg: {
            schema: {
              fields: [
                { name: 'srcaddr', type: 'string' },
                { name: 'bytes', type: 'long' },
              ],
            },
          },
        },
      }),
    );
    return arn as string;
  };
  const setup: SessionSetup = {
    tableBucket,
    deliveryStream: async (input) => {
      await firehose.send(
        new CreateDeliveryStreamCommand(input as unknown as CreateDeliveryStreamCommandInput),
      );
    },
  };

  // The CLIs run side by side (each on resources of its own): each is a separate process waiting on the endpoint.
  test(`${available.map(([v]) => v).join(' and ')}: every check of the session passes`, async () => {
    const sessions = await Promise.all(
      available.map(async ([tag, cli]: readonly [string, AwsCli]) => {
        const work = join(dir, tag);
        mkdirSync(work, { recursive: true });
        const started = Date.now();
        const checks = await awsCliSession(cli, endpoint.url, work, tag, setup);
        console.log(`${checks.summary()}\n  (${((Date.now() - started) / 1000).toFixed(1)} s)`);
        return checks;
      }),
    );
    for (const checks of sessions) {
      expect({ client: checks.client, failed: checks.failed.map((f) => `${f.name}: ${f.detail}`) }).toEqual({
        client: checks.client,
        failed: [],
      });
      expect(checks.passed).toBeGreaterThan(20);
    }
  }, 600_000);
});
