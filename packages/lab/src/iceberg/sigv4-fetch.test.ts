// The signed request shape for S3 Tables' Iceberg REST endpoint, pinned: signing name s3tables, the warehouse ARN
// one path segment on the wire and encoded twice in the canonical request, and a signature recomputed here by hand
// from AWS's SigV4 steps (so a signer that signs the wrong string fails).
import { describe, expect, test } from '@jest/globals';
import { createHash, createHmac } from 'node:crypto';
import { sigv4Fetch } from './sigv4-fetch';

const CREDENTIALS = {
  accessKeyId: 'AKIDEXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
};
const ARN = 'arn:aws:s3tables:us-east-1:123456789012:bucket/loglake-01-flow-logs';
const AT = new Date('2026-11-30T12:00:00Z');

function captured() {
  const calls: { url: string; init: RequestInit }[] = [];
  const fetch = (async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    return new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } });
  }) as unknown as typeof globalThis.fetch;
  return { calls, fetch };
}

const sha = (s: string) => createHash('sha256').update(s).digest('hex');
const hmac = (key: Buffer | string, s: string) => createHmac('sha256', key).update(s).digest();

/** SigV4 by hand (AWS General Reference, "Create a signed AWS API request"), for a non-S3 service. */
function expectedSignature(
  method: string,
  path: string,
  query: string,
  headers: Record<string, string>,
  body: string,
) {
  const canonicalPath = path
    .split('/')
    .map((segment) => encodeURIComponent(segment))
    .join('/');
  const names = Object.keys(headers).sort();
  const canonical = [
    method,
    canonicalPath,
    query,
    ...names.map((n) => `${n}:${headers[n]}`),
    '',
    names.join(';'),
    sha(body),
  ].join('\n');
  const scope = '20261130/us-east-1/s3tables/aws4_request';
  const toSign = ['AWS4-HMAC-SHA256', '20261130T120000Z', scope, sha(canonical)].join('\n');
  let key: Buffer = hmac(`AWS4${CREDENTIALS.secretAccessKey}`, '20261130');
  for (const part of ['us-east-1', 's3tables', 'aws4_request']) key = hmac(key, part);
  return {
    signature: createHmac('sha256', key).update(toSign).digest('hex'),
    signedHeaders: names.join(';'),
  };
}

describe('sigv4Fetch for the S3 Tables Iceberg REST endpoint', () => {
  test('GET config: the warehouse in the query, signed for s3tables in the region', async () => {
    // Prepare
    const { calls, fetch } = captured();
    const signed = sigv4Fetch({
      region: 'us-east-1',
      credentials: async () => CREDENTIALS,
      fetch,
      now: () => AT,
    });
    // Act
    await signed(
      `https://s3tables.us-east-1.amazonaws.com/iceberg/v1/config?warehouse=${encodeURIComponent(ARN)}`,
    );
    // Assess
    const headers = new Headers(calls[0]!.init.headers);
    const expected = expectedSignature(
      'GET',
      '/iceberg/v1/config',
      `warehouse=${encodeURIComponent(ARN)}`,
      {
        host: 's3tables.us-east-1.amazonaws.com',
        'x-amz-content-sha256': sha(''),
        'x-amz-date': '20261130T120000Z',
      },
      '',
    );
    expect(calls[0]!.url).toBe(
      `https://s3tables.us-east-1.amazonaws.com/iceberg/v1/config?warehouse=${encodeURIComponent(ARN)}`,
    );
    expect(headers.get('authorization')).toBe(
      `AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20261130/us-east-1/s3tables/aws4_request, ` +
        `SignedHeaders=${expected.signedHeaders}, Signature=${expected.signature}`,
    );
  });

  test('POST commit: one-segment prefix on the wire, encoded twice in the canonical request, body hashed', async () => {
    // Prepare
    const { calls, fetch } = captured();
    const signed = sigv4Fetch({
      region: 'us-east-1',
      credentials: async () => CREDENTIALS,
      fetch,
      now: () => AT,
    });
    const path = `/iceberg/v1/${encodeURIComponent(ARN)}/namespaces/network/tables/vpc_flow_logs`;
    const body = JSON.stringify({ requirements: [], updates: [] });
    // Act
    await signed(`https://s3tables.us-east-1.amazonaws.com${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body,
    });
    // Assess
    const headers = new Headers(calls[0]!.init.headers);
    const expected = expectedSignature(
      'POST',
      path,
      '',
      {
        'content-type': 'application/json',
        host: 's3tables.us-east-1.amazonaws.com',
        'x-amz-content-sha256': sha(body),
        'x-amz-date': '20261130T120000Z',
      },
      body,
    );
    expect(new URL(calls[0]!.url).pathname).toBe(path);
    expect(calls[0]!.init.body).toBe(body);
    expect(headers.get('authorization')).toContain(`Signature=${expected.signature}`);
    expect(headers.get('authorization')).toContain(`SignedHeaders=${expected.signedHeaders}`);
  });
});
