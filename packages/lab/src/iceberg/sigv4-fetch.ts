// A fetch that signs each request with AWS Signature Version 4 for S3 Tables' Iceberg REST endpoint (AWS: "The SigV4
// signing name for the service endpoint requests is: s3tables"), so a REST catalog client written for any catalog
// (iceberg-js takes a fetch) can talk to https://s3tables.<region>.amazonaws.com/iceberg with the standard
// credential chain. The path is signed as AWS signs non-S3 services: each segment URI-encoded again, so the
// warehouse ARN (one segment, already encoded once) reaches the canonical request encoded twice.
import { createHash, createHmac, type Hash, type Hmac } from 'node:crypto';
import { SignatureV4 } from '@smithy/signature-v4';

export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

export interface SigV4FetchOptions {
  region: string;
  /** Resolves the caller's credentials (the SDK clients' provider: the standard chain). */
  credentials: () => Promise<AwsCredentials>;
  /** The signing name; S3 Tables' Iceberg REST endpoint uses s3tables. */
  service?: string;
  fetch?: typeof globalThis.fetch;
  /** Signing time (tests pin it). */
  now?: () => Date;
}

type Bytes = string | ArrayBuffer | ArrayBufferView;
const toBuffer = (data: Bytes): Buffer =>
  typeof data === 'string'
    ? Buffer.from(data, 'utf8')
    : ArrayBuffer.isView(data)
      ? Buffer.from(data.buffer, data.byteOffset, data.byteLength)
      : Buffer.from(data);

/** SHA-256 (and HMAC-SHA-256 when given a key) from node:crypto, in the shape the signer asks for. */
class NodeSha256 {
  private hash: Hash | Hmac;
  constructor(private readonly secret?: Bytes) {
    this.hash = this.fresh();
  }
  private fresh(): Hash | Hmac {
    return this.secret === undefined ? createHash('sha256') : createHmac('sha256', toBuffer(this.secret));
  }
  update(data: Bytes): void {
    this.hash.update(toBuffer(data));
  }
  async digest(): Promise<Uint8Array> {
    return new Uint8Array(this.hash.digest());
  }
  reset(): void {
    this.hash = this.fresh();
  }
}

export function sigv4Fetch(options: SigV4FetchOptions): typeof globalThis.fetch {
  const signer = new SignatureV4({
    service: options.service ?? 's3tables',
    region: options.region,
    credentials: options.credentials,
    sha256: NodeSha256,
  });
  const inner = options.fetch ?? globalThis.fetch;
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    const method = (init?.method ?? 'GET').toUpperCase();
    const body = typeof init?.body === 'string' ? init.body : undefined;
    const headers: Record<string, string> = { host: url.host };
    new Headers(init?.headers).forEach((value, key) => (headers[key] = value));
    const query: Record<string, string> = {};
    url.searchParams.forEach((value, key) => (query[key] = value));
    const signed = await signer.sign(
      {
        method,
        protocol: url.protocol,
        hostname: url.hostname,
        ...(url.port ? { port: Number(url.port) } : {}),
        path: url.pathname,
        query,
        headers,
        ...(body === undefined ? {} : { body }),
      },
      options.now ? { signingDate: options.now() } : {},
    );
    const sent = new Headers();
    for (const [key, value] of Object.entries(signed.headers)) if (key !== 'host') sent.set(key, value);
    return inner(url.href, { ...init, method, headers: sent });
  }) as typeof globalThis.fetch;
}
