// The wire layer shared by every service module: the request a module sees, the reply it returns, and how an
// error is written so the AWS SDK raises the same exception class it would raise against AWS.
import type { IncomingHttpHeaders } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { AwsServiceError } from './errors';
import type { Caller } from './iam/principals';
import { checkInput, type ServiceApi, type Wire } from './model/api';
import { matchRest, restInput, restRoutes } from './model/rest';
import { firstSegment } from './routes';
import { cborError, cborInput, cborReply, cborTarget } from './cbor-protocol';
import { queryError, queryForm, queryInput, queryReply } from './query-protocol';
import { STS_NAMESPACE } from './aws-query';
import { parseJsonText } from './json-body';
import { badPercentEscape } from './percent-encoding';
import { RequestBodyError, rpcBody } from './request-body';
import { xmlText } from './xml';
import { icebergRestErrorBody } from './iceberg-rest/errors';
import { notSupported, tooLarge, unknownOperation, wireError } from './model/wire-errors';

export interface LocalRequest {
  method: string;
  /** Decoded path segments are left to the module: `path` is the raw (still percent-encoded) path. */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** The query string as sent (still percent-encoded): `query` is its lenient decoding. */
  rawQuery?: string;
  /** Who signed it, when the endpoint enforces authorization (authz/request-authorizer.ts sets it). */
  caller?: Caller;
}

export interface LocalReply {
  status: number;
  /** Serialised as JSON; undefined = empty body. */
  json?: unknown;
  /** A non-JSON reply (S3's XML and object bodies): sent as is, with these headers. */
  raw?: { headers: Record<string, string>; body: string | Buffer };
  /** The request id the reply's body carries (awsQuery, S3 errors): the server answers it in the headers too. */
  requestId?: string;
}

export type ErrorStyle = {
  /**
   * awsJson1_0/1_1 or restJson1: all carry the type in `x-amzn-errortype`; awsJson also in `__type`. restXml: S3's
   * error document. awsQuery: STS's error document. icebergRest: the Iceberg REST spec's error model.
   */
  protocol: 'awsJson1_0' | 'awsJson1_1' | 'restJson1' | 'restXml' | 'awsQuery' | 'rpcv2Cbor' | 'icebergRest';
  /** Member name of the message in the service's exception shapes (`message` or `Message`). */
  messageKey: 'message' | 'Message';
  /**
   * A JSON service that kept its awsQuery error codes (the model's `@awsQueryCompatible`, e.g. CloudWatch): each
   * exception's query code and fault, answered in `x-amzn-query-error: <Code>;<Sender|Receiver>` as AWS does, which
   * the SDK reads into the error's `Code` and `Type`.
   */
  queryErrors?: Readonly<Record<string, string>>;
  /** awsQuery: the namespace of the service's XML documents (STS's when absent). */
  xmlNamespace?: string;
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

/** One AWS service the endpoint speaks. Adding a service = adding its model file and one module (see endpoint-services.ts). */
export interface ServiceModule {
  readonly name: string;
  /** The service's model and error conventions: every request is checked against it. */
  readonly api?: ServiceApi;
  /** The model's operations this module serves (the conformance suite and the coverage table read it). */
  readonly served?: readonly string[];
  readonly errorStyle: ErrorStyle;
  /** A service spoken in more than one protocol (CloudWatch): the error style of the one this request speaks. */
  errorStyleFor?(request: LocalRequest): ErrorStyle;
  /** The service's own error code for an unexpected failure (answered with status 500). */
  readonly internalErrorCode: string;
  claims(request: LocalRequest): boolean;
  /**
   * The request as the service reads it — the operation, its path labels and its input — read once: the
   * authorization step maps exactly this to IAM actions, and handle() serves exactly this (the same object), so the
   * two can never read one request two ways. Undefined for an operation the module does not serve (its handle()
   * answers that); throws the service's error for a request it cannot read (a body that is not its protocol's).
   */
  operationOf?(request: LocalRequest): OperationReading | undefined;
  handle(request: LocalRequest): Promise<LocalReply>;
  /** Called on stop, before the engine closes (e.g. Firehose flushes its buffers). */
  close?(): Promise<void>;
}

/**
 * The module answering errors in another of its protocols' styles (CloudWatch's JSON or query): a view that calls
 * the module's own members, so a module written as a class keeps its methods and `this` (a spread copy would keep
 * own properties only).
 */
export function speakingIn(service: ServiceModule, errorStyle: ErrorStyle): ServiceModule {
  if (errorStyle === service.errorStyle) return service;
  const operationOf = service.operationOf;
  return {
    name: service.name,
    api: service.api,
    served: service.served,
    errorStyle,
    internalErrorCode: service.internalErrorCode,
    claims: (request) => service.claims(request),
    ...(operationOf ? { operationOf: (request: LocalRequest) => operationOf.call(service, request) } : {}),
    handle: (request) => service.handle(request),
  };
}

/** What a service reads a request as (ServiceModule.operationOf). */
export interface OperationReading {
  readonly operation: string;
  /** Path labels and other strings naming the resource (S3's bucket and key, S3 Tables' ARNs). */
  readonly params: Readonly<Record<string, string>>;
  /** The operation's input as the handler gets it (checked against the model before the handler runs). */
  readonly input: Readonly<Record<string, unknown>>;
}

/**
 * One reading per request, remembered — a request the service cannot read is remembered too, and refused alike by
 * every layer that asks.
 */
export function readOnce<T>(
  cache: WeakMap<object, { value: T } | { error: unknown }>,
  request: object,
  read: () => T,
): T {
  let known = cache.get(request);
  if (!known) {
    try {
      known = { value: read() };
    } catch (error) {
      known = { error };
    }
    cache.set(request, known);
  }
  if ('error' in known) throw known.error;
  return known.value;
}

export interface WireResponse {
  status: number;
  headers: Record<string, string>;
  body: string | Buffer;
  /** The request id written in the body, when there is one (the server's header then says the same). */
  requestId?: string;
}

export function renderReply(style: ErrorStyle, reply: LocalReply): WireResponse {
  if (reply.raw)
    return {
      status: reply.status,
      headers: reply.raw.headers,
      body: reply.raw.body,
      ...(reply.requestId ? { requestId: reply.requestId } : {}),
    };
  const contentType = jsonContentType(style);
  return {
    status: reply.status,
    headers: { 'content-type': contentType },
    body: reply.json === undefined ? '' : JSON.stringify(reply.json),
  };
}

export function renderError(style: ErrorStyle, error: AwsServiceError): WireResponse {
  if (style.protocol === 'restXml') return renderXmlError(error);
  if (style.protocol === 'awsQuery') {
    const requestId = randomUUID();
    const code = style.queryErrors?.[error.type]?.split(';')[0] ?? error.type;
    return { ...queryError(error, style.xmlNamespace ?? STS_NAMESPACE, code, requestId), requestId };
  }
  if (style.protocol === 'rpcv2Cbor') return cborError(error, style.queryErrors?.[error.type]);
  if (style.protocol === 'icebergRest')
    return {
      status: error.status,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(icebergRestErrorBody(error)),
    };
  const contentType = jsonContentType(style);
  const body: Record<string, unknown> = { [style.messageKey]: error.message, ...error.fields };
  if (style.protocol !== 'restJson1') body.__type = error.type;
  const compatible = style.queryErrors?.[error.type];
  return {
    status: error.status,
    headers: {
      'content-type': contentType,
      'x-amzn-errortype': error.type,
      ...(compatible ? { 'x-amzn-query-error': compatible } : {}),
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
 * A model that also lists awsQuery or rpcv2Cbor (CloudWatch) is served in those too, by the same handlers: the
 * request is read into the same input and the reply written in the protocol it came in (query-protocol.ts,
 * cbor-protocol.ts), errors included.
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
}): ServiceModule {
  const { model } = options.api;
  const prefix = `${model.targetPrefix}.`;
  const served = handlers(options.operations);
  const protocols = new Set(model.protocols ?? [model.protocol]);
  const queryErrors = queryErrorsOf(options.api);
  const jsonStyle: ErrorStyle = {
    protocol: options.protocol ?? 'awsJson1_1',
    messageKey: options.messageKey,
    ...(queryErrors ? { queryErrors } : {}),
  };
  const styles = {
    json: jsonStyle,
    query: {
      protocol: 'awsQuery',
      messageKey: options.messageKey,
      ...(queryErrors ? { queryErrors } : {}),
      ...(model.xmlNamespace ? { xmlNamespace: model.xmlNamespace } : {}),
    },
    cbor: { protocol: 'rpcv2Cbor', messageKey: options.messageKey, ...(queryErrors ? { queryErrors } : {}) },
  } satisfies Record<string, ErrorStyle>;

  /** The protocol and operation of a request this service claims, or undefined. */
  const callOf = (request: LocalRequest): { via: keyof typeof styles; operation: string } | undefined => {
    const target = targetOf(request);
    if (target !== undefined)
      return target.startsWith(prefix) ? { via: 'json', operation: target.slice(prefix.length) } : undefined;
    if (protocols.has('rpcv2Cbor')) {
      const cbor = cborTarget(request);
      if (cbor?.service === model.targetPrefix) return { via: 'cbor', operation: cbor.operation };
    }
    if (protocols.has('awsQuery')) {
      const form = queryForm(request);
      // The Version names the API (CloudWatch's 2010-08-01; IAM's, SNS's and STS's differ).
      if (form && form.get('Version') === model.version)
        return { via: 'query', operation: form.get('Action') ?? '' };
    }
    return undefined;
  };

  /** The request's input, read once for the authorization step and the handler alike. */
  const inputs = new WeakMap<object, { value: Record<string, unknown> } | { error: unknown }>();
  const inputOf = (request: LocalRequest, via: keyof typeof styles, operation: string) =>
    readOnce(inputs, request, () => {
      const input =
        via === 'query'
          ? queryInput(model, operation, formOf(request, options.api))
          : via === 'cbor'
            ? cborBody(bodyOf(request, options.api), options.api)
            : parseJsonBody(bodyOf(request, options.api), options.api);
      return input;
    });

  return {
    ...serviceFace(options, served),
    errorStyle: jsonStyle,
    errorStyleFor: (request) => styles[callOf(request)?.via ?? 'json'],
    claims: (request) => callOf(request) !== undefined,
    operationOf(request) {
      const call = callOf(request);
      if (!call || !served.has(call.operation)) return undefined;
      return { operation: call.operation, params: {}, input: inputOf(request, call.via, call.operation) };
    },
    async handle(request) {
      const call = callOf(request) ?? { via: 'json' as const, operation: '' };
      const { operation } = call;
      const run = served.get(operation);
      if (!run) {
        if (!model.operations[operation]) {
          if (call.via === 'query')
            throw wireError(
              undefined,
              'InvalidAction',
              `The action ${operation} is not valid for this web service (${model.sdkId} ${model.version}).`,
            );
          throw unknownOperation(options.name, operation);
        }
        throw notSupported(options.name, operation, options.notServed(operation));
      }
      const input = inputOf(request, call.via, operation);
      // Checked against the model after the authorization step, as it was read for it (the same object).
      checkInput(options.api, operation, input);
      const output = (await run(input, request)) ?? {};
      if (call.via === 'query') return queryReply(model, operation, output, randomUUID());
      if (call.via === 'cbor') return cborReply(model, operation, output);
      return { status: 200, json: output };
    },
    close: options.close,
  };
}

/**
 * The awsQuery code and fault of each exception of a query-compatible service (the model's `@awsQueryError`;
 * others keep their name), answered in `x-amzn-query-error: <Code>;<Sender|Receiver>` as AWS does, which the SDK
 * reads into the error's `Code` and `Type`. Undefined for a service that is not query-compatible.
 */
function queryErrorsOf(api: ServiceApi): Record<string, string> | undefined {
  const { model } = api;
  if (!model.protocols?.includes('awsQuery') || model.protocol === 'awsQuery') return undefined;
  const codes: Record<string, string> = {};
  for (const [name, shape] of Object.entries(model.shapes)) {
    if (shape.type !== 'structure' || !shape.error) continue;
    const code = shape.queryError?.code ?? name;
    codes[name] = `${code};${shape.error === 'server' ? 'Receiver' : 'Sender'}`;
  }
  // The local validation errors are not modeled shapes; their code is their name.
  for (const type of [api.invalid('').type, api.malformed('').type]) codes[type] ??= `${type};Sender`;
  return codes;
}

/** The body as the service reads it (gunzipped, bounded: request-body.ts), or the service's error. */
function bodyOf(request: LocalRequest, api: ServiceApi): Buffer {
  try {
    return rpcBody(request);
  } catch (error) {
    throw error instanceof RequestBodyError ? bodyError(error, api) : error;
  }
}

/**
 * A body the service cannot read, in its own error: malformed (400) for one that is not gzip, and the same error
 * class with HTTP 413 Content Too Large (RFC 9110 §15.5.14) for one over the endpoint's limit.
 */
export function bodyError(error: RequestBodyError, api: ServiceApi): AwsServiceError {
  const answer = api.malformed(error.message);
  return error.problem === 'too-large' ? tooLarge(answer, error.message, error) : answer;
}

/** An awsQuery form, every escape in it valid percent-encoding (a bad one is the service's malformed error). */
function formOf(request: LocalRequest, api: ServiceApi): URLSearchParams {
  const form = queryForm(request);
  if (!form) throw api.malformed('The request body is not an awsQuery form.');
  const bad = badPercentEscape(bodyOf(request, api).toString('utf8'));
  if (bad !== undefined)
    throw api.malformed(
      `The request body is not valid percent-encoding: ${JSON.stringify(bad)} is no escape of UTF-8 text (encode "%" as %25).`,
    );
  return form;
}

function cborBody(body: Buffer, api: ServiceApi): Record<string, unknown> {
  const decoded = cborInput(body);
  if ('problem' in decoded)
    throw api.malformed(`The request body is not valid (${api.model.sdkId}): ${decoded.problem}.`);
  return decoded.input;
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
  /** Each request read once, for the authorization step and the handler alike. */
  const readings = new WeakMap<object, { value: OperationReading & { code: number } } | { error: unknown }>();
  const read = (request: LocalRequest) => {
    const found = matchRest(routes, request);
    if (!found || !served.has(found.route.operation)) return undefined;
    return readOnce(readings, request, () => {
      const operation = found.route.operation;
      const input = restInput(options.api.model, operation, request, found.labels, () =>
        parseJsonBody(request.body, options.api),
      );
      // The members bound to the URI, query string and headers (a table's ARN may travel in either), by name.
      const params: Record<string, string> = {};
      for (const name of boundMembers(options.api, operation)) {
        const value = input[name];
        if (typeof value === 'string') params[name] = value;
      }
      return { operation, params, input, code: found.route.code };
    });
  };
  return {
    ...serviceFace(options, served),
    errorStyle: { protocol: 'restJson1', messageKey: options.messageKey ?? 'message' },
    claims: (request) => !request.headers['x-amz-target'] && roots.has(firstSegment(request.path)),
    operationOf: read,
    async handle(request) {
      const found = matchRest(routes, request);
      if (!found) throw notSupported(options.name, `${request.method} ${request.path}`);
      const reading = read(request);
      const run = reading && served.get(reading.operation);
      if (!reading || !run) throw notSupported(options.name, found.route.operation);
      checkInput(options.api, reading.operation, reading.input);
      const output = await run(reading.input as never, request);
      return { status: reading.code, json: output ?? (reading.code === 204 ? undefined : {}) };
    },
  };
}

/** The input members of an operation bound to its URI, query string or headers (not its body). */
function boundMembers(api: ServiceApi, operation: string): string[] {
  const input = api.model.operations[operation]?.input;
  const shape = input ? api.model.shapes[input] : undefined;
  if (!shape || shape.type !== 'structure') return [];
  return Object.entries(shape.members)
    .filter(([, m]) => m.httpLabel || m.httpQuery !== undefined || m.httpHeader !== undefined)
    .map(([name]) => name);
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

/**
 * S3's error document: `<Error><Code>…</Code><Message>…</Message>…<RequestId>…</RequestId></Error>` (HEAD replies
 * carry no body; the request id is the one in the response's headers).
 */
function renderXmlError(error: AwsServiceError): WireResponse {
  const requestId = randomUUID();
  const fields = Object.entries(error.fields)
    .map(([key, value]) => `<${key}>${xmlText(String(value))}</${key}>`)
    .join('');
  return {
    status: error.status,
    headers: { 'content-type': 'application/xml', 'x-amz-error-code': error.type },
    body: `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${error.type}</Code><Message>${xmlText(error.message)}</Message>${fields}<RequestId>${requestId}</RequestId></Error>`,
    requestId,
  };
}
