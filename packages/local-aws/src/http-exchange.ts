// The endpoint's HTTP side: one server on 127.0.0.1, each request's body read (an RPC body capped as it arrives),
// its target split as sent, handed to the dispatch (dispatch.ts), and the reply written with one request id in every
// SDK's header.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { LOCAL_KEEP_ALIVE_MS } from './client-config';
import { LocalEndpointConfigError } from './errors';
import { tooLarge } from './model/wire-errors';
import { renderError, type ErrorStyle, type LocalRequest, type WireResponse } from './protocol';
import { MAX_RPC_BODY_BYTES, RequestBodyError } from './request-body';

/** awsQuery's error style (STS's error document), for a form refused before any service claims it. */
export const QUERY_STYLE: ErrorStyle = { protocol: 'awsQuery', messageKey: 'Message' };

/**
 * A server answering through `dispatch`, listening on 127.0.0.1:`port` (0: any free port) once this resolves; a
 * port in use is LocalEndpointConfigError naming it.
 */
export async function listenOnLoopback(
  port: number,
  dispatch: (request: LocalRequest) => Promise<WireResponse>,
): Promise<{ server: Server; port: number }> {
  const server = createServer((req, res) => void serve(req, res, dispatch));
  server.keepAliveTimeout = LOCAL_KEEP_ALIVE_MS;
  await new Promise<void>((resolvePromise, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new LocalEndpointConfigError(
              `Port ${port} on 127.0.0.1 is already in use: stop the other process or pass --port <another port>.`,
              { value: port, cause: error },
            )
          : error,
      ),
    );
    server.listen(port, '127.0.0.1', () => resolvePromise());
  });
  return { server, port: (server.address() as AddressInfo).port };
}

async function serve(
  req: IncomingMessage,
  res: ServerResponse,
  dispatch: (request: LocalRequest) => Promise<WireResponse>,
): Promise<void> {
  try {
    // An RPC request's body is capped as it is read (S3's objects are not: a PutObject may be large).
    const rpc = rpcStyleOf(req);
    let body: Buffer;
    try {
      body = await readBody(req, rpc ? MAX_RPC_BODY_BYTES : undefined);
    } catch (error) {
      if (!(error instanceof RequestBodyError) || !rpc) throw error;
      const refused = renderError(rpc, tooLarge(undefined, error.message, error));
      // The rest of the body is discarded as it arrives (Node drains a request its handler did not read).
      res.writeHead(refused.status, refused.headers);
      res.end(refused.body);
      return;
    }
    const { path, query, rawQuery } = splitTarget(req.url ?? '/');
    const response = await dispatch({
      method: req.method ?? 'GET',
      path,
      query,
      rawQuery,
      headers: req.headers,
      body,
    });
    // One request id, in every SDK's header (S3 reads x-amz-request-id) and, where the protocol writes one, the body.
    const requestId = response.requestId ?? cryptoRandomId();
    res.writeHead(response.status, {
      ...response.headers,
      'x-amzn-requestid': requestId,
      'x-amz-request-id': requestId,
    });
    res.end(response.body);
  } catch (error) {
    res.writeHead(500, { 'content-type': 'application/json', 'x-amzn-errortype': 'InternalFailure' });
    res.end(JSON.stringify({ message: `Internal error in the local endpoint: ${(error as Error).message}` }));
  }
}

/**
 * The request target's path exactly as sent (no dot-segment removal: `/bucket/p/../x` names the key `p/../x`, as S3
 * takes it) and its query string.
 */
export function splitTarget(target: string): { path: string; query: URLSearchParams; rawQuery: string } {
  const cut = target.indexOf('?');
  const raw = cut < 0 ? target : target.slice(0, cut);
  const path = raw.startsWith('/') ? raw : `/${raw}`;
  const rawQuery = cut < 0 ? '' : target.slice(cut + 1);
  return { path, query: new URLSearchParams(rawQuery), rawQuery };
}

/**
 * The protocol of a request that speaks an RPC protocol, told from its headers as the services' claims() tell it:
 * rpcv2Cbor's `smithy-protocol`, awsJson's `X-Amz-Target`, awsQuery's form POST. Undefined for REST requests.
 */
function rpcStyleOf(req: IncomingMessage): ErrorStyle | undefined {
  const type = String(req.headers['content-type'] ?? '');
  if (String(req.headers['smithy-protocol'] ?? '').toLowerCase() === 'rpc-v2-cbor')
    return { protocol: 'rpcv2Cbor', messageKey: 'message' };
  if (req.headers['x-amz-target'] !== undefined)
    return { protocol: type.includes('x-amz-json-1.0') ? 'awsJson1_0' : 'awsJson1_1', messageKey: 'message' };
  if (req.method === 'POST' && type.startsWith('application/x-www-form-urlencoded')) return QUERY_STYLE;
  return undefined;
}

/**
 * The request body; with a Content-Length, read into one buffer of that size (no list of chunks to join). Past
 * `limit` bytes (declared or received) nothing more is kept: RequestBodyError.
 */
function readBody(req: IncomingMessage, limit?: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  const over = () =>
    new RequestBodyError(
      'too-large',
      `The request body is over the local endpoint's limit of ${limit} bytes: send less per request.`,
    );
  if (limit !== undefined && Number.isSafeInteger(declared) && declared > limit)
    return Promise.reject(over());
  const preallocated =
    Number.isSafeInteger(declared) && declared > 0 && declared <= MAX_PREALLOCATED_BODY
      ? Buffer.allocUnsafe(declared)
      : undefined;
  return new Promise((resolve, reject) => {
    let length = 0;
    const chunks: Buffer[] = [];
    let received = 0;
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (limit !== undefined && received > limit) {
        req.off('data', onData);
        chunks.length = 0;
        reject(over());
        return;
      }
      if (preallocated && chunks.length === 0 && length + chunk.length <= preallocated.length) {
        preallocated.set(chunk, length);
        length += chunk.length;
      } else chunks.push(chunk);
    };
    req.on('data', onData);
    req.on('error', reject);
    req.on('end', () => {
      // A body that disagrees with its Content-Length is passed on as received; the service judges it.
      const head = preallocated ? [preallocated.subarray(0, length)] : [];
      resolve(
        chunks.length === 0 && preallocated
          ? preallocated.subarray(0, length)
          : Buffer.concat([...head, ...chunks]),
      );
    });
  });
}

/** Largest body read into one preallocated buffer (the RPC services' largest: request-body.ts). */
const MAX_PREALLOCATED_BODY = MAX_RPC_BODY_BYTES;

function cryptoRandomId(): string {
  return globalThis.crypto.randomUUID();
}
