// The wire layer shared by every service module: the request a module sees, the reply it returns, and how an
// error is written so the AWS SDK raises the same exception class it would raise against AWS.
import type { IncomingHttpHeaders } from 'node:http';
import type { AwsServiceError } from './errors';
import { notSupported, unknownOperation } from './errors';
import type { Caller } from './iam/principals';
import { checkInput, type ServiceApi, type Wire } from './model/api';
import { matchRest, restInput, restRoutes } from './model/rest';
import { firstSegment } from './routes';
import { awsQueryError } from './aws-query';
import { parseJsonText } from './json-body';
import { xmlText } from './xml';

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
  /**
   * awsJson1_0/1_1 or restJson1: all carry the type in `x-amzn-errortype`; awsJson also in `__type`. restXml: S3's
   * error document. awsQuery: STS's error document. icebergRest: the Iceberg REST spec's error model.
   */
  protocol: 'awsJson1_0' | 'awsJson1_1' | 'restJson1' | 'restXml' | 'awsQuery' | 'icebergRest';
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

/** The content type of a JSON body in the service's protocol (application/json where it has none of its own). */
function jsonContentType(style: ErrorStyle): string {
  const p = style.protocol;
  return p === 'awsJson1_0' || p === 'awsJson1_1' ? JSON_CONTENT_TYPE[p] : JSON_CONTENT_TYPE.restJson1;
}

/** One AWS service the endpoint speaks. Adding a service = adding its model file and one module (see server.ts). */
export interface ServiceModule {
  readonly name: string;
  /** The service's model and error conventions: every request is checked against it. */
  readonly api?: ServiceApi;
  /** The model's operations this module serves (the conformance suite and the coverage table read it). */
  readonly served?: readonly string[];
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
  const contentType = jsonContentType(style);
  return {
    status: reply.status,
    headers: { 'content-type': contentType },
    body: reply.json === undefined ? '' : JSON.stringify(reply.json),
  };
}

export function renderError(style: ErrorStyle, error: AwsServiceError): WireResponse {
  if (style.protocol === 'restXml') return renderXmlError(error);
  if (style.protocol === 'awsQuery')
    return renderReply(style, awsQueryError(error.status, error.type, error.message));
  if (style.protocol === 'icebergRest')
    return {
      status: error.status,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ error: { message: error.message, type: error.type, code: error.status } }),
    };
  const contentType = jsonContentType(style);
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

/**
 * One operation's handler: input already checked against the model (typed as the SDK's, on the wire), and the
 * request it came in (its caller, when the endpoint enforces authorization).
 */
export type JsonOperation<I = never> = (input: I, request: LocalRequest) => Promise<unknown>;

/** A handler typed with the SDK's input and output shapes as they are on the wire (void output: an empty body). */
export type WireOperation<I, O> = (
  input: Wire<I>,
  request: LocalRequest,
) => Promise<O extends void ? void : Wire<O>>;

/**
 * An awsJson service (1.1 unless told 1.0): `X-Amz-Target: <targetPrefix>.<Operation>`, JSON body in, JSON body
 * out. The body is checked against the operation's input shape in the service's model before its handler runs.
 * Operations of the model not in `operations` answer UnsupportedOperationException naming the operation and
 * `notServed`'s reason; targets the model does not have answer UnknownOperationException, as AWS does.
 */
export function awsJsonService<Ops extends Record<string, JsonOperation<never>>>(options: {
  name: string;
  api: ServiceApi;
  messageKey: 'message' | 'Message';
  internalErrorCode: string;
  operations: Ops;
  /** Why the local endpoint does not serve an operation of the model (said in the error). */
  notServed: (operation: string) => string;
  close?: () => Promise<void>;
  protocol?: 'awsJson1_0' | 'awsJson1_1';
  queryErrors?: Readonly<Record<string, string>>;
}): ServiceModule {
  const prefix = `${options.api.model.targetPrefix}.`;
  const served = handlers(options.operations);
  return {
    ...serviceFace(options, served),
    errorStyle: {
      protocol: options.protocol ?? 'awsJson1_1',
      messageKey: options.messageKey,
      ...(options.queryErrors ? { queryErrors: options.queryErrors } : {}),
    },
    claims: (request) => targetOf(request)?.startsWith(prefix) ?? false,
    operationOf(request) {
      const operation = (targetOf(request) ?? '').slice(prefix.length);
      return served.has(operation) ? { operation, params: {} } : undefined;
    },
    async handle(request) {
      const operation = (targetOf(request) ?? '').slice(prefix.length);
      const run = served.get(operation);
      if (!run) {
        if (!options.api.model.operations[operation]) throw unknownOperation(options.name, operation);
        throw notSupported(options.name, operation, options.notServed(operation));
      }
      const input = parseJsonBody(request.body, options.api);
      checkInput(options.api, operation, input);
      return { status: 200, json: (await run(input, request)) ?? {} };
    },
    close: options.close,
  };
}

/**
 * A restJson1 service: the operation is found by the model's HTTP bindings (method, URI labels, literal query),
 * its input assembled from labels, query, headers and JSON body and checked against the model, and the handler's
 * output answered with the operation's HTTP code (an empty body for `undefined`). A request that matches no
 * operation of the model answers UnsupportedOperationException naming the method and path.
 */
export function restJsonService<Ops extends { [K in keyof Ops]: JsonOperation<never> }>(options: {
  name: string;
  api: ServiceApi;
  internalErrorCode: string;
  operations: Ops;
  messageKey?: 'message' | 'Message';
}): ServiceModule {
  const routes = restRoutes(options.api.model);
  const roots = new Set(
    routes.map((r) => r.segments[0]).flatMap((s) => (s && 'literal' in s ? [s.literal] : [])),
  );
  const served = handlers(options.operations);
  return {
    ...serviceFace(options, served),
    errorStyle: { protocol: 'restJson1', messageKey: options.messageKey ?? 'message' },
    claims: (request) => !request.headers['x-amz-target'] && roots.has(firstSegment(request.path)),
    operationOf(request) {
      const found = matchRest(routes, request);
      if (!found || !served.has(found.route.operation)) return undefined;
      // The members bound to the URI and query string (a table's ARN may travel in either), by the model's names.
      const bound = restInput(options.api.model, found.route.operation, request, found.labels, () => ({}));
      const params: Record<string, string> = {};
      for (const [name, value] of Object.entries(bound)) if (typeof value === 'string') params[name] = value;
      return { operation: found.route.operation, params };
    },
    async handle(request) {
      const found = matchRest(routes, request);
      if (!found) throw notSupported(options.name, `${request.method} ${request.path}`);
      const operation = found.route.operation;
      const run = served.get(operation);
      if (!run) throw notSupported(options.name, operation);
      const input = restInput(options.api.model, operation, request, found.labels, () =>
        parseJsonBody(request.body, options.api),
      );
      checkInput(options.api, operation, input);
      const output = await run(input, request);
      return { status: found.route.code, json: output ?? (found.route.code === 204 ? undefined : {}) };
    },
  };
}

/** The handlers by operation name (each checked input is passed on as its operation's input type). */
function handlers(operations: object): Map<string, JsonOperation<unknown>> {
  return new Map(Object.entries(operations) as [string, JsonOperation<unknown>][]);
}

function serviceFace(
  options: { name: string; api: ServiceApi; internalErrorCode: string },
  served: Map<string, unknown>,
): Pick<ServiceModule, 'name' | 'api' | 'served' | 'internalErrorCode'> {
  return {
    name: options.name,
    api: options.api,
    served: [...served.keys()],
    internalErrorCode: options.internalErrorCode,
  };
}

function targetOf(request: LocalRequest): string | undefined {
  const target = request.headers['x-amz-target'];
  return Array.isArray(target) ? target[0] : target;
}

/** A JSON request body (empty = `{}`); anything but a JSON object is the service's malformed-request error. */
function parseJsonBody(body: Buffer, api: ServiceApi): Record<string, unknown> {
  return parseJsonObject(body, (problem) =>
    api.malformed(`The request body is not a JSON object (${api.model.sdkId}): ${problem}.`),
  );
}

/** A JSON object body (empty = `{}`), or `bad(what is wrong)` thrown. */
export function parseJsonObject(
  body: Buffer,
  bad: (problem: string) => AwsServiceError,
): Record<string, unknown> {
  if (body.length === 0) return {};
  let parsed: unknown;
  try {
    parsed = parseJsonText(body);
  } catch (error) {
    throw bad(error instanceof Error ? error.message : String(error));
  }
  if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
    return parsed as Record<string, unknown>;
  throw bad(`got ${Array.isArray(parsed) ? 'a list' : typeof parsed}`);
}

/** S3's error document: `<Error><Code>…</Code><Message>…</Message>…</Error>` (HEAD replies carry no body). */
function renderXmlError(error: AwsServiceError): WireResponse {
  const fields = Object.entries(error.fields)
    .map(([key, value]) => `<${key}>${xmlText(String(value))}</${key}>`)
    .join('');
  return {
    status: error.status,
    headers: { 'content-type': 'application/xml', 'x-amz-error-code': error.type },
    body: `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${error.type}</Code><Message>${xmlText(error.message)}</Message>${fields}</Error>`,
  };
}
