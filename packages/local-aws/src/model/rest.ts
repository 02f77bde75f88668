// The HTTP bindings of restJson1 / restXml operations, read from the model: which operation a request is
// (method, URI pattern with labels and greedy labels, literal query parameters), and its input assembled from
// the labels, query string, headers and body as the model binds each member.
import type { LocalRequest } from '../protocol';
import type { CompactModel, MemberRef } from './types';

type Segment = { literal: string } | { label: string; greedy: boolean };

export interface RestRoute {
  operation: string;
  method: string;
  segments: Segment[];
  /** Literal query parameters of the URI (`?list-type=2`, `?delete`): a request must carry them. */
  query: [string, string | undefined][];
  /** The URI's `x-id` (S3): a request that sends one must send this one. */
  xId?: string;
  /**
   * Required query parameters and headers of the input that tell the operation from another on the same URI
   * (S3's `uploadId` and `partNumber` make `PUT /{Bucket}/{Key+}` UploadPart, `x-amz-copy-source` CopyObject):
   * a request must carry them. Known for operations whose input shapes the compact model keeps.
   */
  discriminators: { query: string[]; headers: string[] };
  code: number;
}

/** The required query parameters and headers of an operation's input (see RestRoute.discriminators). */
export function operationDiscriminators(
  model: CompactModel,
  operation: string,
): { query: string[]; headers: string[] } {
  const input = model.operations[operation]?.input;
  const shape = input ? model.shapes[input] : undefined;
  const out = { query: [] as string[], headers: [] as string[] };
  if (!shape || shape.type !== 'structure') return out;
  for (const member of Object.values(shape.members)) {
    if (!member.required) continue;
    if (member.httpQuery !== undefined) out.query.push(member.httpQuery);
    else if (member.httpHeader !== undefined) out.headers.push(member.httpHeader.toLowerCase());
  }
  return out;
}

/**
 * The model's operations as routes in the order they are tried: most specific first (more literal segments, then more
 * literal query); among routes equally specific, the preferred ones first (S3: the served ones, so a PUT object
 * without `x-id` is PutObject, not CopyObject). Ordered once per service, not per request.
 */
export function restRoutes(
  model: CompactModel,
  preferred: (operation: string) => boolean = () => true,
): RestRoute[] {
  const routes: RestRoute[] = [];
  for (const [operation, spec] of Object.entries(model.operations)) {
    if (!spec.http) continue;
    const [path = '', search = ''] = spec.http.uri.split('?');
    const segments: Segment[] = path
      .split('/')
      .filter(Boolean)
      .map((part) => {
        const label = /^\{([^}]+?)(\+)?\}$/.exec(part);
        return label ? { label: label[1] as string, greedy: label[2] === '+' } : { literal: part };
      });
    // `x-id=<Operation>` (S3) names the operation for clients that send it; it is not part of the match.
    const query = search
      .split('&')
      .filter((pair) => pair && !pair.startsWith('x-id='))
      .map((pair): [string, string | undefined] => {
        const [key = '', value] = pair.split('=');
        return [key, value];
      });
    const xId = /(?:^|&)x-id=([^&]+)/.exec(search)?.[1];
    routes.push({
      operation,
      method: spec.http.method,
      segments,
      query,
      ...(xId ? { xId } : {}),
      discriminators: operationDiscriminators(model, operation),
      code: spec.http.code,
    });
  }
  // Discriminators matter only between operations on the same method and URI template; elsewhere a missing
  // required member reaches its operation and is refused by the validator, naming it.
  const template = (r: RestRoute) =>
    `${r.method} ${r.segments.map((s) => ('literal' in s ? s.literal : s.greedy ? '{+}' : '{}')).join('/')}`;
  const sharing = new Map<string, number>();
  for (const r of routes) sharing.set(template(r), (sharing.get(template(r)) ?? 0) + 1);
  for (const r of routes) if (sharing.get(template(r)) === 1) r.discriminators = { query: [], headers: [] };
  return routes.sort(
    (a, b) =>
      specificity(a, b) ||
      Number(preferred(b.operation)) - Number(preferred(a.operation)) ||
      a.operation.localeCompare(b.operation),
  );
}

/** More literal segments first, then more literal query parameters, then more discriminators, then more segments. */
function specificity(a: RestRoute, b: RestRoute): number {
  const literals = (route: RestRoute) => route.segments.filter((s) => 'literal' in s).length;
  const discriminators = (route: RestRoute) =>
    route.discriminators.query.length + route.discriminators.headers.length;
  return (
    literals(b) - literals(a) ||
    b.query.length - a.query.length ||
    discriminators(b) - discriminators(a) ||
    b.segments.length - a.segments.length
  );
}

/** The route a request takes, and its labels percent-decoded (a greedy label keeps its `/`). */
export function matchRest(
  /** Routes in the order restRoutes gives them. */
  routes: readonly RestRoute[],
  request: Pick<LocalRequest, 'method' | 'path' | 'query' | 'headers'>,
): { route: RestRoute; labels: Record<string, string> } | undefined {
  // The raw segments (empty ones kept: an S3 key may hold `//` or end in `/`, and is taken as written).
  const parts = request.path.split('/').slice(1);
  const named = request.query.get('x-id');
  for (const route of routes) {
    if (route.method !== request.method || (named !== null && route.xId !== undefined && named !== route.xId))
      continue;
    if (
      !route.query.every(
        ([key, value]) => request.query.has(key) && (value === undefined || request.query.get(key) === value),
      )
    )
      continue;
    if (
      !route.discriminators.query.every((key) => request.query.has(key)) ||
      !route.discriminators.headers.every((name) => request.headers[name] !== undefined)
    )
      continue;
    const labels = matchSegments(route.segments, parts);
    if (labels) return { route, labels };
  }
  return undefined;
}

function matchSegments(segments: Segment[], parts: string[]): Record<string, string> | undefined {
  const labels: Record<string, string> = {};
  for (let index = 0; index < segments.length; index++) {
    const segment = segments[index] as Segment;
    if ('literal' in segment) {
      if (parts[index] !== segment.literal) return undefined;
    } else if (segment.greedy) {
      const rest = parts.slice(index);
      if (index !== segments.length - 1) return undefined;
      const value = rest.map(decode).join('/');
      if (value === '') return undefined;
      labels[segment.label] = value;
      return labels;
    } else {
      const part = parts[index];
      if (part === undefined || part === '') return undefined;
      labels[segment.label] = decode(part);
    }
  }
  // A trailing `/` after the last label or literal is the same resource (`PUT /bucket/`).
  const extra = parts.slice(segments.length);
  return extra.length === 0 || (extra.length === 1 && extra[0] === '') ? labels : undefined;
}

function decode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/**
 * The operation's input as its members are bound: labels, query parameters and headers (text coerced to the
 * member's type where the text is one: numbers, booleans, lists), then the body — the payload member when the model
 * names one, otherwise the body members (`body()`: the parsed JSON object; not called when nothing is in the body).
 */
export function restInput(
  model: CompactModel,
  operation: string,
  request: Pick<LocalRequest, 'query' | 'headers'>,
  labels: Record<string, string>,
  body: () => Record<string, unknown>,
): Record<string, unknown> {
  const inputName = model.operations[operation]?.input;
  const shape = inputName ? model.shapes[inputName] : undefined;
  if (!shape || (shape.type !== 'structure' && shape.type !== 'union')) return {};
  const input: Record<string, unknown> = {};
  let bodyMembers = false;
  for (const [name, member] of Object.entries(shape.members)) {
    if (member.httpLabel) {
      if (name in labels) input[name] = coerce(model, member, labels[name] as string);
    } else if (member.httpQuery !== undefined) {
      const values = request.query.getAll(member.httpQuery);
      if (values.length > 0)
        input[name] = isList(model, member) ? values : coerce(model, member, values[0] as string);
    } else if (member.httpHeader !== undefined) {
      const header = request.headers[member.httpHeader.toLowerCase()];
      const text = Array.isArray(header) ? header.join(',') : header;
      if (text !== undefined)
        input[name] = isList(model, member)
          ? text.split(',').map((v) => v.trim())
          : coerce(model, member, text);
    } else if (member.httpPayload) {
      const payload = body();
      if (Object.keys(payload).length > 0) input[name] = payload;
    } else if (!member.httpQueryParams && !member.httpPrefixHeaders) {
      bodyMembers = true;
    }
  }
  if (bodyMembers) {
    const parsed = body();
    for (const [name, member] of Object.entries(shape.members)) {
      if (
        member.httpLabel ||
        member.httpQuery !== undefined ||
        member.httpHeader !== undefined ||
        member.httpPayload
      )
        continue;
      const value = parsed[member.jsonName ?? name];
      if (value !== undefined) input[name] = value;
    }
  }
  return input;
}

function isList(model: CompactModel, member: MemberRef): boolean {
  return model.shapes[member.target]?.type === 'list';
}

/** Text from a URI or header as the member's type; text that is not one stays text (the validator refuses it). */
function coerce(model: CompactModel, member: MemberRef, text: string): unknown {
  switch (model.shapes[member.target]?.type) {
    case 'byte':
    case 'short':
    case 'integer':
    case 'long':
    case 'intEnum':
      return /^-?\d+$/.test(text) ? Number(text) : text;
    case 'float':
    case 'double':
      return text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : text;
    case 'boolean':
      return text === 'true' ? true : text === 'false' ? false : text;
    default:
      return text;
  }
}
