// What the laptop's reader (icebird, which reads through the global fetch) is given to reach a table's files:
// file:// from the local endpoint's disk, and S3 objects (icebird turns s3:// into https://<bucket>.s3.amazonaws.com)
// through the AWS SDK's S3 client, so the standard credential chain signs them. Ranges are honoured both ways.
import { open, stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { GetObjectCommand, HeadObjectCommand, type S3Client } from '@aws-sdk/client-s3';

type Fetch = typeof globalThis.fetch;

const S3_HOST = /^([^.]+(?:\.[^.]+)*?)\.s3\.amazonaws\.com$/;

function rangeOf(init?: RequestInit): string | undefined {
  return new Headers(init?.headers).get('range') ?? undefined;
}

async function fromDisk(url: string, init?: RequestInit): Promise<Response> {
  const path = fileURLToPath(url);
  const size = (await stat(path).catch(() => undefined))?.size;
  if (size === undefined) return new Response(null, { status: 404 });
  if ((init?.method ?? 'GET').toUpperCase() === 'HEAD')
    return new Response(null, { status: 200, headers: { 'content-length': String(size) } });
  const range = /^bytes=(\d+)-(\d*)$/.exec(rangeOf(init) ?? '');
  const start = range ? Number(range[1]) : 0;
  const end = range && range[2] !== '' ? Math.min(size - 1, Number(range[2])) : size - 1;
  const body = Buffer.alloc(Math.max(0, end - start + 1));
  const handle = await open(path, 'r');
  try {
    await handle.read(body, 0, body.length, start);
  } finally {
    await handle.close();
  }
  return new Response(body, {
    status: range ? 206 : 200,
    headers: {
      'content-length': String(body.length),
      ...(range ? { 'content-range': `bytes ${start}-${end}/${size}` } : {}),
    },
  });
}

async function fromS3(s3: S3Client, bucket: string, key: string, init?: RequestInit): Promise<Response> {
  if ((init?.method ?? 'GET').toUpperCase() === 'HEAD') {
    const head = await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
    return new Response(null, {
      status: 200,
      headers: { 'content-length': String(head.ContentLength ?? 0) },
    });
  }
  const range = rangeOf(init);
  const object = await s3.send(
    new GetObjectCommand({ Bucket: bucket, Key: key, ...(range ? { Range: range } : {}) }),
  );
  const bytes = (await object.Body?.transformToByteArray()) ?? new Uint8Array();
  return new Response(bytes, {
    status: range ? 206 : 200,
    headers: {
      'content-length': String(bytes.length),
      ...(object.ContentRange ? { 'content-range': object.ContentRange } : {}),
    },
  });
}

/** A fetch serving file:// and S3 object URLs; anything else goes to `inner`. */
export function objectFetch(s3: S3Client | undefined, inner: Fetch): Fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    if (url.protocol === 'file:') return fromDisk(url.href, init);
    const s3Host = S3_HOST.exec(url.hostname);
    if (s3 && url.protocol === 'https:' && s3Host)
      return fromS3(s3, s3Host[1] as string, decodeURIComponent(url.pathname.slice(1)), init);
    return inner(input, init);
  }) as Fetch;
}

/** Runs `read` with the object fetch installed as the global fetch (icebird has no fetch option). */
export async function withObjectFetch<T>(s3: S3Client | undefined, read: () => Promise<T>): Promise<T> {
  const original = globalThis.fetch;
  globalThis.fetch = objectFetch(s3, original);
  try {
    return await read();
  } finally {
    globalThis.fetch = original;
  }
}
