// S3's bucket configurations and bucket facts through the AWS SDK v3 client over loopback: what a new bucket answers
// (S3's defaults, or each configuration's documented NoSuch… error), the configurations stacks/lib/private-bucket.ts
// puts read back as put, deletes, S3's own refusals, CreationDate/Owner/region, and one request id per answer.
import { describe, test, expect, beforeAll, afterAll } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CreateBucketCommand,
  DeleteBucketEncryptionCommand,
  DeletePublicAccessBlockCommand,
  GetBucketAccelerateConfigurationCommand,
  GetBucketAclCommand,
  GetBucketCorsCommand,
  GetBucketEncryptionCommand,
  GetBucketLifecycleConfigurationCommand,
  GetBucketLocationCommand,
  GetBucketLoggingCommand,
  GetBucketNotificationConfigurationCommand,
  GetBucketOwnershipControlsCommand,
  GetBucketPolicyCommand,
  GetBucketPolicyStatusCommand,
  GetBucketReplicationCommand,
  GetBucketRequestPaymentCommand,
  GetBucketTaggingCommand,
  GetBucketVersioningCommand,
  GetBucketWebsiteCommand,
  GetObjectLockConfigurationCommand,
  GetPublicAccessBlockCommand,
  HeadBucketCommand,
  ListBucketsCommand,
  PutBucketEncryptionCommand,
  PutBucketLifecycleConfigurationCommand,
  PutBucketOwnershipControlsCommand,
  PutBucketPolicyCommand,
  PutBucketReplicationCommand,
  PutBucketTaggingCommand,
  PutBucketVersioningCommand,
  PutPublicAccessBlockCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { startLocalEndpoint, type LocalEndpoint } from '../server';
import { localClientConfig } from '../client-config';
import { MemoryWarehouse } from '../../test/support/memory-warehouse';

const errorOf = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: { name: string; $metadata?: { httpStatusCode?: number } }) => error,
  );

describe('S3 bucket configurations and bucket facts (AWS SDK v3 over loopback)', () => {
  let dir: string;
  let endpoint: LocalEndpoint;
  let s3: S3Client;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'local-s3-config-'));
    endpoint = await startLocalEndpoint({
      dataDir: dir,
      engine: { openWarehouse: async () => new MemoryWarehouse() },
    });
    s3 = new S3Client({ ...localClientConfig(endpoint.url), forcePathStyle: true });
  });
  afterAll(async () => {
    s3.destroy();
    await endpoint.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('a new bucket answers each configuration as S3 documents it: a default, or its NoSuch… error', async () => {
    const Bucket = 'fresh-bucket';
    await s3.send(new CreateBucketCommand({ Bucket }));
    // Since 2023 every new bucket has SSE-S3, Block Public Access on and BucketOwnerEnforced.
    const encryption = await s3.send(new GetBucketEncryptionCommand({ Bucket }));
    expect(
      encryption.ServerSideEncryptionConfiguration?.Rules?.[0]?.ApplyServerSideEncryptionByDefault,
    ).toEqual({
      SSEAlgorithm: 'AES256',
    });
    const block = await s3.send(new GetPublicAccessBlockCommand({ Bucket }));
    expect(block.PublicAccessBlockConfiguration).toEqual({
      BlockPublicAcls: true,
      IgnorePublicAcls: true,
      BlockPublicPolicy: true,
      RestrictPublicBuckets: true,
    });
    const ownership = await s3.send(new GetBucketOwnershipControlsCommand({ Bucket }));
    expect(ownership.OwnershipControls?.Rules).toEqual([{ ObjectOwnership: 'BucketOwnerEnforced' }]);
    const acl = await s3.send(new GetBucketAclCommand({ Bucket }));
    expect(acl.Owner?.ID).toMatch(/^[0-9a-f]{64}$/);
    expect(acl.Grants).toEqual([
      { Grantee: { ID: acl.Owner?.ID, Type: 'CanonicalUser' }, Permission: 'FULL_CONTROL' },
    ]);
    expect((await s3.send(new GetBucketVersioningCommand({ Bucket }))).Status).toBeUndefined();
    expect((await s3.send(new GetBucketLoggingCommand({ Bucket }))).LoggingEnabled).toBeUndefined();
    expect((await s3.send(new GetBucketAccelerateConfigurationCommand({ Bucket }))).Status).toBeUndefined();
    expect((await s3.send(new GetBucketRequestPaymentCommand({ Bucket }))).Payer).toBe('BucketOwner');
    expect(
      (await s3.send(new GetBucketNotificationConfigurationCommand({ Bucket }))).TopicConfigurations,
    ).toBeUndefined();
    expect((await s3.send(new GetBucketLocationCommand({ Bucket }))).LocationConstraint).toBeFalsy();
    const missing = await Promise.all(
      [
        s3.send(new GetBucketPolicyCommand({ Bucket })),
        s3.send(new GetBucketPolicyStatusCommand({ Bucket })),
        s3.send(new GetBucketLifecycleConfigurationCommand({ Bucket })),
        s3.send(new GetBucketCorsCommand({ Bucket })),
        s3.send(new GetBucketWebsiteCommand({ Bucket })),
        s3.send(new GetBucketReplicationCommand({ Bucket })),
        s3.send(new GetObjectLockConfigurationCommand({ Bucket })),
        s3.send(new GetBucketTaggingCommand({ Bucket })),
      ].map((call) => errorOf(call).then((e) => [e?.name, e?.$metadata?.httpStatusCode])),
    );
    expect(missing).toEqual([
      ['NoSuchBucketPolicy', 404],
      ['NoSuchBucketPolicy', 404],
      ['NoSuchLifecycleConfiguration', 404],
      ['NoSuchCORSConfiguration', 404],
      ['NoSuchWebsiteConfiguration', 404],
      ['ReplicationConfigurationNotFoundError', 404],
      ['ObjectLockConfigurationNotFoundError', 404],
      ['NoSuchTagSet', 404],
    ]);
    expect((await errorOf(s3.send(new GetBucketPolicyCommand({ Bucket: 'no-such-bucket' }))))?.name).toBe(
      'NoSuchBucket',
    );
  });

  test("private-bucket.ts's configurations are kept and read back as put; deletes restore S3's answers", async () => {
    const Bucket = 'private-bucket';
    await s3.send(new CreateBucketCommand({ Bucket }));
    await s3.send(
      new PutPublicAccessBlockCommand({
        Bucket,
        PublicAccessBlockConfiguration: {
          BlockPublicAcls: true,
          IgnorePublicAcls: false,
          BlockPublicPolicy: true,
          RestrictPublicBuckets: true,
        },
      }),
    );
    await s3.send(
      new PutBucketOwnershipControlsCommand({
        Bucket,
        OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerPreferred' }] },
      }),
    );
    await s3.send(
      new PutBucketEncryptionCommand({
        Bucket,
        ServerSideEncryptionConfiguration: {
          Rules: [
            {
              ApplyServerSideEncryptionByDefault: { SSEAlgorithm: 'aws:kms', KMSMasterKeyID: 'alias/lab' },
              BucketKeyEnabled: true,
            },
          ],
        },
      }),
    );
    const policy = JSON.stringify({
      Version: '2012-10-17',
      Statement: [
        {
          Sid: 'DenyInsecureTransport',
          Effect: 'Deny',
          Principal: { AWS: '*' },
          Action: 's3:*',
          Resource: `arn:aws:s3:::${Bucket}/*`,
          Condition: { Bool: { 'aws:SecureTransport': 'false' } },
        },
      ],
    });
    await s3.send(new PutBucketPolicyCommand({ Bucket, Policy: policy }));
    const lifecycle = await s3.send(
      new PutBucketLifecycleConfigurationCommand({
        Bucket,
        LifecycleConfiguration: {
          Rules: [{ ID: 'expire', Status: 'Enabled', Filter: { Prefix: '' }, Expiration: { Days: 14 } }],
        },
      }),
    );
    await s3.send(new PutBucketVersioningCommand({ Bucket, VersioningConfiguration: { Status: 'Enabled' } }));
    await s3.send(
      new PutBucketTaggingCommand({ Bucket, Tagging: { TagSet: [{ Key: 'lab', Value: '01' }] } }),
    );

    expect(
      (await s3.send(new GetPublicAccessBlockCommand({ Bucket }))).PublicAccessBlockConfiguration
        ?.IgnorePublicAcls,
    ).toBe(false);
    expect(
      (await s3.send(new GetBucketOwnershipControlsCommand({ Bucket }))).OwnershipControls?.Rules,
    ).toEqual([{ ObjectOwnership: 'BucketOwnerPreferred' }]);
    expect(
      (await s3.send(new GetBucketEncryptionCommand({ Bucket }))).ServerSideEncryptionConfiguration?.Rules,
    ).toEqual([
      {
        ApplyServerSideEncryptionByDefault: { SSEAlgorithm: 'aws:kms', KMSMasterKeyID: 'alias/lab' },
        BucketKeyEnabled: true,
      },
    ]);
    expect((await s3.send(new GetBucketPolicyCommand({ Bucket }))).Policy).toBe(policy);
    expect((await s3.send(new GetBucketPolicyStatusCommand({ Bucket }))).PolicyStatus?.IsPublic).toBe(false);
    const rules = await s3.send(new GetBucketLifecycleConfigurationCommand({ Bucket }));
    expect(rules.Rules).toEqual([
      { ID: 'expire', Status: 'Enabled', Filter: { Prefix: '' }, Expiration: { Days: 14 } },
    ]);
    // S3's default for lifecycle configurations since September 2024, answered with the put and the get alike.
    expect(lifecycle.TransitionDefaultMinimumObjectSize).toBe('all_storage_classes_128K');
    expect(rules.TransitionDefaultMinimumObjectSize).toBe('all_storage_classes_128K');
    expect((await s3.send(new GetBucketVersioningCommand({ Bucket }))).Status).toBe('Enabled');
    expect((await s3.send(new GetBucketTaggingCommand({ Bucket }))).TagSet).toEqual([
      { Key: 'lab', Value: '01' },
    ]);

    // Deleting the public access block leaves none (NoSuch…); deleting the encryption goes back to SSE-S3.
    await s3.send(new DeletePublicAccessBlockCommand({ Bucket }));
    expect((await errorOf(s3.send(new GetPublicAccessBlockCommand({ Bucket }))))?.name).toBe(
      'NoSuchPublicAccessBlockConfiguration',
    );
    await s3.send(new DeleteBucketEncryptionCommand({ Bucket }));
    expect(
      (await s3.send(new GetBucketEncryptionCommand({ Bucket }))).ServerSideEncryptionConfiguration
        ?.Rules?.[0]?.ApplyServerSideEncryptionByDefault?.SSEAlgorithm,
    ).toBe('AES256');
  });

  test("S3's own refusals: a document the schema refuses, a policy that is not JSON, reserved tags, replication without versioning", async () => {
    const Bucket = 'strict-bucket';
    await s3.send(new CreateBucketCommand({ Bucket }));
    const raw = (query: string, body: string) =>
      fetch(`${endpoint.url}/${Bucket}?${query}`, {
        method: 'PUT',
        body,
        headers: { 'content-type': 'application/xml' },
      });
    const wrongStatus = await raw(
      'versioning',
      '<VersioningConfiguration><Status>Sometimes</Status></VersioningConfiguration>',
    );
    expect(wrongStatus.status).toBe(400);
    expect(await wrongStatus.text()).toContain('<Code>MalformedXML</Code>');
    const notXml = await raw('versioning', '<VersioningConfiguration><Status>');
    expect(await notXml.text()).toContain('<Code>MalformedXML</Code>');
    const wrongRoot = await raw('versioning', '<Tagging><TagSet/></Tagging>');
    expect(await wrongRoot.text()).toContain('<Code>MalformedXML</Code>');
    expect((await errorOf(s3.send(new PutBucketPolicyCommand({ Bucket, Policy: 'not json' }))))?.name).toBe(
      'MalformedPolicy',
    );
    expect(
      (
        await errorOf(
          s3.send(
            new PutBucketTaggingCommand({ Bucket, Tagging: { TagSet: [{ Key: 'aws:owner', Value: 'x' }] } }),
          ),
        )
      )?.name,
    ).toBe('InvalidTag');
    expect(
      (
        await errorOf(
          s3.send(
            new PutBucketReplicationCommand({
              Bucket,
              ReplicationConfiguration: {
                Role: 'arn:aws:iam::123456789012:role/replication',
                Rules: [{ Status: 'Enabled', Destination: { Bucket: 'arn:aws:s3:::elsewhere' } }],
              },
            }),
          ),
        )
      )?.name,
    ).toBe('InvalidRequest');
  });

  test('ListBuckets dates each bucket when it was made and names the owner; HeadBucket and GetBucketLocation say the region', async () => {
    const before = Date.now() - 1000;
    await s3.send(new CreateBucketCommand({ Bucket: 'dated-bucket' }));
    await s3.send(
      new CreateBucketCommand({
        Bucket: 'ireland-bucket',
        CreateBucketConfiguration: { LocationConstraint: 'eu-west-1' },
      }),
    );
    const listed = await s3.send(new ListBucketsCommand({}));
    const dated = listed.Buckets?.find((b) => b.Name === 'dated-bucket');
    expect(dated?.CreationDate?.getTime()).toBeGreaterThanOrEqual(before);
    expect(dated?.CreationDate?.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
    expect(listed.Owner?.ID).toMatch(/^[0-9a-f]{64}$/);
    expect((await s3.send(new HeadBucketCommand({ Bucket: 'dated-bucket' }))).BucketRegion).toBe('us-east-1');
    expect((await s3.send(new HeadBucketCommand({ Bucket: 'ireland-bucket' }))).BucketRegion).toBe(
      'eu-west-1',
    );
    expect(
      (await s3.send(new GetBucketLocationCommand({ Bucket: 'ireland-bucket' }))).LocationConstraint,
    ).toBe('eu-west-1');
  });

  test('the request id an error document carries is the one in the headers', async () => {
    const response = await fetch(`${endpoint.url}/dated-bucket?policy`);
    const body = await response.text();
    const inBody = /<RequestId>([^<]+)<\/RequestId>/.exec(body)?.[1];
    expect(response.status).toBe(404);
    expect(inBody).toBeDefined();
    expect(response.headers.get('x-amz-request-id')).toBe(inBody);
    expect(response.headers.get('x-amzn-requestid')).toBe(inBody);
  });
});
