// The authorization step and the service read one request, once (security review after issue 22): a body that one
// layer read as a form and the other as JSON, a gzip body decoded for one and not the other, a repeated awsQuery key
// read first-wins by one and last-wins by the other, an aws-chunked DeleteObjects whose keys the authorizer could not
// see — each let a caller allowed on one resource act on another. And what is the caller's mistake is answered as
// such: bad percent-escapes (400, never a 500), a gzip body that inflates past the limit (413, inflated no further),
// presigned URLs without a valid X-Amz-Expires or past it (S3's AuthorizationQueryParametersError / AccessDenied).
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { AthenaClient, CreateWorkGroupCommand, GetWorkGroupCommand } from '@aws-sdk/client-athena';
import { CloudWatchClient, DescribeAlarmsCommand, PutMetricAlarmCommand } from '@aws-sdk/client-cloudwatch';
import { CreateBucketCommand, GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { AssumeRoleCommand, STSClient } from '@aws-sdk/client-sts';
import { localClientConfig } from '../client-config';
import { MAX_RPC_BODY_BYTES } from '../request-body';
import { startLocalEndpoint, type LocalEndpoint } from '../server';
import { ACCOUNT, DEPLOYER, DEPLOYER_KEY, role, testAuthorization } from '../../test/support/authorization';

const ATTACKER = role('one-reading-attacker');
const BUCKET = 'one-reading';
const doc = (...Statement: unknown[]) => ({ Version: '2012-10-17', Statement });
const SIG = 'f'.repeat(64);
const amzDate = (at: Date) =>
  at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

interface Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

/** SigV4 headers as a client signs them (the endpoint reads the credential, never verifies the signature). */
function signed(credentials: Credentials, service: string): Record<string, string> {
  const now = new Date();
  return {
    authorization: `AWS4-HMAC-SHA256 Credential=${credentials.accessKeyId}/${amzDate(now).slice(0, 8)}/us-east-1/${service}/aws4_request, SignedHeaders=host;x-amz-date, Signature=${SIG}`,
    'x-amz-date': amzDate(now),
    ...(credentials.sessionToken ? { 'x-amz-security-token': credentials.sessionToken } : {}),
  };
}

/** `x-amz-target` and awsJson's content type. */
const awsJson = (target: string, version: '1.0' | '1.1') => ({
  'x-amz-target': target,
  'content-type': `application/x-amz-json-${version}`,
});
const FORM = { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' };

/** The body as S3's aws-chunked encoding frames it (the unsigned variant with a trailing checksum header). */
function awsChunked(payload: string): Buffer {
  const bytes = Buffer.from(payload);
  return Buffer.concat([
    Buffer.from(`${bytes.length.toString(16)}\r\n`),
    bytes,
    Buffer.from('\r\n0\r\nx-amz-checksum-crc32:AAAAAA==\r\n\r\n'),
  ]);
}
const CHUNKED = {
  'content-encoding': 'aws-chunked',
  'x-amz-content-sha256': 'STREAMING-UNSIGNED-PAYLOAD-TRAILER',
  'x-amz-trailer': 'x-amz-checksum-crc32',
  'content-type': 'application/xml',
};
const deleteDocument = (...keys: string[]) =>
  `<Delete xmlns="http://s3.amazonaws.com/doc/2006-03-01/">${keys.map((k) => `<Object><Key>${k}</Key></Object>`).join('')}</Delete>`;

describe('the authorization step and the service read one request once', () => {
  let dir: string;
  let endpoint: LocalEndpoint;
  let attacker: Credentials;
  let cloudwatch: CloudWatchClient;
  let athena: AthenaClient;
  let s3: S3Client;

  const send = async (
    path: string,
    init: { method?: string; headers: Record<string, string>; body?: Buffer | string },
  ) => {
    const response = await fetch(`${endpoint.url}${path}`, { method: init.method ?? 'POST', ...init });
    return { status: response.status, text: await response.text(), headers: response.headers };
  };
  const alarmState = async (name: string) =>
    (await cloudwatch.send(new DescribeAlarmsCommand({ AlarmNames: [name] }))).MetricAlarms?.[0]?.StateValue;
  const victimBody = async () =>
    (
      await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: 'other/victim' })).then((r) => r.Body)
    )?.transformToString();

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'local-one-reading-'));
    endpoint = await startLocalEndpoint({
      dataDir: dir,
      authorization: testAuthorization({
        extraRoles: [
          {
            arn: ATTACKER,
            trustPolicy: doc({ Effect: 'Allow', Principal: { AWS: DEPLOYER }, Action: 'sts:AssumeRole' }),
            policies: [
              {
                name: 'own-things-only',
                document: doc(
                  {
                    Effect: 'Allow',
                    Action: 'cloudwatch:*',
                    Resource: `arn:aws:cloudwatch:us-east-1:${ACCOUNT}:alarm:mine-*`,
                  },
                  {
                    Effect: 'Allow',
                    Action: 'athena:*',
                    Resource: `arn:aws:athena:us-east-1:${ACCOUNT}:workgroup/primary`,
                  },
                  {
                    Effect: 'Allow',
                    Action: ['s3:PutObject', 's3:GetObject', 's3:DeleteObject'],
                    Resource: `arn:aws:s3:::${BUCKET}/prefix/*`,
                  },
                ),
              },
            ],
          },
        ],
      }),
    });
    const config = localClientConfig(endpoint.url, 1, 'us-east-1', DEPLOYER_KEY);
    cloudwatch = new CloudWatchClient(config);
    athena = new AthenaClient(config);
    s3 = new S3Client({ ...config, forcePathStyle: true });
    const sts = new STSClient(config);
    const c = (await sts.send(new AssumeRoleCommand({ RoleArn: ATTACKER, RoleSessionName: 'attacker' })))
      .Credentials;
    sts.destroy();
    attacker = {
      accessKeyId: c?.AccessKeyId as string,
      secretAccessKey: c?.SecretAccessKey as string,
      sessionToken: c?.SessionToken as string,
    };
    await cloudwatch.send(
      new PutMetricAlarmCommand({
        AlarmName: 'victim',
        MetricName: 'x',
        Namespace: 'Lab',
        Statistic: 'Sum',
        Period: 60,
        EvaluationPeriods: 1,
        Threshold: 1,
        ComparisonOperator: 'GreaterThanThreshold',
      }),
    );
    await athena.send(new CreateWorkGroupCommand({ Name: 'victim-wg' }));
    await s3.send(new CreateBucketCommand({ Bucket: BUCKET }));
    for (const Key of ['other/victim', 'prefix/mine'])
      await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key, Body: Key }));
  });
  afterAll(async () => {
    for (const client of [cloudwatch, athena, s3]) client?.destroy();
    await endpoint?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('S1a: a form body sent with an awsJson target is read as the JSON the service serves', async () => {
    // As a form: Action=DeleteAlarms on mine-1 (allowed); as JSON (the target's protocol): victim.
    const body = JSON.stringify({
      x: '&Action=DeleteAlarms&Version=2010-08-01&AlarmNames.member.1=mine-1&y=',
      AlarmNames: ['victim'],
    });
    const reply = await send('/', {
      headers: {
        ...signed(attacker, 'monitoring'),
        ...awsJson('GraniteServiceVersion20100801.DeleteAlarms', '1.0'),
        ...FORM,
      },
      body,
    });
    expect(reply.status).toBe(400);
    expect(reply.text).toContain('AccessDenied');
    expect(reply.text).toContain('alarm:victim');
    expect(await alarmState('victim')).toBeDefined();
    // An X-Amz-Target says awsJson whatever the body holds: a form `Action=AssumeRole` in it is not STS's.
    const sts = await send('/', {
      headers: {
        ...signed(attacker, 'sts'),
        ...awsJson('Firehose_20150804.ListDeliveryStreams', '1.1'),
        ...FORM,
      },
      body: `Action=AssumeRole&Version=2011-06-15&RoleArn=${encodeURIComponent(DEPLOYER)}&RoleSessionName=x`,
    });
    expect(sts.status).toBe(400);
    expect(sts.text).toContain('InvalidSignatureException');
    expect(sts.text).not.toContain('SecretAccessKey');
  });

  test('S1b: a gzip body is authorized as it is served, gunzipped', async () => {
    const reply = await send('/', {
      headers: {
        ...signed(attacker, 'athena'),
        ...awsJson('AmazonAthena.DeleteWorkGroup', '1.1'),
        'content-encoding': 'gzip',
      },
      body: gzipSync(JSON.stringify({ WorkGroup: 'victim-wg', RecursiveDeleteOption: true })),
    });
    expect(reply.status).toBe(400);
    expect(reply.text).toContain('workgroup/victim-wg');
    expect((await athena.send(new GetWorkGroupCommand({ WorkGroup: 'victim-wg' }))).WorkGroup?.Name).toBe(
      'victim-wg',
    );
  });

  test('S1c: a repeated awsQuery key is read once, the same for the authorization step and the service', async () => {
    for (const names of ['AlarmName=victim&AlarmName=mine-1', 'AlarmName=mine-1&AlarmName=victim']) {
      const reply = await send('/', {
        headers: { ...signed(attacker, 'monitoring'), ...FORM },
        body: `Action=SetAlarmState&Version=2010-08-01&${names}&StateValue=ALARM&StateReason=forged`,
      });
      // Whichever value the service reads is the one authorized: victim refused, mine-1 allowed (and not found).
      expect([403, 404, 400]).toContain(reply.status);
      expect(await alarmState('victim')).toBe('INSUFFICIENT_DATA');
    }
  });

  test('S1d: an aws-chunked DeleteObjects is authorized key by key, as the service decodes it', async () => {
    const refused = await send(`/${BUCKET}?delete`, {
      headers: { ...signed(attacker, 's3'), ...CHUNKED },
      body: awsChunked(deleteDocument('other/victim')),
    });
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('<Code>AccessDenied</Code>');
    expect(refused.text).toContain(`arn:aws:s3:::${BUCKET}/other/victim`);
    expect(await victimBody()).toBe('other/victim');
    // The same encoding on a key the caller may delete: served.
    const allowed = await send(`/${BUCKET}?delete`, {
      headers: { ...signed(attacker, 's3'), ...CHUNKED },
      body: awsChunked(deleteDocument('prefix/mine')),
    });
    expect(allowed.status).toBe(200);
    expect(allowed.text).toContain('<Deleted><Key>prefix/mine</Key></Deleted>');
  });

  test('S5: a bad percent-escape is the caller’s 400 in every protocol, naming it, never a 500', async () => {
    const deployer = (service: string) => signed(DEPLOYER_KEY, service);
    const cases: [string, string, string, Record<string, string>, string | undefined, string][] = [
      ['S3 key', 'GET', `/${BUCKET}/%zz`, deployer('s3'), undefined, 'InvalidURI'],
      ['S3 key, not UTF-8', 'GET', `/${BUCKET}/%E0%A4%A`, deployer('s3'), undefined, 'InvalidURI'],
      ['S3 bucket (ACL)', 'PUT', '/%zz?acl', deployer('s3'), '<AccessControlPolicy/>', 'InvalidURI'],
      [
        'S3 query string',
        'GET',
        `/${BUCKET}?list-type=2&prefix=%zz`,
        deployer('s3'),
        undefined,
        'InvalidURI',
      ],
      [
        'S3 copy source',
        'PUT',
        `/${BUCKET}/prefix/copy`,
        { ...deployer('s3'), 'x-amz-copy-source': `/${BUCKET}/%zz` },
        undefined,
        'InvalidArgument',
      ],
      ['S3 Tables', 'GET', '/buckets/%zz', deployer('s3tables'), undefined, 'message'],
      [
        'Iceberg REST',
        'GET',
        '/iceberg/v1/%zz/namespaces',
        deployer('s3tables'),
        undefined,
        'BadRequestException',
      ],
      [
        'awsJson',
        'POST',
        '/%zz',
        { ...deployer('firehose'), ...awsJson('Firehose_20150804.ListDeliveryStreams', '1.1') },
        '{}',
        'SerializationException',
      ],
      [
        'awsQuery (CloudWatch)',
        'POST',
        '/',
        { ...deployer('monitoring'), ...FORM },
        'Action=DescribeAlarms&Version=2010-08-01&AlarmNamePrefix=%zz',
        'ValidationError',
      ],
      [
        'awsQuery (STS)',
        'POST',
        '/',
        { ...deployer('sts'), ...FORM },
        'Action=GetCallerIdentity&Version=2011-06-15&x=%E0%A4%A',
        'ValidationError',
      ],
    ];
    for (const [what, method, path, headers, body, code] of cases) {
      const reply = await send(path, { method, headers, ...(body !== undefined ? { body } : {}) });
      expect({ what, status: reply.status }).toEqual({ what, status: 400 });
      expect({ what, code: reply.text.includes(code) }).toEqual({ what, code: true });
      expect({ what, named: /%zz|%E0%A4%A/.test(reply.text) }).toEqual({ what, named: true });
    }
    // rpcv2Cbor: a path segment that decodes to nothing names no operation (400 naming it, not a thrown URIError).
    const cbor = await send('/service/%zz/operation/GetMetricData', {
      headers: {
        ...deployer('monitoring'),
        'smithy-protocol': 'rpc-v2-cbor',
        'content-type': 'application/cbor',
      },
    });
    expect(cbor.status).toBe(400);
    expect(cbor.text).toContain('"%zz"');
  });

  test('S6: a gzip body that inflates past the limit is refused (413), inflated no further', async () => {
    // 64 MiB of spaces, about 64 KB of gzip.
    const bomb = gzipSync(Buffer.alloc(8 * MAX_RPC_BODY_BYTES, 0x20));
    expect(bomb.length).toBeLessThan(MAX_RPC_BODY_BYTES / 64);
    const json = await send('/', {
      headers: {
        ...signed(DEPLOYER_KEY, 'monitoring'),
        ...awsJson('GraniteServiceVersion20100801.PutMetricData', '1.0'),
        'content-encoding': 'gzip',
      },
      body: bomb,
    });
    expect(json.status).toBe(413);
    expect(json.text).toContain(`limit of ${MAX_RPC_BODY_BYTES} bytes`);
    const form = await send('/', {
      headers: { ...signed(DEPLOYER_KEY, 'monitoring'), ...FORM, 'content-encoding': 'gzip' },
      body: bomb,
    });
    expect(form.status).toBe(413);
    expect(form.text).toContain('<ErrorResponse');
    // Raw, the same limit: refused as it is read (nothing past the limit is kept), in the protocol's shape.
    const raw = await send('/', {
      headers: { ...signed(DEPLOYER_KEY, 'firehose'), ...awsJson('Firehose_20150804.PutRecordBatch', '1.1') },
      body: Buffer.alloc(MAX_RPC_BODY_BYTES + 1, 0x20),
    });
    expect(raw.status).toBe(413);
    expect(raw.text).toContain('RequestEntityTooLarge');
    // The same without a Content-Length (chunked transfer): cut off once past the limit.
    const streamed = await fetch(endpoint.url, {
      method: 'POST',
      headers: { ...signed(DEPLOYER_KEY, 'firehose'), ...awsJson('Firehose_20150804.PutRecordBatch', '1.1') },
      body: new ReadableStream({
        start(controller) {
          for (let i = 0; i < 9; i++) controller.enqueue(new Uint8Array(1024 * 1024).fill(0x20));
          controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
    await streamed.text();
    // S3's objects are REST bodies, not RPC ones: a PutObject past that size is stored.
    await s3.send(
      new PutObjectCommand({
        Bucket: BUCKET,
        Key: 'prefix/large',
        Body: Buffer.alloc(MAX_RPC_BODY_BYTES + 1),
      }),
    );
    // A body that is not the gzip it says: the service's malformed-request error.
    const broken = await send('/', {
      headers: {
        ...signed(DEPLOYER_KEY, 'athena'),
        ...awsJson('AmazonAthena.ListWorkGroups', '1.1'),
        'content-encoding': 'gzip',
      },
      body: '{}',
    });
    expect(broken.status).toBe(400);
    expect(broken.text).toContain('not valid gzip');
  });

  test('S7: a presigned URL needs an X-Amz-Expires of 1 to 604800 seconds, and is refused once past it', async () => {
    const presigned = (date: Date, expires: string | undefined) => {
      const q = new URLSearchParams({
        'X-Amz-Algorithm': 'AWS4-HMAC-SHA256',
        'X-Amz-Credential': `${DEPLOYER_KEY.accessKeyId}/${amzDate(date).slice(0, 8)}/us-east-1/s3/aws4_request`,
        'X-Amz-Date': amzDate(date),
        ...(expires !== undefined ? { 'X-Amz-Expires': expires } : {}),
        'X-Amz-SignedHeaders': 'host',
        'X-Amz-Signature': SIG,
      });
      return send(`/${BUCKET}/other/victim?${q}`, { method: 'GET', headers: {} });
    };
    const now = new Date();
    for (const expires of [undefined, 'abc', '-5', '0', '604801', '1e3']) {
      const reply = await presigned(now, expires);
      expect({ expires, status: reply.status }).toEqual({ expires, status: 400 });
      expect(reply.text).toContain('<Code>AuthorizationQueryParametersError</Code>');
      expect(reply.text).toContain('X-Amz-Expires');
    }
    const expired = await presigned(new Date(now.getTime() - 3600_000), '60');
    expect(expired.status).toBe(403);
    expect(expired.text).toContain('<Code>AccessDenied</Code>');
    expect(expired.text).toContain('Request has expired');
    const valid = await presigned(now, '300');
    expect(valid.status).toBe(200);
    expect(valid.text).toBe('other/victim');
    expect((await presigned(new Date(now.getTime() - 60_000), '604800')).status).toBe(200);
  });
});
