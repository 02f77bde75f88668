// A request body as a service reads it: gunzipped when the client compressed it (`Content-Encoding: gzip`, the
// model's `@requestCompression`: CloudWatch's PutMetricData), and never inflated past the largest body the
// endpoint's RPC services take — a few KB of gzip can inflate to gigabytes, so zlib stops at the cap
// (`maxOutputLength`) instead of the endpoint running out of memory. Read once per request: every layer that reads
// the body (claims, the authorization step, the handler) gets the same bytes.
import { gunzipSync } from 'node:zlib';
import { LocalAwsError } from './errors';
import type { LocalRequest } from './protocol';

/**
 * The largest body (raw, or inflated) an RPC service of the endpoint reads: PutRecordBatch's 4 MiB of data (Firehose
 * API Reference, PutRecordBatch: "up to a limit of 4 MB for the entire request"), base64-encoded, and the JSON
 * around it. CloudWatch's PutMetricData (1 MB) and every other awsJson, awsQuery and CBOR body fit in it.
 */
export const MAX_RPC_BODY_BYTES = 8 * 1024 * 1024;

/** A body the service cannot read: over the cap (raw or once inflated), or not the gzip its header says. */
export class RequestBodyError extends LocalAwsError {
  override name = 'RequestBodyError';
  constructor(
    readonly problem: 'too-large' | 'not-gzip',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, { ...options, value: problem });
  }
}

export function isGzipped(request: Pick<LocalRequest, 'headers'>): boolean {
  const encoding = String(request.headers['content-encoding'] ?? '').toLowerCase();
  return encoding.split(',').some((e) => e.trim() === 'gzip');
}

const bodies = new WeakMap<object, Buffer | RequestBodyError>();

/** The body, gunzipped when the client compressed it; throws RequestBodyError (remembered: thrown again alike). */
export function rpcBody(request: Pick<LocalRequest, 'headers' | 'body'>, limit = MAX_RPC_BODY_BYTES): Buffer {
  const known = bodies.get(request);
  if (known instanceof RequestBodyError) throw known;
  if (known) return known;
  let outcome: Buffer | RequestBodyError;
  if (request.body.length > limit) outcome = tooLarge(request.body.length, limit);
  else if (!isGzipped(request)) outcome = request.body;
  else {
    try {
      outcome = gunzipSync(request.body, { maxOutputLength: limit });
    } catch (error) {
      outcome =
        (error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE'
          ? tooLarge(undefined, limit)
          : new RequestBodyError(
              'not-gzip',
              `The request body is not valid gzip (${error instanceof Error ? error.message : String(error)}).`,
              { cause: error },
            );
    }
  }
  bodies.set(request, outcome);
  if (outcome instanceof RequestBodyError) throw outcome;
  return outcome;
}

const tooLarge = (size: number | undefined, limit: number) =>
  new RequestBodyError(
    'too-large',
    `The request body is ${size === undefined ? 'over' : `${size} bytes,`} the local endpoint's limit of ${limit} bytes${size === undefined ? ' once gunzipped' : ''}: send less per request.`,
  );
