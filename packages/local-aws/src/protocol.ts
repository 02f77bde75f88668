// The wire layer shared by every service module: the request a module sees, the reply it returns, and how an
// error is written so the AWS SDK raises the same exception class it would raise against AWS.
import type { IncomingHttpHeaders } from 'node:http';
import { AwsServiceError, notSupported } from './errors';
import { parseJsonText } from './json-body';

export interface LocalRequest {
  method: string;
  /** Decoded path segments are left to the module: `path` is the raw (still percent-encoded) path. */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface LocalReply {
  status: number;
  /** Serialised as JSON; undefined = empty body. */
  json?: unknown;
  /** A non-JSON reply (S3's XML and object bodies): sent as is, with these headers. */
  raw?: { headers: Record<string, string>; body: string | Buffer };
}

export type ErrorStyle = {
  /** awsJson1_0/1_1 or restJson1: all carry the type in `x-amzn-errortype`; awsJson also in `__type`. */
  protocol: 'awsJson1_0' | 'awsJson1_1' | 'restJson1' | 'restXml';
  /** Member name of the message in the service's exception shapes (`message` or `Message`). */
  messageKey: 'message' | 'Message';
  /**
   * A JSON service that kept its awsQuery error codes (the model's `@awsQueryCompatible`, e.g. CloudWatch): each
   * exception's query code and fault, answered in `x-amzn-query-error: <Code>;<Sender|Receiver>` as AWS does, which
   * the SDK reads into the error's `Code` and `Type`.
   */
  queryErrors?: Readonly<Record<string, string>>;
};

const JSON_CONTENT_TYPE = {
  awsJson1_0: 'application/x-amz-json-1.0',
  awsJson1_1: 'application/x-amz-json-1.1',
  restJson1: 'application/json',
} as const;

/** One AWS service the endpoint speaks. Adding a service = adding one module (see router.ts). */
export interface ServiceModule {
  readonly name: string;
  readonly errorStyle: ErrorStyle;
  /** The service's own error code for an unexpected failure (answered with status 500). */
  readonly internalErrorCode: string;
  claims(request: LocalRequest): boolean;
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
  const contentType = JSON_CONTENT_TYPE[style.protocol === 'restXml' ? 'restJson1' : style.protocol];
  return {
    status: reply.status,
    headers: { 'content-type': contentType },
    body: reply.json === undefined ? '' : JSON.stringify(reply.json),
  };
}

export function renderError(style: ErrorStyle, error: AwsServiceError): WireResponse {
  if (style.protocol === 'restXml') return renderXmlError(error);
  const contentType = JSON_CONTENT_TYPE[style.protocol];
  const body: Record<string, unknown> = { [style.messageKey]: error.message, ...error.fields };
  if (style.protocol !== 'restJson1') body.__type = error.type;
  const queryError = style.queryErrors?.[error.type];
  return {
    status: error.status,
    headers: {
      'content-type': contentType,
      'x-amzn-errortype': error.type,
      ...(queryError ? { 'x-amzn-query-error': queryError } : {}),
    },
    body: JSON.stringify(body),
  };
}

export type JsonOperation = (input: Record<string, unknown>) => Promise<unknown>;

/**
 * An awsJson service (1.1 unless told 1.0): `X-Amz-Target: <targetPrefix>.<Operation>`, JSON body in, JSON body
 * out. Operations not in `operations` answer UnsupportedOperationException naming the operation.
 */
export function awsJsonService(options: {
  name: string;
  targetPrefix: string;
  messageKey: 'message' | 'Message';
  internalErrorCode: string;
  operations: Record<string, JsonOperation>;
  close?: () => Promise<void>;
  protocol?: 'awsJson1_0' | 'awsJson1_1';
  queryErrors?: Readonly<Record<string, string>>;
}): ServiceModule {
  const prefix = `${options.targetPrefix}.`;
  return {
    name: options.name,
    errorStyle: {
      protocol: options.protocol ?? 'awsJson1_1',
      messageKey: options.messageKey,
      ...(options.queryErrors ? { queryErrors: options.queryErrors } : {}),
    },
    internalErrorCode: options.internalErrorCode,
    claims: (request) => targetOf(request)?.startsWith(prefix) ?? false,
    async handle(request) {
      const operation = (targetOf(request) ?? '').slice(prefix.length);
      const run = options.operations[operation];
      if (!run) throw notSupported(options.name, operation);
      const input = parseJsonBody(request.body, options.name);
      return { status: 200, json: (await run(input)) ?? {} };
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
