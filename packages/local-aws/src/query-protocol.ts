// The awsQuery protocol (`aws.protocols#awsQuery`), which CloudWatch still accepts and the AWS CLI v2 and older
// SDKs (Terraform's AWS provider 5.x) speak: a form-encoded POST with `Action` and `Version`, members flattened into
// keys (`Dimensions.member.1.Name`, `Tags.member.2.Value`, maps as `entry.N.key`/`entry.N.value`), and XML replies —
// `<OpResponse><OpResult>…</OpResult><ResponseMetadata><RequestId>` — with the `ErrorResponse` document for errors
// (Smithy docs, "AWS query protocol"). Both directions are typed by the model's shapes, so a form becomes the same
// JSON-like input a JSON request is (numbers, booleans, lists, maps) and the validator checks it alike.
import type { AwsServiceError } from './errors';
import { writeXml } from './model/xml';
import type { CompactModel, MemberRef } from './model/types';
import type { LocalReply, LocalRequest } from './protocol';
import { RequestBodyError, rpcBody } from './request-body';
import { xmlText } from './xml';

const forms = new WeakMap<object, URLSearchParams | undefined>();

/**
 * The form of an awsQuery request (POST, form-encoded, with an Action), or undefined; read once per request, from
 * the body as the service reads it (request-body.ts: gunzipped when the client compressed it — CloudWatch's
 * PutMetricData, `@requestCompression` — and bounded). A body over the limit throws RequestBodyError (which service
 * it is for cannot be told without reading it); one that is not the gzip it says is no form.
 */
export function queryForm(
  request: Pick<LocalRequest, 'method' | 'headers' | 'body'>,
): URLSearchParams | undefined {
  if (forms.has(request)) return forms.get(request);
  const type = String(request.headers['content-type'] ?? '');
  let form: URLSearchParams | undefined;
  if (request.method === 'POST' && type.startsWith('application/x-www-form-urlencoded')) {
    let body: Buffer | undefined;
    try {
      body = rpcBody(request);
    } catch (error) {
      if (!(error instanceof RequestBodyError) || error.problem === 'too-large') throw error;
    }
    const parsed = body ? new URLSearchParams(body.toString('utf8')) : undefined;
    form = parsed?.has('Action') ? parsed : undefined;
  }
  forms.set(request, form);
  return form;
}

/** The form's members as the operation's input shape binds them. */
export function queryInput(
  model: CompactModel,
  operation: string,
  form: URLSearchParams,
): Record<string, unknown> {
  const input = model.operations[operation]?.input;
  if (!input) return {};
  const keys = [...form.keys()];
  return (readMembers(model, { target: input }, '', form, keys) ?? {}) as Record<string, unknown>;
}

function readMembers(
  model: CompactModel,
  ref: MemberRef,
  prefix: string,
  form: URLSearchParams,
  keys: string[],
): unknown {
  const shape = model.shapes[ref.target];
  const at = (name: string) => (prefix ? `${prefix}.${name}` : name);
  const present = (key: string) => keys.some((k) => k === key || k.startsWith(`${key}.`));
  if (!shape) return form.get(prefix) ?? undefined;
  switch (shape.type) {
    case 'structure':
    case 'union': {
      const out: Record<string, unknown> = {};
      for (const [name, member] of Object.entries(shape.members)) {
        const key = at(member.xmlName ?? name);
        if (!present(key)) continue;
        const value = readMembers(model, member, key, form, keys);
        if (value !== undefined) out[name] = value;
      }
      return out;
    }
    case 'list': {
      // `Name=` (an empty value) is the empty list; otherwise Name.member.1 … (flattened: Name.1 …).
      if (form.get(prefix) === '') return [];
      const base = ref.xmlFlattened ? prefix : `${prefix}.${shape.member.xmlName ?? 'member'}`;
      const items: unknown[] = [];
      for (let index = 1; present(`${base}.${index}`); index++)
        items.push(readMembers(model, shape.member, `${base}.${index}`, form, keys));
      return items;
    }
    case 'map': {
      const out: Record<string, unknown> = {};
      const base = ref.xmlFlattened ? prefix : `${prefix}.entry`;
      for (let index = 1; present(`${base}.${index}`); index++) {
        const key = form.get(`${base}.${index}.${shape.key.xmlName ?? 'key'}`);
        if (key !== null)
          out[key] = readMembers(
            model,
            shape.value,
            `${base}.${index}.${shape.value.xmlName ?? 'value'}`,
            form,
            keys,
          );
      }
      return out;
    }
    default: {
      const text = form.get(prefix);
      if (text === null) return undefined;
      switch (shape.type) {
        case 'boolean':
          return text === 'true' ? true : text === 'false' ? false : text;
        case 'byte':
        case 'short':
        case 'integer':
        case 'long':
        case 'float':
        case 'double':
        case 'intEnum':
          return text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : text;
        default:
          return text;
      }
    }
  }
}

/** `<OpResponse xmlns=…><OpResult>…</OpResult><ResponseMetadata><RequestId>…` typed by the output shape. */
export function queryReply(
  model: CompactModel,
  operation: string,
  output: unknown,
  requestId: string,
): LocalReply {
  const shape = model.operations[operation]?.output;
  const result = shape ? writeXml(model, { target: shape }, output ?? {}, `${operation}Result`) : '';
  const ns = model.xmlNamespace ? ` xmlns="${model.xmlNamespace}"` : '';
  return {
    status: 200,
    requestId,
    raw: {
      headers: { 'content-type': 'text/xml' },
      body:
        `<${operation}Response${ns}>${result}<ResponseMetadata><RequestId>${requestId}</RequestId>` +
        `</ResponseMetadata></${operation}Response>`,
    },
  };
}

/** The awsQuery ErrorResponse document: the error's query code (the model's `@awsQueryError`), Sender or Receiver. */
export function queryError(
  error: AwsServiceError,
  namespace: string | undefined,
  code: string,
  requestId: string,
): { status: number; headers: Record<string, string>; body: string } {
  const fault = error.status >= 500 ? 'Receiver' : 'Sender';
  const ns = namespace ? ` xmlns="${namespace}"` : '';
  return {
    status: error.status,
    headers: { 'content-type': 'text/xml' },
    body:
      `<ErrorResponse${ns}><Error><Type>${fault}</Type><Code>${xmlText(code)}</Code>` +
      `<Message>${xmlText(error.message)}</Message></Error><RequestId>${requestId}</RequestId></ErrorResponse>`,
  };
}
