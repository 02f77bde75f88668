// The wire layer shared by every service module: the request a module sees, the reply it returns, and how an
// error is written so the AWS SDK raises the same exception class it would raise against AWS.
import type { IncomingHttpHeaders } from 'node:http';
import { AwsServiceError, notSupported } from './errors';
import type { Caller } from './iam/principals';
import { parseJsonText } from './json-body';

export interface LocalRequest {
  method: string;
  /** Decoded path segments are left to the module: `path` is the raw (still percent-encoded) path. */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** Who signed it, when the endpoint enforces authorization (authz/request-authorizer.ts sets it). */
  caller?: Caller;
}

export interface LocalReply {
  status: number;
  /** Serialised as JSON; undefined = empty body. */
  json?: unknown;
  /** A non-JSON reply (S3's XML and object bodies): sent as is, with these headers. */
  raw?: { headers: Record<string, string>; body: string | Buffer };
}

export type ErrorStyle = {
  /** awsJson1_1 or restJson1: both carry the type in `x-amzn-errortype`; awsJson also in `__type`. */
  protocol: 'awsJson1_1' | 'restJson1' | 'restXml';
  /** Member name of the message in the service's exception shapes (`message` or `Message`). */
  messageKey: 'message' | 'Message';
};

/** One AWS service the endpoint speaks. Adding a service = adding one module (see router.ts). */
export interface ServiceModule {
  readonly name: string;
  readonly errorStyle: ErrorStyle;
  /** The service's own error code for an unexpected failure (answered with status 500). */
  readonly internalErrorCode: string;
  claims(request: LocalRequest): boolean;
  /** The operation a request calls and its path labels (the authorization step maps it to IAM actions). */
  operationOf?(request: LocalRequest): { operation: string; params: Record<string, string> } | undefined;
  handle(request: LocalRequest): Promise<LocalReply>;
  /** Called on stop, before the engine closes (e.g. Firehose flushes its buffers). */
  close?(): Promise<void>;
}

export interface WireResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export function renderReply(style: ErrorStyle, reply: LocalReply): WireResponse {
  if (reply.raw) return { status: reply.status, headers: reply.raw.headers, body: reply.raw.body as string };
  const contentType = style.protocol === 'awsJson1_1' ? 'application/x-amz-json-1.1' : 'application/json';
  return {
    status: reply.status,
    headers: { 'content-type': contentType },
    body: reply.json === undefined ? '' : JSON.stringify(reply.json),
  };
}

export function renderError(style: ErrorStyle, error: AwsServiceError): WireResponse {
  if (style.protocol === 'restXml') return renderXmlError(error);
  const contentType = style.protocol === 'awsJson1_1' ? 'application/x-amz-json-1.1' : 'application/json';
  const body: Record<string, unknown> = { [style.messageKey]: error.message, ...error.fields };
  if (style.protocol === 'awsJson1_1') body.__type = error.type;
  return {
    status: error.status,
    headers: { 'content-type': contentType, 'x-amzn-errortype': error.type },
    body: JSON.stringify(body),
  };
}

export type JsonOperation = (input: Record<string, unknown>, request: LocalRequest) => Promise<unknown>;

/**
 * An awsJson1_1 service: `X-Amz-Target: <targetPrefix>.<Operation>`, JSON body in, JSON body out.
 * Operations not in `operations` answer UnsupportedOperationException naming the operation.
 */
export function awsJsonService(options: {
  name: string;
  targetPrefix: string;
  messageKey: 'message' | 'Message';
  internalErrorCode: string;
  operations: Record<string, JsonOperation>;
  close?: () => Promise<void>;
}): ServiceModule {
  const prefix = `${options.targetPrefix}.`;
  return {
    name: options.name,
    errorStyle: { protocol: 'awsJson1_1', messageKey: options.messageKey },
    internalErrorCode: options.internalErrorCode,
    claims: (request) => targetOf(request)?.startsWith(prefix) ?? false,
    operationOf(request) {
      const operation = (targetOf(request) ?? '').slice(prefix.length);
      return operation in options.operations ? { operation, params: {} } : undefined;
    },
    async handle(request) {
      const operation = (targetOf(request) ?? '').slice(prefix.length);
      const run = options.operations[operation];
      if (!run) throw notSupported(options.name, operation);
      const input = parseJsonBody(request.body, options.name);
      return { status: 200, json: (await run(input, request)) ?? {} };
    },
    close: options.close,
  };
}

function targetOf(request: LocalRequest): string | undefined {
  const target = request.headers['x-amz-target'];
  return Array.isArray(target) ? target[0] : target;
}

export function parseJsonBody(body: Buffer, service: string): Record<string, unknown> {
  if (body.length === 0) return {};
  const parsed = parseJsonText(body);
  if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
    return parsed as Record<string, unknown>;
  throw new AwsServiceError(
    'SerializationException',
    400,
    `${service}: the request body is not a JSON object.`,
  );
}

/** S3's error document: `<Error><Code>…</Code><Message>…</Message>…</Error>` (HEAD replies carry no body). */
function renderXmlError(error: AwsServiceError): WireResponse {
  const esc = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const fields = Object.entries(error.fields)
    .map(([key, value]) => `<${key}>${esc(String(value))}</${key}>`)
    .join('');
  return {
    status: error.status,
    headers: { 'content-type': 'application/xml', 'x-amz-error-code': error.type },
    body: `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${error.type}</Code><Message>${esc(error.message)}</Message>${fields}</Error>`,
  };
}
