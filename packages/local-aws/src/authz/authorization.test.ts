// Authorization in the local endpoint, driven only through the AWS SDK v3 clients over loopback (they sign every
// request with SigV4, which carries the access key), on the real engine and SQL front end.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AthenaClient,
  CreateWorkGroupCommand,
  GetQueryExecutionCommand,
  StartQueryExecutionCommand,
  UpdateWorkGroupCommand,
} from '@aws-sdk/client-athena';
import { CreateDeliveryStreamCommand, FirehoseClient, PutRecordBatchCommand } from '@aws-sdk/client-firehose';
import { CreateBucketCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { CreateNamespaceCommand, ListTableBucketsCommand, S3TablesClient } from '@aws-sdk/client-s3tables';
import { AssumeRoleCommand, GetCallerIdentityCommand, STSClient } from '@aws-sdk/client-sts';
import { FLOW_LOG_V2_SCHEMA } from '@loglake/flowgen';
import { flushLocalFirehose, localFirehoseStats } from '../admin-client';
import { localClientConfig, type LocalClientCredentials } from '../client-config';
import { loadEngineFactories } from '../engine';
import { LocalEndpointConfigError } from '../errors';
import { startLocalEndpoint, type LocalEndpoint } from '../server';
import { waitForQuery } from '../../test/support/clients';
import {
  ANALYST,
  BUCKET,
  DEPLOYER_KEY,
  ERROR_BUCKET,
  FIREHOSE,
  firehoseRole,
  role,
  testAuthorization,
  WORKGROUP,
} from '../../test/support/authorization';
import { createFlowTable, icebergStreamInput, syntheticFlowRecord } from '../../test/support/lab-setup';

const factories = await loadEngineFactories();

function clients(url: string, credentials: LocalClientCredentials) {
  const config = localClientConfig(url, 1, 'us-east-1', credentials);
  return {
    athena: new AthenaClient(config),
    firehose: new FirehoseClient(config),
    s3: new S3Client({ ...config, forcePathStyle: true }),
    s3tables: new S3TablesClient(config),
    sts: new STSClient(config),
  };
}
type Clients = ReturnType<typeof clients>;

async function failureOf(
  promise: Promise<unknown>,
): Promise<{ name: string; message: string; status?: number }> {
  try {
    await promise;
  } catch (error) {
    const e = error as { name: string; message: string; $metadata?: { httpStatusCode?: number } };
    return { name: e.name, message: e.message, status: e.$metadata?.httpStatusCode };
  }
  throw new Error('expected the call to be refused');
}

async function run(athena: AthenaClient, sql: string) {
  const { QueryExecutionId } = await athena.send(
    new StartQueryExecutionCommand({
      QueryString: sql,
      WorkGroup: WORKGROUP,
      QueryExecutionContext: { Catalog: `s3tablescatalog/${BUCKET}`, Database: 'network' },
    }),
  );
  const state = await waitForQuery(athena, QueryExecutionId as string);
  const { QueryExecution } = await athena.send(new GetQueryExecutionCommand({ QueryExecutionId }));
  return {
    state,
    reason: QueryExecution?.Status?.StateChangeReason,
    error: QueryExecution?.Status?.AthenaError,
  };
}

describe('the local endpoint with authorization', () => {
  let dir: string;
  let endpoint: LocalEndpoint;
  let deployer: Clients;
  let analyst: Clients;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'local-authz-'));
    endpoint = await startLocalEndpoint({
      dataDir: dir,
      engine: factories,
      athenaMinCutoffBytes: 1,
      firehoseBufferIntervalOverrideSeconds: 3600,
      authorization: testAuthorization({
        extraRoles: [
          {
            arn: role('lab-lambda'),
            trustPolicy: {
              Version: '2012-10-17',
              Statement: [
                { Effect: 'Allow', Principal: { Service: 'lambda.amazonaws.com' }, Action: 'sts:AssumeRole' },
              ],
            },
            policies: [
              {
                name: 'p',
                document: {
                  Version: '2012-10-17',
                  Statement: [{ Effect: 'Allow', Action: 's3:ListAllMyBuckets', Resource: '*' }],
                },
              },
            ],
          },
          {
            arn: role('lab-dated'),
            trustPolicy: {
              Version: '2012-10-17',
              Statement: [
                { Effect: 'Allow', Principal: { AWS: role('lab-deployer') }, Action: 'sts:AssumeRole' },
              ],
            },
            policies: [
              {
                name: 'dated',
                document: {
                  Version: '2012-10-17',
                  Statement: [
                    {
                      Effect: 'Allow',
                      Action: 's3tables:ListTableBuckets',
                      Resource: '*',
                      Condition: { DateGreaterThan: { 'aws:CurrentTime': '2020-01-01T00:00:00Z' } },
                    },
                  ],
                },
              },
            ],
          },
        ],
      }),
    });
    deployer = clients(endpoint.url, DEPLOYER_KEY);
    const arn = await createFlowTable(
      deployer.s3tables,
      BUCKET,
      FLOW_LOG_V2_SCHEMA.map((c) => ({ ...c, required: false })),
    );
    await deployer.s3tables.send(new CreateNamespaceCommand({ tableBucketARN: arn, namespace: ['lab'] }));
    await deployer.athena.send(
      new CreateWorkGroupCommand({
        Name: WORKGROUP,
        Configuration: { ManagedQueryResultsConfiguration: { Enabled: true } },
      }),
    );
    await deployer.s3.send(new CreateBucketCommand({ Bucket: ERROR_BUCKET }));
    const assumed = await deployer.sts.send(
      new AssumeRoleCommand({ RoleArn: ANALYST, RoleSessionName: 'analyst-test' }),
    );
    const c = assumed.Credentials;
    analyst = clients(endpoint.url, {
      accessKeyId: c?.AccessKeyId as string,
      secretAccessKey: c?.SecretAccessKey as string,
      sessionToken: c?.SessionToken as string,
    });
  });
  afterAll(async () => {
    for (const set of [deployer, analyst]) for (const client of Object.values(set ?? {})) client.destroy();
    await endpoint.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  describe('principals, identified by the access key of the SigV4 credential', () => {
    test('GetCallerIdentity names the role session a local key stands for, and the one AssumeRole gave', async () => {
      expect(await deployer.sts.send(new GetCallerIdentityCommand({}))).toMatchObject({
        Arn: 'arn:aws:sts::123456789012:assumed-role/lab-deployer/lab',
        Account: '123456789012',
        UserId: expect.stringMatching(/^AROA[A-Z0-9]{17}:lab$/),
      });
      expect((await analyst.sts.send(new GetCallerIdentityCommand({}))).Arn).toBe(
        'arn:aws:sts::123456789012:assumed-role/lab-analyst/analyst-test',
      );
    });

    test("an unknown access key is refused in each service's shape", async () => {
      const stranger = clients(endpoint.url, { accessKeyId: 'AKIANOBODYKNOWSTHIS1', secretAccessKey: 'x' });
      expect(
        await failureOf(stranger.athena.send(new UpdateWorkGroupCommand({ WorkGroup: WORKGROUP }))),
      ).toMatchObject({
        name: 'UnrecognizedClientException',
        message: 'The security token included in the request is invalid.',
        status: 400,
      });
      expect(await failureOf(stranger.s3tables.send(new ListTableBucketsCommand({})))).toMatchObject({
        name: 'UnrecognizedClientException',
        status: 403,
      });
      expect(
        await failureOf(stranger.s3.send(new ListObjectsV2Command({ Bucket: ERROR_BUCKET }))),
      ).toMatchObject({
        name: 'InvalidAccessKeyId',
        status: 403,
      });
      expect(await failureOf(stranger.sts.send(new GetCallerIdentityCommand({})))).toMatchObject({
        name: 'InvalidClientTokenId',
        status: 403,
      });
      for (const client of Object.values(stranger)) client.destroy();
    });

    test('a temporary key without its session token is not a principal; a request with no credentials is refused', async () => {
      const session = await deployer.sts.send(
        new AssumeRoleCommand({ RoleArn: ANALYST, RoleSessionName: 'no-token' }),
      );
      const withoutToken = clients(endpoint.url, {
        accessKeyId: session.Credentials?.AccessKeyId as string,
        secretAccessKey: session.Credentials?.SecretAccessKey as string,
      });
      expect(
        (await failureOf(withoutToken.athena.send(new GetQueryExecutionCommand({ QueryExecutionId: 'x' }))))
          .name,
      ).toBe('UnrecognizedClientException');
      for (const client of Object.values(withoutToken)) client.destroy();
      const anonymous = await fetch(endpoint.url, {
        method: 'POST',
        headers: {
          'x-amz-target': 'AmazonAthena.ListWorkGroups',
          'content-type': 'application/x-amz-json-1.1',
        },
        body: '{}',
      });
      expect(anonymous.headers.get('x-amzn-errortype')).toBe('MissingAuthenticationTokenException');
    });

    test('AssumeRole of a role whose trust policy does not name the caller is refused, even for an administrator', async () => {
      expect(
        await failureOf(
          deployer.sts.send(new AssumeRoleCommand({ RoleArn: FIREHOSE, RoleSessionName: 'steal' })),
        ),
      ).toMatchObject({
        name: 'AccessDenied',
        status: 403,
        message:
          'User: arn:aws:sts::123456789012:assumed-role/lab-deployer/lab is not authorized to perform: sts:AssumeRole on resource: arn:aws:iam::123456789012:role/lab-firehose',
      });
      // The analyst may not go on to the deployer's role either.
      expect(
        (
          await failureOf(
            analyst.sts.send(new AssumeRoleCommand({ RoleArn: role('lab-deployer'), RoleSessionName: 'up' })),
          )
        ).name,
      ).toBe('AccessDenied');
    });

    test("an AWS service gets a role's credentials only when the role trusts it (the local stand-in for Lambda)", async () => {
      const lambda = endpoint.serviceCredentials({
        service: 'lambda.amazonaws.com',
        roleArn: role('lab-lambda'),
      });
      const asLambda = clients(endpoint.url, lambda);
      expect((await asLambda.sts.send(new GetCallerIdentityCommand({}))).Arn).toBe(
        'arn:aws:sts::123456789012:assumed-role/lab-lambda/lambda',
      );
      for (const client of Object.values(asLambda)) client.destroy();
      expect(() =>
        endpoint.serviceCredentials({ service: 'lambda.amazonaws.com', roleArn: ANALYST }),
      ).toThrow(
        /not authorized to perform: sts:AssumeRole on resource: arn:aws:iam::123456789012:role\/lab-analyst/,
      );
    });
  });

  describe('IAM: identity-based and resource-based policies', () => {
    test("the analyst may not put records, change the workgroup or read the error bucket: AccessDenied with AWS's message", async () => {
      const put = await failureOf(
        analyst.firehose.send(
          new PutRecordBatchCommand({
            DeliveryStreamName: 'authz-stream',
            Records: [{ Data: syntheticFlowRecord(1) }],
          }),
        ),
      );
      expect(put).toMatchObject({
        name: 'AccessDeniedException',
        status: 400,
        message:
          'User: arn:aws:sts::123456789012:assumed-role/lab-analyst/analyst-test is not authorized to perform: firehose:PutRecordBatch on resource: arn:aws:firehose:us-east-1:123456789012:deliverystream/authz-stream because no identity-based policy allows the firehose:PutRecordBatch action',
      });
      expect(
        await failureOf(
          analyst.athena.send(new UpdateWorkGroupCommand({ WorkGroup: WORKGROUP, State: 'DISABLED' })),
        ),
      ).toMatchObject({
        name: 'AccessDeniedException',
        message: expect.stringContaining(
          'athena:UpdateWorkGroup on resource: arn:aws:athena:us-east-1:123456789012:workgroup/authz-lab',
        ),
      });
      expect(
        await failureOf(analyst.s3.send(new ListObjectsV2Command({ Bucket: ERROR_BUCKET }))),
      ).toMatchObject({
        name: 'AccessDenied',
        status: 403,
        message: expect.stringContaining(
          's3:ListBucket on resource: "arn:aws:s3:::authz-lab-errors-123456789012"',
        ),
      });
    });

    test('the deployer (AdministratorAccess) may, the TLS-only bucket policy allowing loopback requests', async () => {
      expect((await deployer.s3.send(new ListObjectsV2Command({ Bucket: ERROR_BUCKET }))).KeyCount).toBe(0);
    });

    test('a policy with an operator the evaluator does not implement refuses, naming it', async () => {
      const dated = await deployer.sts.send(
        new AssumeRoleCommand({ RoleArn: role('lab-dated'), RoleSessionName: 'dated' }),
      );
      const asDated = clients(endpoint.url, {
        accessKeyId: dated.Credentials?.AccessKeyId as string,
        secretAccessKey: dated.Credentials?.SecretAccessKey as string,
        sessionToken: dated.Credentials?.SessionToken as string,
      });
      expect(await failureOf(asDated.s3tables.send(new ListTableBucketsCommand({})))).toMatchObject({
        name: 'AccessDeniedException',
        message: expect.stringContaining(
          'condition operator DateGreaterThan is not implemented by the local evaluator',
        ),
      });
      for (const client of Object.values(asDated)) client.destroy();
    });
  });

  describe('Athena on S3 Tables: Glue and Lake Formation per statement', () => {
    test("the analyst reads; every write, DDL and table outside its grants is refused with Athena's reason", async () => {
      expect((await run(analyst.athena, 'SELECT count(*) FROM vpc_flow_logs')).state).toBe('SUCCEEDED');
      const refused = {
        "INSERT INTO vpc_flow_logs (action) VALUES ('ACCEPT')": 'Required Insert on vpc_flow_logs',
        'DELETE FROM vpc_flow_logs WHERE false': 'Required Delete on vpc_flow_logs',
        'ALTER TABLE vpc_flow_logs ADD COLUMNS (note string)': 'Required Alter on vpc_flow_logs',
        'DROP TABLE vpc_flow_logs': 'Required Drop on vpc_flow_logs',
        'CREATE TABLE network.analyst_table (a int)': 'Required Create Table on network',
      };
      for (const [sql, required] of Object.entries(refused)) {
        const outcome = await run(analyst.athena, sql);
        expect({ sql, state: outcome.state, reason: outcome.reason, type: outcome.error?.ErrorType }).toEqual(
          {
            sql,
            state: 'FAILED',
            reason: `Insufficient permissions to execute the query. Insufficient Lake Formation permission(s): ${required}`,
            type: 234,
          },
        );
      }
      expect(await run(analyst.athena, 'CREATE TABLE lab.analyst_table (a int)')).toMatchObject({
        state: 'FAILED',
        reason:
          'Insufficient permissions to execute the query. Principal does not have any privilege on specified resource',
      });
    });

    test('the deployer writes, and a table it created stays its own (the creator holds all permissions)', async () => {
      expect((await run(deployer.athena, 'CREATE TABLE lab.created (a int)')).state).toBe('SUCCEEDED');
      expect((await run(deployer.athena, 'INSERT INTO lab.created VALUES (1)')).state).toBe('SUCCEEDED');
      expect((await run(deployer.athena, 'DROP TABLE lab.created')).state).toBe('SUCCEEDED');
    });
  });

  describe("Firehose acting with the stream's role", () => {
    test('CreateDeliveryStream refuses a role Firehose may not assume', async () => {
      const input = icebergStreamInput({
        name: 'authz-bad-role',
        bucket: BUCKET,
        role: 'lab-analyst',
        errorBucket: ERROR_BUCKET,
      });
      expect(await failureOf(deployer.firehose.send(new CreateDeliveryStreamCommand(input)))).toMatchObject({
        name: 'InvalidArgumentException',
        message: `Firehose is unable to assume role ${ANALYST}. Please check the role provided.`,
      });
    });

    test('the role delivers; records reach the table', async () => {
      const input = icebergStreamInput({
        name: 'authz-stream',
        bucket: BUCKET,
        role: 'lab-firehose',
        errorBucket: ERROR_BUCKET,
      });
      await deployer.firehose.send(new CreateDeliveryStreamCommand(input));
      await deployer.firehose.send(
        new PutRecordBatchCommand({
          DeliveryStreamName: 'authz-stream',
          Records: [1, 2, 3].map((i) => ({ Data: syntheticFlowRecord(i) })),
        }),
      );
      await flushLocalFirehose(endpoint.url, { credentials: DEPLOYER_KEY });
      const stats = (await localFirehoseStats(endpoint.url, { credentials: DEPLOYER_KEY }))['authz-stream'];
      expect(stats).toMatchObject({ recordsDelivered: 3, recordsFailed: 0 });
      expect(stats?.recordsDenied ?? 0).toBe(0);
    });
  });
});

describe('authorization options the endpoint cannot use stop it at start, naming what to fix', () => {
  const start = (authorization: ReturnType<typeof testAuthorization>) =>
    startLocalEndpoint({
      dataDir: mkdtempSync(join(tmpdir(), 'local-authz-bad-')),
      engine: factories,
      authorization,
    });

  test('a policy that is not JSON, or breaks the grammar, names the role and the policy', async () => {
    const broken = testAuthorization({
      extraRoles: [{ arn: role('broken'), trustPolicy: '{"Statement": [', policies: [] }],
    });
    await expect(start(broken)).rejects.toThrow(LocalEndpointConfigError);
    await expect(start(broken)).rejects.toThrow(
      /authorization: role broken, trust policy: the policy is not JSON/,
    );
    const noEffect = testAuthorization({
      extraRoles: [
        {
          arn: role('loose'),
          trustPolicy: { Statement: [] },
          policies: [{ name: 'p', document: { Statement: [{ Action: '*', Resource: '*' }] } }],
        },
      ],
    });
    await expect(start(noEffect)).rejects.toThrow(
      /role loose, policy p statement 0: Effect must be "Allow" or "Deny"/,
    );
  });

  test('local credentials for a role that is not there', async () => {
    const options = testAuthorization();
    await expect(
      start({ ...options, credentials: [{ ...DEPLOYER_KEY, roleArn: role('ghost'), sessionName: 'g' }] }),
    ).rejects.toThrow(
      /local access key AKIALOCALDEPLOYER001 signs as role arn:aws:iam::123456789012:role\/ghost, which is not among the roles/,
    );
  });
});

describe('a Firehose role narrowed on purpose (no glue:UpdateTable)', () => {
  test('its records go to the error output with the denial, and the stream says why', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'local-authz-narrow-'));
    const endpoint = await startLocalEndpoint({
      dataDir: dir,
      engine: factories,
      firehoseBufferIntervalOverrideSeconds: 3600,
      authorization: testAuthorization({ firehose: firehoseRole(['glue:GetTable', 'glue:GetDatabase']) }),
    });
    const deployer = clients(endpoint.url, DEPLOYER_KEY);
    try {
      await createFlowTable(
        deployer.s3tables,
        BUCKET,
        FLOW_LOG_V2_SCHEMA.map((c) => ({ ...c, required: false })),
      );
      await deployer.s3.send(new CreateBucketCommand({ Bucket: ERROR_BUCKET }));
      await deployer.firehose.send(
        new CreateDeliveryStreamCommand(
          icebergStreamInput({
            name: 'narrow',
            bucket: BUCKET,
            role: 'lab-firehose',
            errorBucket: ERROR_BUCKET,
          }),
        ),
      );
      await deployer.firehose.send(
        new PutRecordBatchCommand({
          DeliveryStreamName: 'narrow',
          Records: [{ Data: syntheticFlowRecord(1) }],
        }),
      );
      await flushLocalFirehose(endpoint.url, { credentials: DEPLOYER_KEY });
      const stats = (await localFirehoseStats(endpoint.url, { credentials: DEPLOYER_KEY })).narrow;
      expect(stats).toMatchObject({ recordsDelivered: 0, recordsFailed: 1, recordsDenied: 1 });
      expect(stats?.lastDenial).toBe(
        'User: arn:aws:sts::123456789012:assumed-role/lab-firehose/firehose is not authorized to perform: glue:UpdateTable on resource: arn:aws:glue:us-east-1:123456789012:catalog because no identity-based policy allows the glue:UpdateTable action',
      );
      const listing = await deployer.s3.send(new ListObjectsV2Command({ Bucket: ERROR_BUCKET }));
      expect(listing.KeyCount).toBe(1);
    } finally {
      for (const client of Object.values(deployer)) client.destroy();
      await endpoint.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
