// Requests for services the endpoint does not serve, as each service's SDK sends them (the SigV4 scope names the
// service; the body is in its protocol): answered at once, in that protocol, naming the service. And STS without
// authorization: GetCallerIdentity answers for the account (a default Terraform provider block asks it).
import { describe, test, expect, beforeAll, afterAll } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cbor } from '@smithy/core/cbor';
import { AssumeRoleCommand, GetCallerIdentityCommand, STSClient } from '@aws-sdk/client-sts';
import { startLocalEndpoint, type LocalEndpoint } from './server';
import { localClientConfig } from './client-config';
import { MemoryWarehouse } from '../test/support/memory-warehouse';

const signedFor = (service: string) => ({
  authorization: `AWS4-HMAC-SHA256 Credential=local/20260101/us-east-1/${service}/aws4_request, SignedHeaders=host, Signature=00`,
});

describe('services the endpoint does not serve, and STS without authorization', () => {
  let dir: string;
  let endpoint: LocalEndpoint;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'local-unserved-'));
    endpoint = await startLocalEndpoint({
      dataDir: dir,
      engine: { openWarehouse: async () => new MemoryWarehouse() },
    });
  });
  afterAll(async () => {
    await endpoint.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const send = (path: string, init: RequestInit) => fetch(`${endpoint.url}${path}`, init);

  test('awsQuery (IAM, SNS): the XML ErrorResponse, naming the service', async () => {
    for (const [service, name, version] of [
      ['iam', 'IAM', '2010-05-08'],
      ['sns', 'SNS', '2010-03-31'],
    ] as const) {
      const response = await send('/', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...signedFor(service) },
        body: `Action=ListThings&Version=${version}`,
      });
      const body = await response.text();
      expect(response.status).toBe(400);
      expect(body).toMatch(
        /^<ErrorResponse xmlns="https:\/\/\w+\.amazonaws\.com\/doc\/[\d-]+\/"><Error><Type>Sender<\/Type><Code>UnsupportedOperation<\/Code>/,
      );
      expect(body).toContain(`${name} (signing name ${service}) is not served by the local endpoint`);
      expect(body).toContain(`<RequestId>${response.headers.get('x-amzn-requestid')}</RequestId>`);
    }
  });

  test('awsJson (Step Functions), restJson (Lambda, Scheduler, Lake Formation): JSON errors with their type', async () => {
    const states = await send('/', {
      method: 'POST',
      headers: {
        'content-type': 'application/x-amz-json-1.0',
        'x-amz-target': 'AWSStepFunctions.ListStateMachines',
        ...signedFor('states'),
      },
      body: '{}',
    });
    expect(states.status).toBe(400);
    expect(states.headers.get('content-type')).toBe('application/x-amz-json-1.0');
    const json = (await states.json()) as { __type: string; message: string };
    expect(json.__type).toBe('UnsupportedOperationException');
    expect(json.message).toContain(
      'Step Functions (signing name states) is not served by the local endpoint',
    );
    for (const [service, name, path, method] of [
      ['lambda', 'Lambda', '/2015-03-31/functions', 'GET'],
      ['scheduler', 'EventBridge Scheduler', '/schedules', 'GET'],
      ['lakeformation', 'Lake Formation', '/ListPermissions', 'POST'],
    ] as const) {
      const response = await send(path, { method, headers: signedFor(service) });
      expect(response.status).toBe(400);
      expect(response.headers.get('x-amzn-errortype')).toBe('UnsupportedOperationException');
      expect(((await response.json()) as { message: string }).message).toContain(
        `${name} (signing name ${service}) is not served`,
      );
    }
  });

  test('rpcv2Cbor: a CBOR error document', async () => {
    const response = await send('/service/DynamoDB_20120810/operation/ListTables', {
      method: 'POST',
      headers: {
        'smithy-protocol': 'rpc-v2-cbor',
        'content-type': 'application/cbor',
        ...signedFor('dynamodb'),
      },
      body: Buffer.from(cbor.serialize({})),
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('smithy-protocol')).toBe('rpc-v2-cbor');
    const error = cbor.deserialize(new Uint8Array(await response.arrayBuffer())) as {
      __type: string;
      message: string;
    };
    expect(error.__type).toBe('UnsupportedOperationException');
    expect(error.message).toContain('DynamoDB (signing name dynamodb) is not served');
  });

  test('STS GetCallerIdentity answers for the account without authorization; AssumeRole says what it needs', async () => {
    const sts = new STSClient(localClientConfig(endpoint.url));
    try {
      const identity = await sts.send(new GetCallerIdentityCommand({}));
      expect(identity).toMatchObject({ Account: '123456789012', Arn: 'arn:aws:iam::123456789012:root' });
      expect(identity.$metadata.requestId).toBeDefined();
      await expect(
        sts.send(
          new AssumeRoleCommand({ RoleArn: 'arn:aws:iam::123456789012:role/x', RoleSessionName: 'lab' }),
        ),
      ).rejects.toThrow(/--authorize/);
    } finally {
      sts.destroy();
    }
  });
});
