// S3 multipart uploads and the object reads a transfer manager makes, through the AWS SDK v3 client over loopback:
// create, upload parts, list them and the uploads, complete (S3's part rules refused as S3 refuses them), abort;
// ranged GETs, CopyObject, ListObjects (v1) and ListObjectVersions; an aws-chunked (streaming) upload.
import { describe, test, expect, beforeAll, afterAll } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateBucketCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsCommand,
  ListObjectVersionsCommand,
  ListPartsCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { startLocalEndpoint, type LocalEndpoint } from '../server';
import { localClientConfig } from '../client-config';
import { MemoryWarehouse } from '../../test/support/memory-warehouse';

const MiB = 1024 * 1024;
const errorOf = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: { name: string }) => error,
  );

describe('S3 multipart uploads and object reads (AWS SDK v3 over loopback)', () => {
  let dir: string;
  let endpoint: LocalEndpoint;
  let s3: S3Client;
  const Bucket = 'uploads-bucket';

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'local-s3-multipart-'));
    endpoint = await startLocalEndpoint({
      dataDir: dir,
      engine: { openWarehouse: async () => new MemoryWarehouse() },
    });
    s3 = new S3Client({ ...localClientConfig(endpoint.url), forcePathStyle: true });
    await s3.send(new CreateBucketCommand({ Bucket }));
  });
  afterAll(async () => {
    s3.destroy();
    await endpoint.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('an upload in three parts is listed while in progress and becomes one object of their bytes, in order', async () => {
    const Key = 'runs/big.bin';
    const parts = [randomBytes(5 * MiB), randomBytes(5 * MiB), Buffer.from('the last part may be small')];
    const { UploadId } = await s3.send(new CreateMultipartUploadCommand({ Bucket, Key }));
    // Uploaded out of order, as parallel uploaders do.
    const etags: string[] = [];
    for (const n of [3, 1, 2])
      etags[n - 1] = (
        await s3.send(new UploadPartCommand({ Bucket, Key, UploadId, PartNumber: n, Body: parts[n - 1] }))
      ).ETag as string;
    const listed = await s3.send(new ListPartsCommand({ Bucket, Key, UploadId }));
    expect(listed.Parts?.map((p) => [p.PartNumber, p.Size, p.ETag])).toEqual(
      parts.map((p, i) => [i + 1, p.length, etags[i]]),
    );
    const uploads = await s3.send(new ListMultipartUploadsCommand({ Bucket }));
    expect(uploads.Uploads?.map((u) => [u.Key, u.UploadId])).toEqual([[Key, UploadId]]);
    // Not an object until completed, and the parts live outside the bucket.
    expect((await errorOf(s3.send(new GetObjectCommand({ Bucket, Key }))))?.name).toBe('NoSuchKey');

    const done = await s3.send(
      new CompleteMultipartUploadCommand({
        Bucket,
        Key,
        UploadId,
        MultipartUpload: { Parts: etags.map((ETag, i) => ({ ETag, PartNumber: i + 1 })) },
      }),
    );
    expect(done.Key).toBe(Key);
    const got = await s3.send(new GetObjectCommand({ Bucket, Key }));
    expect(Buffer.from(await got.Body!.transformToByteArray()).equals(Buffer.concat(parts))).toBe(true);
    expect((await s3.send(new ListMultipartUploadsCommand({ Bucket }))).Uploads ?? []).toEqual([]);
    expect(readdirSync(join(dir, 's3-uploads'))).toEqual([]);
  });

  test("S3's part rules: parts in ascending order, each part's ETag, 5 MiB but the last; an aborted upload is gone", async () => {
    const Key = 'runs/refused.bin';
    const { UploadId } = await s3.send(new CreateMultipartUploadCommand({ Bucket, Key }));
    const small = await s3.send(
      new UploadPartCommand({ Bucket, Key, UploadId, PartNumber: 1, Body: 'small' }),
    );
    const second = await s3.send(
      new UploadPartCommand({ Bucket, Key, UploadId, PartNumber: 2, Body: 'tail' }),
    );
    const complete = (Parts: { ETag?: string; PartNumber: number }[]) =>
      errorOf(
        s3.send(new CompleteMultipartUploadCommand({ Bucket, Key, UploadId, MultipartUpload: { Parts } })),
      );
    expect(
      (
        await complete([
          { ETag: second.ETag, PartNumber: 2 },
          { ETag: small.ETag, PartNumber: 1 },
        ])
      )?.name,
    ).toBe('InvalidPartOrder');
    expect((await complete([{ ETag: '"0123"', PartNumber: 1 }]))?.name).toBe('InvalidPart');
    expect(
      (
        await complete([
          { ETag: small.ETag, PartNumber: 1 },
          { ETag: second.ETag, PartNumber: 2 },
        ])
      )?.name,
    ).toBe('EntityTooSmall');
    expect(
      (
        await errorOf(
          s3.send(new UploadPartCommand({ Bucket, Key, UploadId, PartNumber: 10_001, Body: 'x' })),
        )
      )?.name,
    ).toBe('InvalidArgument');
    await s3.send(new AbortMultipartUploadCommand({ Bucket, Key, UploadId }));
    expect((await errorOf(s3.send(new ListPartsCommand({ Bucket, Key, UploadId }))))?.name).toBe(
      'NoSuchUpload',
    );
    expect((await errorOf(s3.send(new ListPartsCommand({ Bucket, Key, UploadId: '../../etc' }))))?.name).toBe(
      'NoSuchUpload',
    );
  });

  test('ranged GETs, CopyObject, ListObjects (v1) and ListObjectVersions', async () => {
    const bytes = Buffer.from('0123456789abcdef');
    await s3.send(new PutObjectCommand({ Bucket, Key: 'read/data', Body: bytes }));
    const range = async (Range: string) => {
      const r = await s3.send(new GetObjectCommand({ Bucket, Key: 'read/data', Range }));
      return [Buffer.from(await r.Body!.transformToByteArray()).toString(), r.ContentRange];
    };
    expect(await range('bytes=2-5')).toEqual(['2345', 'bytes 2-5/16']);
    expect(await range('bytes=12-')).toEqual(['cdef', 'bytes 12-15/16']);
    expect(await range('bytes=-3')).toEqual(['def', 'bytes 13-15/16']);
    expect((await errorOf(range('bytes=99-')))?.name).toBe('InvalidRange');

    await s3.send(new CopyObjectCommand({ Bucket, Key: 'read/copy', CopySource: `${Bucket}/read/data` }));
    const copy = await s3.send(new GetObjectCommand({ Bucket, Key: 'read/copy' }));
    expect(Buffer.from(await copy.Body!.transformToByteArray()).equals(bytes)).toBe(true);

    const v1 = await s3.send(new ListObjectsCommand({ Bucket, Prefix: 'read/', MaxKeys: 1 }));
    expect([v1.Contents?.map((o) => o.Key), v1.IsTruncated]).toEqual([['read/copy'], true]);
    const next = await s3.send(new ListObjectsCommand({ Bucket, Prefix: 'read/', Marker: 'read/copy' }));
    expect(next.Contents?.map((o) => o.Key)).toEqual(['read/data']);
    const versions = await s3.send(new ListObjectVersionsCommand({ Bucket, Prefix: 'read/' }));
    expect(versions.Versions?.map((v) => [v.Key, v.VersionId, v.IsLatest])).toEqual([
      ['read/copy', 'null', true],
      ['read/data', 'null', true],
    ]);
  });

  test('a streaming (aws-chunked) upload is stored as its bytes, not its chunk framing', async () => {
    const bytes = randomBytes(300_000);
    await s3.send(
      new PutObjectCommand({
        Bucket,
        Key: 'read/streamed',
        Body: Readable.from([bytes.subarray(0, 100_000), bytes.subarray(100_000)]),
        ContentLength: bytes.length,
      }),
    );
    const got = await s3.send(new GetObjectCommand({ Bucket, Key: 'read/streamed' }));
    expect(Buffer.from(await got.Body!.transformToByteArray()).equals(bytes)).toBe(true);
  });
});
