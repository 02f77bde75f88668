// Smithy RPC v2 CBOR (`smithy.protocols#rpcv2Cbor`), the protocol newer AWS SDKs speak to CloudWatch:
// `POST /service/<ServiceShape>/operation/<Operation>` with `smithy-protocol: rpc-v2-cbor` and a CBOR body, replies
// the same (Smithy docs, "RPC v2 CBOR protocol"). Encoding and decoding are the AWS SDK's own CBOR codec
// (@smithy/core/cbor). Requests become the JSON-like values the handlers take (`Wire<…>`: timestamps as epoch
// seconds, blobs as base64 text); replies are typed by the operation's output shape (timestamps as tag 1, blobs as
// byte strings). Errors carry `__type` and `message`, and for a query-compatible service `x-amzn-query-error`.
import { cbor, tag } from '@smithy/core/cbor';
import type { AwsServiceError } from './errors';
import type { CompactModel, MemberRef } from './model/types';
import { decodeSegment } from './percent-encoding';
import type { LocalReply, LocalRequest } from './protocol';

export const CBOR_HEADERS = { 'smithy-protocol': 'rpc-v2-cbor', 'content-type': 'application/cbor' } as const;

/** `/service/<service>/operation/<operation>` of a CBOR request, or undefined. */
export function cborTarget(
  request: Pick<LocalRequest, 'method' | 'path' | 'headers'>,
): { service: string; operation: string } | undefined {
  if (String(request.headers['smithy-protocol'] ?? '').toLowerCase() !== 'rpc-v2-cbor') return undefined;
  const match = /^\/service\/([^/]+)\/operation\/([^/]+)$/.exec(request.path);
  if (request.method !== 'POST' || !match) return undefined;
  // A segment that is not valid percent-encoding names no service or operation: kept as written, it matches none,
  // and the request is answered as one no service serves (never a thrown URIError).
  const service = match[1] as string;
  const operation = match[2] as string;
  return { service: decodeSegment(service) ?? service, operation: decodeSegment(operation) ?? operation };
}

/** A CBOR body as the JSON-like input the model validates (an empty body is `{}`), or the problem. */
export function cborInput(body: Buffer): { input: Record<string, unknown> } | { problem: string } {
  if (body.length === 0) return { input: {} };
  let decoded: unknown;
  try {
    decoded = cbor.deserialize(body);
  } catch (error) {
    return { problem: `the body is not CBOR (${error instanceof Error ? error.message : String(error)})` };
  }
  const value = fromCbor(decoded);
  if (!value || typeof value !== 'object' || Array.isArray(value))
    return { problem: 'the body is not a CBOR map' };
  return { input: value as Record<string, unknown> };
}

function fromCbor(value: unknown): unknown {
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  if (typeof value === 'bigint') return Number(value);
  if (Array.isArray(value)) return value.map(fromCbor);
  if (value && typeof value === 'object') {
    const tagged = value as { tag?: unknown; value?: unknown };
    // Tag 1: epoch-based date/time (RFC 8949 §3.4.2), the protocol's timestamps; kept as epoch seconds.
    if ('tag' in tagged && 'value' in tagged && Object.keys(value).length === 2)
      return fromCbor(tagged.value);
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fromCbor(v)]));
  }
  return value;
}

/** The operation's output (JSON-like, as the handlers write it) as a CBOR reply typed by the output shape. */
export function cborReply(model: CompactModel, operation: string, output: unknown): LocalReply {
  const shape = model.operations[operation]?.output;
  const value = shape ? toCbor(model, { target: shape }, output ?? {}) : {};
  return { status: 200, raw: { headers: { ...CBOR_HEADERS }, body: Buffer.from(cbor.serialize(value)) } };
}

function toCbor(model: CompactModel, ref: MemberRef, value: unknown): unknown {
  if (value === undefined || value === null) return value;
  const shape = model.shapes[ref.target];
  switch (shape?.type) {
    case 'structure':
    case 'union':
      return Object.fromEntries(
        Object.entries(value as Record<string, unknown>)
          .filter(([name, v]) => v !== undefined && name in shape.members)
          .map(([name, v]) => [name, toCbor(model, shape.members[name] as MemberRef, v)]),
      );
    case 'list':
      return (value as unknown[]).map((item) => toCbor(model, shape.member, item));
    case 'map':
      return Object.fromEntries(
        Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, toCbor(model, shape.value, v)]),
      );
    case 'timestamp': {
      const seconds = typeof value === 'number' ? value : Date.parse(String(value)) / 1000;
      return tag({ tag: 1, value: seconds });
    }
    case 'blob':
      return typeof value === 'string' ? new Uint8Array(Buffer.from(value, 'base64')) : value;
    default:
      return value;
  }
}

/** An error as the protocol writes it: `__type` and `message`, plus the awsQuery code of a query-compatible service. */
export function cborError(
  error: AwsServiceError,
  queryError?: string,
): { status: number; headers: Record<string, string>; body: Buffer } {
  // The shape's name without a namespace: the SDK resolves it in the service's own namespace.
  const body = { __type: error.type, message: error.message, ...error.fields };
  return {
    status: error.status,
    headers: { ...CBOR_HEADERS, ...(queryError ? { 'x-amzn-query-error': queryError } : {}) },
    body: Buffer.from(cbor.serialize(body)),
  };
}
