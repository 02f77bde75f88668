import { describe, test, expect, beforeAll, afterAll } from '@jest/globals';
import { mkdtempSync, rmSync, existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { objectPath } from '@loglake/lakehouse';
import {
  S3Client,
  CreateBucketCommand,
  HeadBucketCommand,
  PutObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  DeleteObjectsCommand,
  ListBucketsCommand,
  NoSuchKey,
  NoSuchBucket,
} from '@aws-sdk/client-s3';
import { startLocalEndpoint, type LocalEndpoint } from '../server';
import { localClientConfig } from '../client-config';
import { MemoryWarehouse } from '../../test/support/memory-warehouse';

describe('S3 (general purpose buckets) over loopback', () => {
  let dir: string;
  let endpoint: LocalEndpoint;
  let s3: S3Client;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'local-s3-'));
    endpoint = await startLocalEndpoint({
      dataDir: dir,
      engine: { openWarehouse: async () => new MemoryWarehouse() },
    });
    s3 = new S3Client(localClientConfig(endpoint.url));
  });
  afterAll(async () => {
    s3.destroy();
    await endpoint.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('objects round-trip as bytes and live as files under the data directory', async () => {
    await s3.send(new CreateBucketCommand({ Bucket: 'snap-bucket' }));
    await s3.send(new HeadBucketCommand({ Bucket: 'snap-bucket' }));
    const bytes = Buffer.from([0, 1, 2, 250, 255, 80, 65, 82, 49]);
    await s3.send(
      new PutObjectCommand({ Bucket: 'snap-bucket', Key: 'daily/run=a/part-0.parquet', Body: bytes }),
    );
    const got = await s3.send(
      new GetObjectCommand({ Bucket: 'snap-bucket', Key: 'daily/run=a/part-0.parquet' }),
    );
    expect(Buffer.from(await got.Body!.transformToByteArray())).toEqual(bytes);
    // Stored where the one name → path mapping puts the key (each segment a folder, the object's file marked).
    expect(existsSync(objectPath(join(dir, 's3', 'snap-bucket'), 'daily/run=a/part-0.parquet'))).toBe(true);
    await expect(
      s3.send(new GetObjectCommand({ Bucket: 'snap-bucket', Key: 'missing' })),
    ).rejects.toBeInstanceOf(NoSuchKey);
    await expect(s3.send(new ListObjectsV2Command({ Bucket: 'no-such-bucket' }))).rejects.toBeInstanceOf(
      NoSuchBucket,
    );
  });

  test('ListBuckets dates each bucket when it was created, not 1970', async () => {
    const before = Date.now() - 1000;
    await s3.send(new CreateBucketCommand({ Bucket: 'dated-bucket' }));
    const listed = (await s3.send(new ListBucketsCommand({}))).Buckets?.find(
      (b) => b.Name === 'dated-bucket',
    );
    expect(listed?.CreationDate?.getTime()).toBeGreaterThanOrEqual(before);
    expect(listed?.CreationDate?.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
  });

  test('ListObjectsV2 with a delimiter groups runs; pagination; DeleteObjects removes a run', async () => {
    for (const run of ['run=b', 'run=c']) {
      for (const part of [0, 1, 2]) {
        await s3.send(
          new PutObjectCommand({
            Bucket: 'snap-bucket',
            Key: `daily/${run}/part-${part}.parquet`,
            Body: 'x',
          }),
        );
      }
    }
    const grouped = await s3.send(
      new ListObjectsV2Command({ Bucket: 'snap-bucket', Prefix: 'daily/run=', Delimiter: '/' }),
    );
    expect(grouped.CommonPrefixes?.map((p) => p.Prefix)).toEqual([
      'daily/run=a/',
      'daily/run=b/',
      'daily/run=c/',
    ]);
    const page1 = await s3.send(
      new ListObjectsV2Command({ Bucket: 'snap-bucket', Prefix: 'daily/', MaxKeys: 4 }),
    );
    expect(page1.IsTruncated).toBe(true);
    const page2 = await s3.send(
      new ListObjectsV2Command({
        Bucket: 'snap-bucket',
        Prefix: 'daily/',
        ContinuationToken: page1.NextContinuationToken,
      }),
    );
    expect([...(page1.Contents ?? []), ...(page2.Contents ?? [])].map((o) => o.Key)).toHaveLength(7);
    const keys =
      (await s3.send(new ListObjectsV2Command({ Bucket: 'snap-bucket', Prefix: 'daily/run=b/' }))).Contents ??
      [];
    await s3.send(
      new DeleteObjectsCommand({
        Bucket: 'snap-bucket',
        Delete: { Objects: keys.map((k) => ({ Key: k.Key })), Quiet: true },
      }),
    );
    const after = await s3.send(
      new ListObjectsV2Command({ Bucket: 'snap-bucket', Prefix: 'daily/run=', Delimiter: '/' }),
    );
    expect(after.CommonPrefixes?.map((p) => p.Prefix)).toEqual(['daily/run=a/', 'daily/run=c/']);
  });

  test('keys are opaque: `a` and `a/b` are two objects, `..` is two characters of a key', async () => {
    await s3.send(new CreateBucketCommand({ Bucket: 'opaque-keys' }));
    for (const Key of ['a', 'a/b', 'p/../x', 'p/..%2Fx', 'p/'])
      await s3.send(new PutObjectCommand({ Bucket: 'opaque-keys', Key, Body: Buffer.from(Key) }));
    const listed = await s3.send(new ListObjectsV2Command({ Bucket: 'opaque-keys' }));
    expect(listed.Contents?.map((o) => o.Key)).toEqual(['a', 'a/b', 'p/', 'p/..%2Fx', 'p/../x']); // S3's order: UTF-8 bytes
    const under = await s3.send(
      new ListObjectsV2Command({ Bucket: 'opaque-keys', Prefix: 'p/', Delimiter: '/' }),
    );
    expect(under.Contents?.map((o) => o.Key)).toEqual(['p/', 'p/..%2Fx']);
    expect(under.CommonPrefixes?.map((p) => p.Prefix)).toEqual(['p/../']);
    const got = await s3.send(new GetObjectCommand({ Bucket: 'opaque-keys', Key: 'p/../x' }));
    expect(await got.Body!.transformToString()).toBe('p/../x');
    await expect(s3.send(new GetObjectCommand({ Bucket: 'opaque-keys', Key: 'x' }))).rejects.toBeInstanceOf(
      NoSuchKey,
    );
  });

  test('an unexpected failure is answered with S3 own internal error code, status 500', async () => {
    // Prepare: a file put by hand where the key needs a folder, so writing below it fails on disk.
    await s3.send(new CreateBucketCommand({ Bucket: 'broken-bucket' }));
    writeFileSync(join(dir, 's3', 'broken-bucket', 'a'), 'not the layout');

    // Act
    const failure = await s3
      .send(new PutObjectCommand({ Bucket: 'broken-bucket', Key: 'a/b', Body: Buffer.from('y') }))
      .then(
        () => undefined,
        (error: unknown) => error as { name: string; $metadata: { httpStatusCode?: number } },
      );

    // Assess
    expect(failure?.name).toBe('InternalError');
    expect(failure?.$metadata.httpStatusCode).toBe(500);
  });
});
