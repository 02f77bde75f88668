// The endpoint as an attacker on the same machine tries it (issue 22): with no signature, a SigV2 one, a malformed or
// mis-scoped SigV4 one, an access key that is a path, an unknown key, a forged session file, and as the analyst, every
// write and every ungranted read on every served service — and names that are paths, keys with `..`, Athena writing
// where its caller may not, the admin API. Each is refused with the protocol's error (never a 500), and the data
// folder is byte for byte what it was (query history aside: Athena records a refused query as FAILED, as AWS does).
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import {
  AthenaClient,
  CreateWorkGroupCommand,
  DeleteWorkGroupCommand,
  GetQueryExecutionCommand,
  GetQueryResultsCommand,
  StartQueryExecutionCommand,
  TagResourceCommand as TagWorkGroupCommand,
  UpdateWorkGroupCommand,
} from '@aws-sdk/client-athena';
import {
  CloudWatchClient,
  DeleteAlarmsCommand,
  TagResourceCommand as TagAlarmCommand,
  DescribeAlarmsCommand,
  PutMetricAlarmCommand,
  PutMetricDataCommand,
} from '@aws-sdk/client-cloudwatch';
import {
  CreateDeliveryStreamCommand,
  DeleteDeliveryStreamCommand,
  DescribeDeliveryStreamCommand,
  FirehoseClient,
  PutRecordCommand,
  UpdateDestinationCommand,
} from '@aws-sdk/client-firehose';
import {
  CreateDatabaseCommand,
  CreateTableCommand as CreateGlueTableCommand,
  DeleteDatabaseCommand,
  DeleteTableCommand as DeleteGlueTableCommand,
  GetDatabaseCommand,
  GetDatabasesCommand,
  GetPartitionsCommand,
  GetTableCommand as GetGlueTableCommand,
  GetTablesCommand,
  GetTableVersionsCommand,
  GlueClient,
  SearchTablesCommand,
  TagResourceCommand as TagGlueCommand,
  UpdateTableCommand as UpdateGlueTableCommand,
} from '@aws-sdk/client-glue';
import {
  CreateBucketCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutBucketReplicationCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import {
  CreateNamespaceCommand,
  CreateTableBucketCommand,
  CreateTableCommand,
  DeleteTableCommand,
  GetTableCommand,
  GetTableMetadataLocationCommand,
  PutTableBucketReplicationCommand,
  PutTablePolicyCommand,
  PutTableReplicationCommand,
  S3TablesClient,
  TagResourceCommand as TagTablesCommand,
  UpdateTableMetadataLocationCommand,
} from '@aws-sdk/client-s3tables';
import { AssumeRoleCommand, STSClient } from '@aws-sdk/client-sts';
import { FLOW_LOG_V2_SCHEMA } from '@loglake/flowgen';
import type { AuthorizationOptions } from './options';
import { localClientConfig, type LocalClientCredentials } from '../client-config';
import { loadEngineFactories } from '../engine';
import { startLocalEndpoint, type LocalEndpoint } from '../server';
import { waitForQuery } from '../../test/support/clients';
import {
  ACCOUNT,
  ANALYST,
  BUCKET,
  CATALOG_ID,
  DEPLOYER_KEY,
  ERROR_BUCKET,
  FIREHOSE,
  role,
  testAuthorization,
  WORKGROUP,
} from '../../test/support/authorization';
import { createFlowTable, icebergStreamInput } from '../../test/support/lab-setup';

const factories = await loadEngineFactories();
const SNAP_BUCKET = 'adv-snapshots';
const KEYS_BUCKET = 'adv-keys';
const CTAS_ROLE = role('lab-ctas');
const WRITER_ROLE = role('lab-writer');
/** Runs the pipeline (Firehose, Athena, S3 Tables, S3, Glue) and may pass the Firehose role only. */
const OPERATOR_ROLE = role('lab-operator');
/** A role Firehose (and any service) could act as, that may do anything: what the operator may not hand out. */
const POWER_ROLE = role('lab-power');
const doc = (...Statement: unknown[]) => ({ Version: '2012-10-17', Statement });
const trustDeployer = doc({
  Effect: 'Allow',
  Principal: { AWS: role('lab-deployer') },
  Action: 'sts:AssumeRole',
});

/** The CTAS role reads the flow table (Lake Formation), as the snapshot-build role does. */
function withGrant(options: AuthorizationOptions): AuthorizationOptions {
  const lf = options.lakeFormation ?? { grants: [] };
  return {
    ...options,
    lakeFormation: {
      ...lf,
      grants: [
        ...lf.grants,
        {
          principal: CTAS_ROLE,
          permissions: ['SELECT', 'DESCRIBE'],
          catalogId: CATALOG_ID,
          database: 'network',
          table: '*',
        },
        { principal: CTAS_ROLE, permissions: ['DESCRIBE'], catalogId: CATALOG_ID, database: 'network' },
      ],
    },
  };
}

/** How a request's signature is tampered with after the SDK signed it. */
type Tamper = (headers: Record<string, string>) => void;
const SIG = 'f'.repeat(64);
const TAMPERS: Record<string, Tamper> = {
  unsigned: (h) => {
    delete h.authorization;
    delete h['x-amz-security-token'];
  },
  sigv2: (h) => {
    h.authorization = `AWS ${DEPLOYER_KEY.accessKeyId}:frJIUN8DYpKDtOLCwo//yllqDzg=`;
  },
  // The old endpoint's walk-around: a SigV2 key joined into a session path, so the Firehose stream's JSON (which has
  // a roleArn) became a session of the Firehose role.
  'sigv2-key-is-a-path': (h) => {
    delete h['x-amz-security-token'];
    h.authorization = 'AWS ../../firehose/streams/adv-stream:frJIUN8DYpKDtOLCwo//yllqDzg=';
  },
  // The same for a file that is not there: the old endpoint answered 500 for a directory, 403 for none (an oracle).
  'sigv2-key-is-a-missing-path': (h) => {
    delete h['x-amz-security-token'];
    h.authorization = 'AWS ../../../../../../../../etc/nothing-here:frJIUN8DYpKDtOLCwo//yllqDzg=';
  },
  'key-is-a-path': (h) => {
    h.authorization = h.authorization!.replace(
      /Credential=[^/]+\//,
      'Credential=../../firehose/streams/adv-stream/',
    );
  },
  'key-too-short': (h) => {
    h.authorization = h.authorization!.replace(/Credential=[^/]+\//, 'Credential=local/');
  },
  'scope-for-another-service': (h) => {
    h.authorization = h.authorization!.replace(/\/([a-z0-9]+)\/aws4_request/, '/sts/aws4_request');
  },
  'no-signature': (h) => {
    h.authorization = h.authorization!.replace(/, ?Signature=[0-9a-f]+/, '');
  },
  'signature-not-hex': (h) => {
    h.authorization = h.authorization!.replace(/Signature=[0-9a-f]+/, 'Signature=nothex');
  },
  bearer: (h) => {
    h.authorization = 'Bearer abc';
  },
  // A key whose "session" file is forged (no token, an expiration that does not parse): see beforeAll. Without a
  // token header, the old endpoint compared undefined with undefined and took the file for the deployer's session.
  'forged-session-no-token': (h) => {
    h.authorization = h.authorization!.replace(/Credential=[^/]+\//, `Credential=${FORGED_KEY}/`);
    delete h['x-amz-security-token'];
  },
  // A key whose "session" file is forged (no token, an expiration that does not parse): see beforeAll.
  'forged-session': (h) => {
    h.authorization = h.authorization!.replace(/Credential=[^/]+\//, `Credential=${FORGED_KEY}/`);
    h['x-amz-security-token'] = 'anything';
  },
};
const FORGED_KEY = 'ASIAFORGEDSESSION001';

/** What any refusal may be called, in any protocol (AWS's codes; each test checks the protocol's own). */
const REFUSAL_NAMES = new Set([
  'MissingAuthenticationTokenException',
  'IncompleteSignatureException',
  'InvalidSignatureException',
  'UnrecognizedClientException',
  'AccessDeniedException',
  'AccessDenied',
  'InvalidRequest',
  'InvalidArgument',
  'AuthorizationHeaderMalformed',
  'SignatureDoesNotMatch',
  'InvalidAccessKeyId',
  'MissingAuthenticationToken',
  'IncompleteSignature',
  'InvalidClientTokenId',
]);

function clientsFor(url: string, credentials: LocalClientCredentials, tamper?: Tamper) {
  const config = localClientConfig(url, 1, 'us-east-1', credentials);
  const all = {
    athena: new AthenaClient(config),
    cloudwatch: new CloudWatchClient(config),
    firehose: new FirehoseClient(config),
    glue: new GlueClient(config),
    s3: new S3Client({ ...config, forcePathStyle: true }),
    s3tables: new S3TablesClient(config),
    sts: new STSClient(config),
  };
  if (tamper)
    for (const client of Object.values(all))
      (client.middlewareStack as unknown as MiddlewareAdder).add(
        (next: (args: { request: unknown }) => Promise<unknown>) => async (args: { request: unknown }) => {
          tamper((args.request as { headers: Record<string, string> }).headers);
          return next(args);
        },
        { step: 'finalizeRequest', priority: 'low', name: 'tamper' },
      );
  return all;
}
type Clients = ReturnType<typeof clientsFor>;
interface MiddlewareAdder {
  add(
    middleware: (
      next: (args: { request: unknown }) => Promise<unknown>,
    ) => (args: { request: unknown }) => Promise<unknown>,
    options: { step: 'finalizeRequest'; priority: 'low'; name: string },
  ): void;
}

async function outcome(
  promise: Promise<unknown>,
): Promise<{ name: string; status: number; message: string }> {
  try {
    await promise;
    return { name: 'ALLOWED', status: 200, message: '' };
  } catch (error) {
    const e = error as { name: string; message: string; $metadata?: { httpStatusCode?: number } };
    return { name: e.name, status: e.$metadata?.httpStatusCode ?? 0, message: e.message };
  }
}

/** Every file of the data folder with its digest, query history and scratch space aside. */
function fingerprint(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      const rel = relative(dir, path);
      if (/^(tmp|state\/athena\/(queries|results)|state\/cloudwatch\/metrics)/.test(rel)) continue;
      if (entry.isDirectory()) walk(path);
      else out[rel] = createHash('sha256').update(readFileSync(path)).digest('hex');
    }
  };
  walk(dir);
  return out;
}

describe('the local endpoint walked around as an attacker would (issue 22)', () => {
  let dir: string;
  let endpoint: LocalEndpoint;
  let deployer: Clients;
  let analyst: LocalClientCredentials;
  let bucketArn: string;

  const asRole = async (roleArn: string) => {
    const c = (await deployer.sts.send(new AssumeRoleCommand({ RoleArn: roleArn, RoleSessionName: 'adv' })))
      .Credentials;
    return {
      accessKeyId: c?.AccessKeyId as string,
      secretAccessKey: c?.SecretAccessKey as string,
      sessionToken: c?.SessionToken as string,
    };
  };
  const run = async (athena: AthenaClient, sql: string, workgroup = WORKGROUP) => {
    const { QueryExecutionId } = await athena.send(
      new StartQueryExecutionCommand({
        QueryString: sql,
        WorkGroup: workgroup,
        QueryExecutionContext: { Catalog: `s3tablescatalog/${BUCKET}`, Database: 'network' },
      }),
    );
    const state = await waitForQuery(athena, QueryExecutionId as string);
    const { QueryExecution } = await athena.send(new GetQueryExecutionCommand({ QueryExecutionId }));
    return { id: QueryExecutionId as string, state, reason: QueryExecution?.Status?.StateChangeReason ?? '' };
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'local-adversarial-'));
    endpoint = await startLocalEndpoint({
      dataDir: dir,
      engine: factories,
      athenaMinCutoffBytes: 1,
      firehoseBufferIntervalOverrideSeconds: 3600,
      authorization: withGrant(
        testAuthorization({
          extraRoles: [
            // Runs CTAS into the snapshot bucket only (as the snapshot-build role does), not into the error bucket.
            {
              arn: CTAS_ROLE,
              trustPolicy: trustDeployer,
              policies: [
                {
                  name: 'ctas',
                  document: doc(
                    { Effect: 'Allow', Action: ['athena:*'], Resource: '*' },
                    { Effect: 'Allow', Action: ['glue:*'], Resource: '*' },
                    { Effect: 'Allow', Action: ['lakeformation:GetDataAccess'], Resource: '*' },
                    {
                      Effect: 'Allow',
                      Action: ['s3:ListBucket', 's3:GetBucketLocation'],
                      Resource: `arn:aws:s3:::${SNAP_BUCKET}`,
                    },
                    {
                      Effect: 'Allow',
                      Action: ['s3:PutObject', 's3:GetObject'],
                      Resource: `arn:aws:s3:::${SNAP_BUCKET}/runs/*`,
                    },
                  ),
                },
              ],
            },
            {
              arn: OPERATOR_ROLE,
              trustPolicy: trustDeployer,
              policies: [
                {
                  name: 'operate',
                  document: doc(
                    {
                      Effect: 'Allow',
                      Action: ['firehose:*', 'athena:*', 's3tables:*', 's3:*', 'glue:*'],
                      Resource: '*',
                    },
                    { Effect: 'Allow', Action: 'iam:PassRole', Resource: FIREHOSE },
                    // Allowed every tag but these: the lab's workgroup, table bucket, Glue database and alarm.
                    { Effect: 'Allow', Action: ['cloudwatch:*'], Resource: '*' },
                    {
                      Effect: 'Deny',
                      Action: [
                        'athena:TagResource',
                        's3tables:TagResource',
                        'glue:TagResource',
                        'cloudwatch:TagResource',
                      ],
                      Resource: [
                        `arn:aws:athena:us-east-1:${ACCOUNT}:workgroup/${WORKGROUP}`,
                        `arn:aws:s3tables:us-east-1:${ACCOUNT}:bucket/${BUCKET}`,
                        `arn:aws:glue:us-east-1:${ACCOUNT}:database/snapdb`,
                        `arn:aws:cloudwatch:us-east-1:${ACCOUNT}:alarm:adv-alarm`,
                      ],
                    },
                    // And the snapshot table and its database stay.
                    {
                      Effect: 'Deny',
                      Action: ['glue:DeleteTable', 'glue:UpdateTable', 'glue:DeleteDatabase'],
                      Resource: [
                        `arn:aws:glue:us-east-1:${ACCOUNT}:database/snapdb`,
                        `arn:aws:glue:us-east-1:${ACCOUNT}:table/snapdb/daily`,
                      ],
                    },
                  ),
                },
              ],
            },
            {
              arn: POWER_ROLE,
              trustPolicy: doc({
                Effect: 'Allow',
                Principal: {
                  Service: ['firehose.amazonaws.com', 'athena.amazonaws.com', 's3.amazonaws.com'],
                },
                Action: 'sts:AssumeRole',
              }),
              policies: [
                { name: 'everything', document: doc({ Effect: 'Allow', Action: '*', Resource: '*' }) },
              ],
            },
            // May write and delete under `prefix/` of one bucket, nothing else.
            {
              arn: WRITER_ROLE,
              trustPolicy: trustDeployer,
              policies: [
                {
                  name: 'prefix',
                  document: doc({
                    Effect: 'Allow',
                    Action: ['s3:PutObject', 's3:GetObject', 's3:DeleteObject'],
                    Resource: `arn:aws:s3:::${KEYS_BUCKET}/prefix/*`,
                  }),
                },
              ],
            },
          ],
        }),
      ),
    });
    deployer = clientsFor(endpoint.url, DEPLOYER_KEY);
    bucketArn = await createFlowTable(
      deployer.s3tables,
      BUCKET,
      FLOW_LOG_V2_SCHEMA.map((c) => ({ ...c, required: false })),
    );
    for (const namespace of ['lab', 'spare'])
      await deployer.s3tables.send(
        new CreateNamespaceCommand({ tableBucketARN: bucketArn, namespace: [namespace] }),
      );
    await deployer.athena.send(
      new CreateWorkGroupCommand({
        Name: WORKGROUP,
        Configuration: { ManagedQueryResultsConfiguration: { Enabled: true } },
      }),
    );
    // A secret the analyst has no grant on.
    for (const sql of [
      'CREATE TABLE lab.authz_secret (secret varchar)',
      "INSERT INTO lab.authz_secret VALUES ('the-secret')",
      "INSERT INTO vpc_flow_logs (srcaddr, bytes) VALUES ('10.0.0.1', 1)",
    ])
      expect((await run(deployer.athena, sql)).state).toBe('SUCCEEDED');
    for (const Bucket of [ERROR_BUCKET, SNAP_BUCKET, KEYS_BUCKET])
      await deployer.s3.send(new CreateBucketCommand({ Bucket }));
    for (const Key of ['prefix/mine', 'other/victim'])
      await deployer.s3.send(new PutObjectCommand({ Bucket: KEYS_BUCKET, Key, Body: Key }));
    await deployer.glue.send(new CreateDatabaseCommand({ DatabaseInput: { Name: 'snapdb' } }));
    await deployer.glue.send(
      new CreateGlueTableCommand({
        DatabaseName: 'snapdb',
        TableInput: {
          Name: 'daily',
          StorageDescriptor: {
            Location: `s3://${SNAP_BUCKET}/daily/`,
            Columns: [{ Name: 'x', Type: 'int' }],
          },
        },
      }),
    );
    await deployer.firehose.send(
      new CreateDeliveryStreamCommand(
        icebergStreamInput({
          name: 'adv-stream',
          bucket: BUCKET,
          role: 'lab-firehose',
          errorBucket: ERROR_BUCKET,
        }),
      ),
    );
    analyst = await asRole(ANALYST);
    // A forged session: a JSON file where sessions are kept, naming the deployer, with no token and an expiration
    // that does not parse (the old endpoint took undefined === undefined and NaN as "never expires").
    const sessions = join(dir, 'state', 'iam', 'sessions');
    mkdirSync(sessions, { recursive: true });
    writeFileSync(
      join(sessions, `${FORGED_KEY}.json`),
      JSON.stringify({
        accessKeyId: FORGED_KEY,
        roleArn: role('lab-deployer'),
        sessionName: 'x',
        expiration: 'never',
      }),
    );
  });
  afterAll(async () => {
    for (const client of Object.values(deployer ?? {})) client.destroy();
    await endpoint.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Every write, and reads the analyst was not granted, as the SDK sends them. */
  const attacks = (c: Clients): [string, () => Promise<unknown>][] => [
    [
      'firehose:CreateDeliveryStream',
      () =>
        c.firehose.send(
          new CreateDeliveryStreamCommand(
            icebergStreamInput({
              name: 'evil',
              bucket: BUCKET,
              role: 'lab-firehose',
              errorBucket: ERROR_BUCKET,
            }),
          ),
        ),
    ],
    [
      'firehose:PutRecord',
      () =>
        c.firehose.send(
          new PutRecordCommand({
            DeliveryStreamName: 'adv-stream',
            Record: { Data: Buffer.from('{"srcaddr":"6.6.6.6"}') },
          }),
        ),
    ],
    [
      'firehose:DeleteDeliveryStream',
      () => c.firehose.send(new DeleteDeliveryStreamCommand({ DeliveryStreamName: 'adv-stream' })),
    ],
    [
      'firehose:DescribeDeliveryStream',
      () => c.firehose.send(new DescribeDeliveryStreamCommand({ DeliveryStreamName: 'adv-stream' })),
    ],
    ['athena:CreateWorkGroup', () => c.athena.send(new CreateWorkGroupCommand({ Name: 'evil' }))],
    [
      'athena:UpdateWorkGroup',
      () =>
        c.athena.send(
          new UpdateWorkGroupCommand({
            WorkGroup: WORKGROUP,
            ConfigurationUpdates: { BytesScannedCutoffPerQuery: 10_000_000 },
          }),
        ),
    ],
    ['athena:DeleteWorkGroup', () => c.athena.send(new DeleteWorkGroupCommand({ WorkGroup: WORKGROUP }))],
    [
      'glue:CreateDatabase',
      () => c.glue.send(new CreateDatabaseCommand({ DatabaseInput: { Name: 'evil' } })),
    ],
    [
      'glue:DeleteTable',
      () => c.glue.send(new DeleteGlueTableCommand({ DatabaseName: 'snapdb', Name: 'daily' })),
    ],
    ['glue:DeleteDatabase', () => c.glue.send(new DeleteDatabaseCommand({ Name: 'snapdb' }))],
    ['glue:GetTable', () => c.glue.send(new GetGlueTableCommand({ DatabaseName: 'snapdb', Name: 'daily' }))],
    ['s3:CreateBucket', () => c.s3.send(new CreateBucketCommand({ Bucket: 'evil-bucket' }))],
    ['s3:PutObject', () => c.s3.send(new PutObjectCommand({ Bucket: ERROR_BUCKET, Key: 'evil', Body: 'x' }))],
    [
      's3:DeleteObject',
      () => c.s3.send(new DeleteObjectCommand({ Bucket: KEYS_BUCKET, Key: 'other/victim' })),
    ],
    [
      's3:DeleteObjects',
      () =>
        c.s3.send(
          new DeleteObjectsCommand({ Bucket: KEYS_BUCKET, Delete: { Objects: [{ Key: 'other/victim' }] } }),
        ),
    ],
    ['s3:GetObject', () => c.s3.send(new GetObjectCommand({ Bucket: KEYS_BUCKET, Key: 'other/victim' }))],
    ['s3:ListObjectsV2', () => c.s3.send(new ListObjectsV2Command({ Bucket: ERROR_BUCKET }))],
    [
      's3tables:CreateTableBucket',
      () => c.s3tables.send(new CreateTableBucketCommand({ name: 'evil-bucket' })),
    ],
    [
      's3tables:CreateNamespace',
      () => c.s3tables.send(new CreateNamespaceCommand({ tableBucketARN: bucketArn, namespace: ['evil'] })),
    ],
    [
      's3tables:CreateTable',
      () =>
        c.s3tables.send(
          new CreateTableCommand({
            tableBucketARN: bucketArn,
            namespace: 'lab',
            name: 'evil',
            format: 'ICEBERG',
          }),
        ),
    ],
    [
      's3tables:DeleteTable',
      () =>
        c.s3tables.send(
          new DeleteTableCommand({ tableBucketARN: bucketArn, namespace: 'lab', name: 'authz_secret' }),
        ),
    ],
    [
      's3tables:PutTablePolicy',
      () =>
        c.s3tables.send(
          new PutTablePolicyCommand({
            tableBucketARN: bucketArn,
            namespace: 'lab',
            name: 'authz_secret',
            resourcePolicy: '{}',
          }),
        ),
    ],
    [
      's3tables:UpdateTableMetadataLocation',
      () =>
        c.s3tables.send(
          new UpdateTableMetadataLocationCommand({
            tableBucketARN: bucketArn,
            namespace: 'lab',
            name: 'authz_secret',
            versionToken: '1',
            metadataLocation: 'file:///etc/passwd',
          }),
        ),
    ],
    [
      's3tables:GetTableMetadataLocation',
      () =>
        c.s3tables.send(
          new GetTableMetadataLocationCommand({
            tableBucketARN: bucketArn,
            namespace: 'lab',
            name: 'authz_secret',
          }),
        ),
    ],
    [
      'cloudwatch:PutMetricData',
      () =>
        c.cloudwatch.send(
          new PutMetricDataCommand({ Namespace: 'Evil', MetricData: [{ MetricName: 'x', Value: 1 }] }),
        ),
    ],
    [
      'cloudwatch:PutMetricAlarm',
      () =>
        c.cloudwatch.send(
          new PutMetricAlarmCommand({
            AlarmName: 'evil',
            MetricName: 'x',
            Namespace: 'Evil',
            Statistic: 'Sum',
            Period: 60,
            EvaluationPeriods: 1,
            Threshold: 1,
            ComparisonOperator: 'GreaterThanThreshold',
          }),
        ),
    ],
    ['cloudwatch:DeleteAlarms', () => c.cloudwatch.send(new DeleteAlarmsCommand({ AlarmNames: ['x'] }))],
    ['cloudwatch:DescribeAlarms', () => c.cloudwatch.send(new DescribeAlarmsCommand({}))],
  ];

  test.each(Object.keys(TAMPERS))(
    'a request %s is refused on every service with its protocol’s error, and nothing changes',
    async (kind) => {
      const before = fingerprint(dir);
      const c = clientsFor(endpoint.url, DEPLOYER_KEY, TAMPERS[kind]);
      try {
        for (const [what, attack] of attacks(c)) {
          const o = await outcome(attack());
          expect({ what, name: REFUSAL_NAMES.has(o.name) ? 'refused' : o.name }).toEqual({
            what,
            name: 'refused',
          });
          expect({ what, status: o.status }).toEqual({ what, status: expect.any(Number) });
          expect([400, 401, 403]).toContain(o.status);
        }
        // Athena as well: no query is even accepted.
        const started = await outcome(
          c.athena.send(new StartQueryExecutionCommand({ QueryString: 'SELECT 1', WorkGroup: WORKGROUP })),
        );
        expect(REFUSAL_NAMES.has(started.name)).toBe(true);
      } finally {
        for (const client of Object.values(c)) client.destroy();
      }
      expect(fingerprint(dir)).toEqual(before);
    },
  );

  test("each protocol's own code: SigV2, a mis-scoped credential, a key of the wrong form", async () => {
    const sigv2 = clientsFor(endpoint.url, DEPLOYER_KEY, TAMPERS.sigv2);
    const scoped = clientsFor(endpoint.url, DEPLOYER_KEY, TAMPERS['scope-for-another-service']);
    const short = clientsFor(endpoint.url, DEPLOYER_KEY, TAMPERS['key-too-short']);
    try {
      const fh = () => new DescribeDeliveryStreamCommand({ DeliveryStreamName: 'adv-stream' });
      const s3 = () => new GetObjectCommand({ Bucket: KEYS_BUCKET, Key: 'prefix/mine' });
      expect(await outcome(sigv2.firehose.send(fh()))).toMatchObject({
        name: 'IncompleteSignatureException',
        status: 400,
      });
      expect(await outcome(sigv2.s3.send(s3()))).toMatchObject({ name: 'InvalidRequest', status: 400 });
      expect((await outcome(sigv2.s3.send(s3()))).message).toContain('Please use AWS4-HMAC-SHA256');
      expect(await outcome(scoped.firehose.send(fh()))).toMatchObject({
        name: 'InvalidSignatureException',
        status: 400,
      });
      expect((await outcome(scoped.firehose.send(fh()))).message).toContain(
        "Credential should be scoped to correct service: 'firehose'",
      );
      expect(await outcome(scoped.s3.send(s3()))).toMatchObject({
        name: 'AuthorizationHeaderMalformed',
        status: 400,
      });
      expect(await outcome(short.firehose.send(fh()))).toMatchObject({
        name: 'UnrecognizedClientException',
        status: 400,
      });
      expect(await outcome(short.s3.send(s3()))).toMatchObject({ name: 'InvalidAccessKeyId', status: 403 });
    } finally {
      for (const set of [sigv2, scoped, short]) for (const client of Object.values(set)) client.destroy();
    }
  });

  test('the analyst tries every write and every ungranted read: all refused, nothing changes', async () => {
    const before = fingerprint(dir);
    const c = clientsFor(endpoint.url, analyst);
    const stranger = clientsFor(endpoint.url, { accessKeyId: 'AKIANOBODYKNOWSTHIS1', secretAccessKey: 'x' });
    try {
      for (const who of [c, stranger])
        for (const [what, attack] of attacks(who)) {
          const o = await outcome(attack());
          expect({ what, name: REFUSAL_NAMES.has(o.name) ? 'refused' : o.name }).toEqual({
            what,
            name: 'refused',
          });
        }
      // SQL writes and the ungranted read: each query FAILED, no row changed.
      for (const sql of [
        'SELECT * FROM lab.authz_secret',
        "INSERT INTO vpc_flow_logs (srcaddr) VALUES ('6.6.6.6')",
        'DELETE FROM vpc_flow_logs',
        'DROP TABLE vpc_flow_logs',
        'CREATE TABLE evil (x int)',
      ])
        expect((await run(c.athena, sql)).state).toBe('FAILED');
    } finally {
      for (const set of [c, stranger]) for (const client of Object.values(set)) client.destroy();
    }
    expect(fingerprint(dir)).toEqual(before);
  });

  test("Glue's view of the S3 Tables catalog asks Lake Formation, as Athena does: no grant, no metadata", async () => {
    const c = clientsFor(endpoint.url, analyst);
    const ctas = clientsFor(endpoint.url, await asRole(CTAS_ROLE));
    const before = fingerprint(dir); // after AssumeRole (its session is kept)
    const CatalogId = CATALOG_ID;
    try {
      // Athena refuses the analyst the secret table (no Lake Formation grant on lab.*).
      expect((await run(c.athena, 'DESCRIBE lab.authz_secret')).state).toBe('FAILED');
      // Glue, with the same IAM permissions (glue:GetTable etc. on the catalog's lab database and tables), refuses
      // too: AccessDeniedException in Glue's JSON shape, for a table that exists and one that does not alike.
      const denied = (o: { name: string; status: number; message: string }) => ({
        name: o.name,
        status: o.status,
        lakeFormation: o.message.startsWith('Insufficient Lake Formation permission(s)'),
      });
      const refused = { name: 'AccessDeniedException', status: 400, lakeFormation: true };
      const ungranted: [string, () => Promise<unknown>][] = [
        [
          'GetTable',
          () =>
            c.glue.send(new GetGlueTableCommand({ CatalogId, DatabaseName: 'lab', Name: 'authz_secret' })),
        ],
        [
          'GetTable (no such table)',
          () =>
            c.glue.send(new GetGlueTableCommand({ CatalogId, DatabaseName: 'lab', Name: 'nothing_here' })),
        ],
        ['GetTables', () => c.glue.send(new GetTablesCommand({ CatalogId, DatabaseName: 'lab' }))],
        ['GetDatabase', () => c.glue.send(new GetDatabaseCommand({ CatalogId, Name: 'lab' }))],
        [
          'GetTableVersions',
          () =>
            ctas.glue.send(
              new GetTableVersionsCommand({ CatalogId, DatabaseName: 'lab', TableName: 'authz_secret' }),
            ),
        ],
        [
          'UpdateTable',
          () =>
            ctas.glue.send(
              new UpdateGlueTableCommand({
                CatalogId,
                DatabaseName: 'lab',
                TableInput: { Name: 'authz_secret' },
              }),
            ),
        ],
        [
          'DeleteTable',
          () =>
            ctas.glue.send(
              new DeleteGlueTableCommand({ CatalogId, DatabaseName: 'network', Name: 'vpc_flow_logs' }),
            ),
        ],
        [
          'CreateTable',
          () =>
            ctas.glue.send(
              new CreateGlueTableCommand({ CatalogId, DatabaseName: 'lab', TableInput: { Name: 'evil' } }),
            ),
        ],
        // The CTAS role has glue:* and Describe on network: not Drop, not Create Database.
        ['DeleteDatabase', () => ctas.glue.send(new DeleteDatabaseCommand({ CatalogId, Name: 'spare' }))],
        [
          'CreateDatabase',
          () => ctas.glue.send(new CreateDatabaseCommand({ CatalogId, DatabaseInput: { Name: 'evil' } })),
        ],
      ];
      for (const [what, attack] of ungranted)
        expect({ what, ...denied(await outcome(attack())) }).toEqual({ what, ...refused });
      // Lists leave out what the caller may not see: the CTAS role sees network (granted), not lab or spare.
      const ctasDatabases = await ctas.glue.send(new GetDatabasesCommand({ CatalogId }));
      expect(ctasDatabases.DatabaseList?.map((d) => d.Name)).toEqual(['network']);
      // What is granted stays readable through Glue.
      const tables = await c.glue.send(new GetTablesCommand({ CatalogId, DatabaseName: 'network' }));
      expect(tables.TableList?.map((t) => t.Name)).toEqual(['vpc_flow_logs']);
      const flows = await c.glue.send(
        new GetGlueTableCommand({ CatalogId, DatabaseName: 'network', Name: 'vpc_flow_logs' }),
      );
      expect(flows.Table?.Name).toBe('vpc_flow_logs');
      // The deployer (a data lake administrator, with grants) sees every database.
      const all = await deployer.glue.send(new GetDatabasesCommand({ CatalogId }));
      expect(all.DatabaseList?.map((d) => d.Name).sort()).toEqual(['lab', 'network', 'spare']);
      // Glue operations that could name the table otherwise are not served at all: nothing comes back.
      for (const attack of [
        () => c.glue.send(new SearchTablesCommand({ CatalogId, SearchText: 'authz_secret' })),
        () =>
          c.glue.send(
            new GetPartitionsCommand({ CatalogId, DatabaseName: 'lab', TableName: 'authz_secret' }),
          ),
      ]) {
        const o = await outcome(attack());
        expect(o.name).not.toBe('ALLOWED');
        expect(o.message).not.toContain('the-secret');
      }
    } finally {
      for (const set of [c, ctas]) for (const client of Object.values(set)) client.destroy();
    }
    expect(fingerprint(dir)).toEqual(before);
  });

  test('a role put into a configuration needs iam:PassRole on it: Firehose, Athena, S3 Tables, S3', async () => {
    const op = clientsFor(endpoint.url, await asRole(OPERATOR_ROLE));
    const before = fingerprint(dir); // after AssumeRole (its session is kept)
    try {
      const stream = await op.firehose.send(
        new DescribeDeliveryStreamCommand({ DeliveryStreamName: 'adv-stream' }),
      );
      const current = stream.DeliveryStreamDescription;
      const update = (IcebergDestinationUpdate: Record<string, unknown>) =>
        op.firehose.send(
          new UpdateDestinationCommand({
            DeliveryStreamName: 'adv-stream',
            CurrentDeliveryStreamVersionId: current?.VersionId,
            DestinationId: current?.Destinations?.[0]?.DestinationId,
            IcebergDestinationUpdate,
          }),
        );
      const passRoleDenied = (o: { name: string; status: number; message: string }) => ({
        name: o.name,
        status: o.status,
        // S3 quotes the resource in its denials, the JSON services do not.
        passRole: new RegExp(`not authorized to perform: iam:PassRole on resource: "?${POWER_ROLE}`).test(
          o.message,
        ),
      });
      const attacks: [string, () => Promise<unknown>, { name: string; status: number }][] = [
        [
          'firehose:UpdateDestination RoleARN',
          () => update({ RoleARN: POWER_ROLE }),
          { name: 'AccessDeniedException', status: 400 },
        ],
        [
          'firehose:UpdateDestination S3Configuration.RoleARN',
          () =>
            update({ S3Configuration: { RoleARN: POWER_ROLE, BucketARN: `arn:aws:s3:::${ERROR_BUCKET}` } }),
          { name: 'AccessDeniedException', status: 400 },
        ],
        [
          'firehose:CreateDeliveryStream',
          () =>
            op.firehose.send(
              new CreateDeliveryStreamCommand(
                icebergStreamInput({
                  name: 'evil',
                  bucket: BUCKET,
                  role: 'lab-power',
                  errorBucket: ERROR_BUCKET,
                }),
              ),
            ),
          { name: 'AccessDeniedException', status: 400 },
        ],
        [
          'athena:CreateWorkGroup ExecutionRole',
          () =>
            op.athena.send(
              new CreateWorkGroupCommand({ Name: 'evil', Configuration: { ExecutionRole: POWER_ROLE } }),
            ),
          { name: 'AccessDeniedException', status: 400 },
        ],
        [
          'athena:UpdateWorkGroup ExecutionRole',
          () =>
            op.athena.send(
              new UpdateWorkGroupCommand({
                WorkGroup: WORKGROUP,
                ConfigurationUpdates: { ExecutionRole: POWER_ROLE },
              }),
            ),
          { name: 'AccessDeniedException', status: 400 },
        ],
        [
          's3tables:PutTableBucketReplication',
          () =>
            op.s3tables.send(
              new PutTableBucketReplicationCommand({
                tableBucketARN: bucketArn,
                configuration: {
                  role: POWER_ROLE,
                  rules: [{ destinations: [{ destinationTableBucketARN: bucketArn }] }],
                },
              }),
            ),
          { name: 'AccessDeniedException', status: 403 },
        ],
        [
          's3tables:PutTableReplication',
          async () => {
            const table = await op.s3tables.send(
              new GetTableCommand({ tableBucketARN: bucketArn, namespace: 'network', name: 'vpc_flow_logs' }),
            );
            return op.s3tables.send(
              new PutTableReplicationCommand({
                tableArn: table.tableARN,
                configuration: {
                  role: POWER_ROLE,
                  rules: [{ destinations: [{ destinationTableBucketARN: bucketArn }] }],
                },
              }),
            );
          },
          { name: 'AccessDeniedException', status: 403 },
        ],
        [
          's3:PutBucketReplication',
          () =>
            op.s3.send(
              new PutBucketReplicationCommand({
                Bucket: KEYS_BUCKET,
                ReplicationConfiguration: {
                  Role: POWER_ROLE,
                  Rules: [{ Status: 'Enabled', Destination: { Bucket: `arn:aws:s3:::${SNAP_BUCKET}` } }],
                },
              }),
            ),
          { name: 'AccessDenied', status: 403 },
        ],
      ];
      for (const [what, attack, expected] of attacks)
        expect({ what, ...passRoleDenied(await outcome(attack())) }).toEqual({
          what,
          ...expected,
          passRole: true,
        });
      const after = await op.firehose.send(
        new DescribeDeliveryStreamCommand({ DeliveryStreamName: 'adv-stream' }),
      );
      expect(after.DeliveryStreamDescription?.VersionId).toBe(current?.VersionId);
      expect(fingerprint(dir)).toEqual(before);
      // The role the operator may pass, it may put in.
      await update({ RoleARN: FIREHOSE });
      const updated = await op.firehose.send(
        new DescribeDeliveryStreamCommand({ DeliveryStreamName: 'adv-stream' }),
      );
      expect(
        updated.DeliveryStreamDescription?.Destinations?.[0]?.IcebergDestinationDescription?.RoleARN,
      ).toBe(FIREHOSE);
    } finally {
      for (const client of Object.values(op)) client.destroy();
    }
  });

  test('a resource ARN naming another region or account is authorized as the resource acted on: a Deny holds', async () => {
    await deployer.cloudwatch.send(
      new PutMetricAlarmCommand({
        AlarmName: 'adv-alarm',
        MetricName: 'x',
        Namespace: 'Adv',
        Statistic: 'Sum',
        Period: 60,
        EvaluationPeriods: 1,
        Threshold: 1,
        ComparisonOperator: 'GreaterThanThreshold',
      }),
    );
    const op = clientsFor(endpoint.url, await asRole(OPERATOR_ROLE));
    const before = fingerprint(dir); // after AssumeRole (its session is kept)
    try {
      // The services match an ARN by its resource name, whatever region or account it names (../arn.ts).
      for (const [region, account] of [
        ['us-east-1', ACCOUNT],
        ['us-west-2', ACCOUNT],
        ['us-east-1', '999999999999'],
      ] as const) {
        const attacks: [string, () => Promise<unknown>][] = [
          [
            'athena',
            () =>
              op.athena.send(
                new TagWorkGroupCommand({
                  ResourceARN: `arn:aws:athena:${region}:${account}:workgroup/${WORKGROUP}`,
                  Tags: [{ Key: 'evil', Value: '1' }],
                }),
              ),
          ],
          [
            's3tables',
            () =>
              op.s3tables.send(
                new TagTablesCommand({
                  resourceArn: `arn:aws:s3tables:${region}:${account}:bucket/${BUCKET}`,
                  tags: { evil: '1' },
                }),
              ),
          ],
          [
            'glue',
            () =>
              op.glue.send(
                new TagGlueCommand({
                  ResourceArn: `arn:aws:glue:${region}:${account}:database/snapdb`,
                  TagsToAdd: { evil: '1' },
                }),
              ),
          ],
          [
            'cloudwatch',
            () =>
              op.cloudwatch.send(
                new TagAlarmCommand({
                  ResourceARN: `arn:aws:cloudwatch:${region}:${account}:alarm:adv-alarm`,
                  Tags: [{ Key: 'evil', Value: '1' }],
                }),
              ),
          ],
        ];
        for (const [what, attack] of attacks) {
          const o = await outcome(attack());
          expect({
            what,
            region,
            account,
            name: o.name,
            explicitDeny: o.message.includes('explicit deny'),
          }).toEqual({
            what,
            region,
            account,
            name: 'AccessDeniedException',
            explicitDeny: true,
          });
        }
      }
    } finally {
      for (const client of Object.values(op)) client.destroy();
    }
    expect(fingerprint(dir)).toEqual(before);
  });

  test('Glue names are authorized as Glue keeps them (lower case): `SNAPDB`.`Daily` is snapdb.daily, and a Deny holds', async () => {
    const op = clientsFor(endpoint.url, await asRole(OPERATOR_ROLE));
    const before = fingerprint(dir); // after AssumeRole (its session is kept)
    try {
      const attacks: [string, () => Promise<unknown>][] = [
        [
          'DeleteTable',
          () => op.glue.send(new DeleteGlueTableCommand({ DatabaseName: 'SNAPDB', Name: 'Daily' })),
        ],
        [
          'UpdateTable',
          () =>
            op.glue.send(
              new UpdateGlueTableCommand({
                DatabaseName: 'SnapDB',
                TableInput: { Name: 'DAILY', StorageDescriptor: { Location: `s3://${KEYS_BUCKET}/other/` } },
              }),
            ),
        ],
        ['DeleteDatabase', () => op.glue.send(new DeleteDatabaseCommand({ Name: 'SNAPDB' }))],
        [
          'TagResource',
          () =>
            op.glue.send(
              new TagGlueCommand({
                ResourceArn: `arn:aws:glue:us-east-1:${ACCOUNT}:database/SNAPDB`,
                TagsToAdd: { evil: '1' },
              }),
            ),
        ],
      ];
      for (const [what, attack] of attacks) {
        const o = await outcome(attack());
        expect({ what, name: o.name, explicitDeny: o.message.includes('explicit deny') }).toEqual({
          what,
          name: 'AccessDeniedException',
          explicitDeny: true,
        });
      }
    } finally {
      for (const client of Object.values(op)) client.destroy();
    }
    expect(fingerprint(dir)).toEqual(before);
  });

  test('names that are paths find nothing: SQL, Glue, Firehose, CloudWatch, Athena ids, S3 Tables', async () => {
    const before = fingerprint(dir);
    const c = clientsFor(endpoint.url, analyst);
    try {
      // The analyst may read `network.*`: a name under it that walks to lab.authz_secret is no table.
      for (const table of ['"../../lab/tables/authz_secret"', '"..%2F..%2Flab%2Ftables%2Fauthz_secret"']) {
        const q = await run(c.athena, `SELECT * FROM network.${table}`);
        expect(q.state).toBe('FAILED');
        expect(q.reason).toMatch(/TABLE_NOT_FOUND|does not exist/);
      }
      const q = await run(deployer.athena, 'SELECT * FROM "s3tablescatalog/../authz-lab".lab.authz_secret');
      expect(q.state).toBe('FAILED');
      // Glue: a table name that walks to another database's table.
      expect(
        await outcome(
          deployer.glue.send(
            new GetGlueTableCommand({ DatabaseName: 'snapdb', Name: '../../databases/snapdb' }),
          ),
        ),
      ).toMatchObject({ status: 400 });
      expect(
        await outcome(deployer.glue.send(new GetTablesCommand({ DatabaseName: '../tables/snapdb' }))),
      ).toMatchObject({
        status: 400,
      });
      const viaSql = await run(
        deployer.athena,
        'SELECT * FROM awsdatacatalog.snapdb."../../versions/snapdb/daily"',
      );
      expect(viaSql.state).toBe('FAILED');
      // Firehose, CloudWatch, Athena query ids: not found, never a 500.
      expect(
        await outcome(
          deployer.firehose.send(new DescribeDeliveryStreamCommand({ DeliveryStreamName: '..' })),
        ),
      ).toMatchObject({ name: 'ResourceNotFoundException', status: 400 });
      expect(
        (await deployer.cloudwatch.send(new DescribeAlarmsCommand({ AlarmNames: ['../../iam/sessions/x'] })))
          .MetricAlarms,
      ).toEqual([]);
      for (const id of ['../../iam/sessions/' + FORGED_KEY, '../workgroups/primary', '..'])
        expect(
          await outcome(deployer.athena.send(new GetQueryResultsCommand({ QueryExecutionId: id }))),
        ).toMatchObject({ name: 'InvalidRequestException', status: 400 });
      expect(
        await outcome(
          deployer.s3tables.send(
            new GetTableCommand({ tableBucketARN: bucketArn, namespace: 'network', name: '../lab' }),
          ),
        ),
      ).toMatchObject({ name: 'BadRequestException', status: 400 });
    } finally {
      for (const client of Object.values(c)) client.destroy();
    }
    expect(fingerprint(dir)).toEqual(before);
  });

  test('the Iceberg REST endpoint: a namespace or table that is a path is refused, nothing is read', async () => {
    const prefix = encodeURIComponent(bucketArn);
    const sign = (service = 's3tables'): Record<string, string> => ({
      authorization: `AWS4-HMAC-SHA256 Credential=${analyst.accessKeyId}/20261201/us-east-1/${service}/aws4_request, SignedHeaders=host;x-amz-date, Signature=${SIG}`,
      'x-amz-date': '20261201T000000Z',
      'x-amz-security-token': analyst.sessionToken as string,
    });
    for (const path of [
      `/iceberg/v1/${prefix}/namespaces/${encodeURIComponent('../lab')}/tables/authz_secret`,
      `/iceberg/v1/${prefix}/namespaces/network/tables/${encodeURIComponent('../../lab/tables/authz_secret')}`,
      `/iceberg/v1/${prefix}/namespaces/network/tables/..%2F..%2Flab%2Ftables%2Fauthz_secret`,
    ]) {
      const response = await fetch(`${endpoint.url}${path}`, { headers: sign() });
      const body = await response.text();
      expect([400, 403, 404]).toContain(response.status);
      expect(body).not.toContain('the-secret');
      expect(body).not.toContain('metadata-location');
    }
    // Unsigned, SigV2, mis-scoped: 401, the REST spec's NotAuthorizedException.
    for (const headers of [{}, { authorization: `AWS ${DEPLOYER_KEY.accessKeyId}:abc` }, sign('s3')]) {
      const response = await fetch(`${endpoint.url}/iceberg/v1/${prefix}/namespaces`, { headers });
      expect(response.status).toBe(401);
      expect(((await response.json()) as { error: { type: string } }).error.type).toBe(
        'NotAuthorizedException',
      );
    }
  });

  test('S3 keys are authorized as written and stored as written: `prefix/..%2F` cannot reach out of prefix/', async () => {
    const writer = clientsFor(endpoint.url, await asRole(WRITER_ROLE));
    try {
      for (const Key of [
        'prefix/../other/victim',
        'prefix/..%2Fother%2Fvictim',
        'prefix/%2e%2e/other/victim',
      ]) {
        await writer.s3.send(new PutObjectCommand({ Bucket: KEYS_BUCKET, Key, Body: 'overwritten' }));
        await writer.s3.send(new DeleteObjectCommand({ Bucket: KEYS_BUCKET, Key }));
      }
      const victim = await deployer.s3.send(
        new GetObjectCommand({ Bucket: KEYS_BUCKET, Key: 'other/victim' }),
      );
      expect(await victim.Body?.transformToString()).toBe('other/victim');
      // And refused outright where the key as written is outside prefix/.
      expect(
        await outcome(
          writer.s3.send(new PutObjectCommand({ Bucket: KEYS_BUCKET, Key: 'other/victim', Body: 'x' })),
        ),
      ).toMatchObject({ name: 'AccessDenied', status: 403 });
    } finally {
      for (const client of Object.values(writer)) client.destroy();
    }
  });

  test('Athena writes S3 as its caller: a CTAS or results where the caller may not put objects fail, nothing written', async () => {
    const ctas = clientsFor(endpoint.url, await asRole(CTAS_ROLE));
    try {
      await deployer.athena.send(
        new CreateWorkGroupCommand({
          Name: 'adv-ctas',
          Configuration: {
            EnforceWorkGroupConfiguration: false,
            ManagedQueryResultsConfiguration: { Enabled: true },
          },
        }),
      );
      const into = (bucket: string, prefix: string, name: string) =>
        `CREATE TABLE awsdatacatalog.snapdb.${name} WITH (format = 'PARQUET', external_location = 's3://${bucket}/${prefix}/') AS SELECT srcaddr FROM "s3tablescatalog/${BUCKET}".network.vpc_flow_logs`;
      const refused = await run(ctas.athena, into(ERROR_BUCKET, 'stolen', 'stolen'), 'adv-ctas');
      expect(refused.state).toBe('FAILED');
      expect(refused.reason).toMatch(
        /is not authorized to perform: s3:(GetBucketLocation|ListBucket|PutObject) on resource: arn:aws:s3:::authz-lab-errors/,
      );
      expect(
        (await deployer.s3.send(new ListObjectsV2Command({ Bucket: ERROR_BUCKET, Prefix: 'stolen/' })))
          .KeyCount,
      ).toBe(0);
      // Where its policy allows, the same CTAS runs.
      expect((await run(ctas.athena, into(SNAP_BUCKET, 'runs/1', 'run_1'), 'adv-ctas')).state).toBe(
        'SUCCEEDED',
      );
      // Results to an output location (no managed results) in a bucket the caller may not write: FAILED.
      await deployer.athena.send(
        new CreateWorkGroupCommand({
          Name: 'adv-results',
          Configuration: { ResultConfiguration: { OutputLocation: `s3://${ERROR_BUCKET}/results/` } },
        }),
      );
      const results = await run(ctas.athena, 'SELECT 1', 'adv-results');
      expect(results.state).toBe('FAILED');
      expect(results.reason).toMatch(
        /^Access denied when writing output to url: s3:\/\/.*\/results\/.*\.csv/,
      );
    } finally {
      for (const client of Object.values(ctas)) client.destroy();
    }
  });

  test('GetQueryResults needs s3:GetObject on the results object (AWS streams them from S3, as the caller)', async () => {
    const ctas = clientsFor(endpoint.url, await asRole(CTAS_ROLE));
    try {
      // A workgroup whose results go to a prefix the CTAS role may not read (it may read runs/ only).
      for (const [Name, prefix] of [
        ['adv-shared', 'shared'],
        ['adv-runs', 'runs/results'],
      ])
        await deployer.athena.send(
          new CreateWorkGroupCommand({
            Name,
            Configuration: { ResultConfiguration: { OutputLocation: `s3://${SNAP_BUCKET}/${prefix}/` } },
          }),
        );
      const secret = await run(deployer.athena, 'SELECT secret FROM lab.authz_secret', 'adv-shared');
      expect(secret.state).toBe('SUCCEEDED');
      const results = await outcome(
        ctas.athena.send(new GetQueryResultsCommand({ QueryExecutionId: secret.id })),
      );
      expect({ name: results.name, status: results.status }).toEqual({
        name: 'InvalidRequestException',
        status: 400,
      });
      expect(results.message).toContain(
        'You do not seem to have access to the S3 location of your query results',
      );
      expect(results.message).toContain(
        `s3:GetObject on resource: arn:aws:s3:::${SNAP_BUCKET}/shared/${secret.id}.csv`,
      );
      expect(results.message).not.toContain('the-secret');
      // Where the role may read, it reads its own results.
      const own = await run(ctas.athena, "SELECT 'mine' AS x", 'adv-runs');
      expect(own.state).toBe('SUCCEEDED');
      const mine = await ctas.athena.send(new GetQueryResultsCommand({ QueryExecutionId: own.id }));
      expect(mine.ResultSet?.Rows?.[1]?.Data?.[0]?.VarCharValue).toBe('mine');
    } finally {
      for (const client of Object.values(ctas)) client.destroy();
    }
  });

  test("Athena reads a Glue table's S3 data as its caller: no s3:GetObject there, no rows", async () => {
    const ctas = clientsFor(endpoint.url, await asRole(CTAS_ROLE));
    try {
      await deployer.athena.send(
        new CreateWorkGroupCommand({
          Name: 'adv-reads',
          Configuration: {
            EnforceWorkGroupConfiguration: false,
            ManagedQueryResultsConfiguration: { Enabled: true },
          },
        }),
      );
      const copy = (name: string, prefix: string) =>
        `CREATE TABLE awsdatacatalog.snapdb.${name} WITH (format = 'PARQUET', external_location = 's3://${SNAP_BUCKET}/${prefix}/') AS SELECT srcaddr FROM "s3tablescatalog/${BUCKET}".network.vpc_flow_logs`;
      // The deployer copies the flows where the CTAS role may not read (it may read runs/ only).
      expect((await run(deployer.athena, copy('elsewhere', 'elsewhere'), 'adv-reads')).state).toBe(
        'SUCCEEDED',
      );
      const refused = await run(ctas.athena, 'SELECT * FROM awsdatacatalog.snapdb.elsewhere', 'adv-reads');
      expect(refused.state).toBe('FAILED');
      expect(refused.reason).toContain(`Permission denied on S3 path: s3://${SNAP_BUCKET}/elsewhere/`);
      expect(refused.reason).toContain(
        `not authorized to perform: s3:GetObject on resource: arn:aws:s3:::${SNAP_BUCKET}/elsewhere/`,
      );
      // As S3 itself refuses the role those objects.
      const listed = await deployer.s3.send(
        new ListObjectsV2Command({ Bucket: SNAP_BUCKET, Prefix: 'elsewhere/' }),
      );
      const key = listed.Contents?.[0]?.Key as string;
      expect(
        await outcome(ctas.s3.send(new GetObjectCommand({ Bucket: SNAP_BUCKET, Key: key }))),
      ).toMatchObject({
        name: 'AccessDenied',
        status: 403,
      });
      // What it may read, it reads.
      expect((await run(ctas.athena, copy('run_2', 'runs/2'), 'adv-reads')).state).toBe('SUCCEEDED');
      const own = await run(ctas.athena, 'SELECT count(*) FROM awsdatacatalog.snapdb.run_2', 'adv-reads');
      expect(own.state).toBe('SUCCEEDED');
    } finally {
      for (const client of Object.values(ctas)) client.destroy();
    }
  });

  test("the admin API is an administrator's: unsigned, unknown or analyst callers are refused; the token opens it", async () => {
    const before = fingerprint(dir);
    const routes: [string, string][] = [
      ['POST', '/_local/maintenance/run'],
      ['POST', '/_local/maintenance/clock'],
      ['GET', '/_local/maintenance/reports'],
      ['POST', '/_local/firehose/flush'],
      ['GET', '/_local/firehose/stats'],
      ['POST', '/_local/cloudwatch/clock'],
      ['POST', '/_local/cloudwatch/evaluate'],
      ['GET', '/_local/cloudwatch/notifications'],
      ['POST', '/_local/iam/service-credentials'],
    ];
    const analystHeaders: Record<string, string> = {
      authorization: `AWS4-HMAC-SHA256 Credential=${analyst.accessKeyId}/20261201/us-east-1/loglake/aws4_request, SignedHeaders=host;x-amz-date, Signature=${SIG}`,
      'x-amz-date': '20261201T000000Z',
      'x-amz-security-token': analyst.sessionToken as string,
    };
    for (const [method, path] of routes)
      for (const headers of [
        {},
        { authorization: 'Bearer not-the-token' },
        { authorization: `AWS ${DEPLOYER_KEY.accessKeyId}:abc` },
        analystHeaders,
      ] as Record<string, string>[]) {
        const response = await fetch(`${endpoint.url}${path}`, {
          method,
          headers,
          body:
            method === 'POST'
              ? '{"advanceHours": 200, "service": "lambda.amazonaws.com", "roleArn": "' +
                role('lab-firehose') +
                '"}'
              : undefined,
        });
        expect({ path, status: response.status }).toEqual({ path, status: expect.any(Number) });
        expect([400, 403]).toContain(response.status);
        expect(await response.text()).not.toContain('SecretAccessKey');
      }
    expect(fingerprint(dir)).toEqual(before);
    // The health answer is open, and names no path.
    const health = await (await fetch(`${endpoint.url}/_local/health`)).text();
    expect(JSON.parse(health)).toMatchObject({ ok: true, authorization: true });
    expect(health).not.toContain(dir);
    // The token opens it; service credentials are not handed out over HTTP at all.
    const stats = await fetch(`${endpoint.url}/_local/firehose/stats`, {
      headers: { authorization: `Bearer ${endpoint.adminToken}` },
    });
    expect(stats.status).toBe(200);
    const creds = await fetch(`${endpoint.url}/_local/iam/service-credentials`, {
      method: 'POST',
      headers: { authorization: `Bearer ${endpoint.adminToken}` },
      body: JSON.stringify({ service: 'firehose.amazonaws.com', roleArn: role('lab-firehose') }),
    });
    expect(creds.status).toBe(404);
    expect(await creds.text()).not.toContain('SecretAccessKey');
  });

  test("a body that is not JSON is the caller's mistake: 400 in the protocol's shape, never a 500", async () => {
    for (const [target, type] of [
      ['Firehose_20150804.DescribeDeliveryStream', 'application/x-amz-json-1.1'],
      ['AmazonAthena.GetWorkGroup', 'application/x-amz-json-1.1'],
      ['AWSGlue.GetTable', 'application/x-amz-json-1.1'],
    ] as const) {
      const response = await fetch(endpoint.url, {
        method: 'POST',
        headers: {
          'content-type': type,
          'x-amz-target': target,
          'x-amz-date': '20261201T000000Z',
          authorization: `AWS4-HMAC-SHA256 Credential=${DEPLOYER_KEY.accessKeyId}/20261201/us-east-1/${target.startsWith('Firehose') ? 'firehose' : target.startsWith('AmazonAthena') ? 'athena' : 'glue'}/aws4_request, SignedHeaders=host;x-amz-date, Signature=${SIG}`,
        },
        body: '{"not json',
      });
      expect({ target, status: response.status }).toEqual({ target, status: 400 });
    }
  });

  test('a Firehose stream named `..` or `.` is a name: creating and deleting it leaves the data folder alone', async () => {
    for (const name of ['..', '.']) {
      await deployer.firehose.send(
        new CreateDeliveryStreamCommand(
          icebergStreamInput({ name, bucket: BUCKET, role: 'lab-firehose', errorBucket: ERROR_BUCKET }),
        ),
      );
      await deployer.firehose.send(new DeleteDeliveryStreamCommand({ DeliveryStreamName: name }));
    }
    expect(statSync(join(dir, 'warehouse')).isDirectory()).toBe(true);
    expect(statSync(join(dir, 'firehose')).isDirectory()).toBe(true);
    const adv = await deployer.firehose.send(
      new DescribeDeliveryStreamCommand({ DeliveryStreamName: 'adv-stream' }),
    );
    expect(adv.DeliveryStreamDescription?.DeliveryStreamStatus).toBe('ACTIVE');
  });

  test('a table may not be pointed at files outside its own folder (UpdateTableMetadataLocation)', async () => {
    const secret = await deployer.s3tables.send(
      new GetTableMetadataLocationCommand({
        tableBucketARN: bucketArn,
        namespace: 'lab',
        name: 'authz_secret',
      }),
    );
    const flows = await deployer.s3tables.send(
      new GetTableMetadataLocationCommand({
        tableBucketARN: bucketArn,
        namespace: 'network',
        name: 'vpc_flow_logs',
      }),
    );
    // A writer of vpc_flow_logs points it at the secret table's metadata: refused, nothing changed.
    const refused = await outcome(
      deployer.s3tables.send(
        new UpdateTableMetadataLocationCommand({
          tableBucketARN: bucketArn,
          namespace: 'network',
          name: 'vpc_flow_logs',
          versionToken: flows.versionToken as string,
          metadataLocation: secret.metadataLocation as string,
        }),
      ),
    );
    expect(refused).toMatchObject({ name: 'BadRequestException', status: 400 });
    expect(refused.message).toContain("not in network.vpc_flow_logs's own metadata folder");
    const after = await deployer.s3tables.send(
      new GetTableMetadataLocationCommand({
        tableBucketARN: bucketArn,
        namespace: 'network',
        name: 'vpc_flow_logs',
      }),
    );
    expect(after.versionToken).toBe(flows.versionToken);
  });
});
