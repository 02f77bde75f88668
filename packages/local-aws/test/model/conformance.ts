// The conformance suite generated from the models. For every operation of a served service's model: a valid
// request built from the input shape (required members sampled, resources named by fixtures) must succeed or fail
// with one of the operation's documented errors, never the validation error; for every constraint reachable in
// the input shape (required, types, enums, patterns, lengths, ranges, list and map sizes), a request that breaks
// it alone must be refused with the service's validation error naming the member; every operation the endpoint
// does not serve must answer UnsupportedOperationException naming it. Requests are raw HTTP shaped as each
// protocol does (unsigned: the endpoint does not check signatures), so no SDK-side validation gets in the way.
import type { ServedService } from '../../src/model/api';

export type { ServedService };
import { restRoutes } from '../../src/model/rest';
import { breakPattern, sampleValue } from './samples';
import type { CompactModel, CompactShape, MemberRef } from '../../src/model/types';
import { memberPath } from '../../src/model/validate';

export interface WireRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}

export type Expectation =
  | { kind: 'valid'; documented: string[]; anyClientError: boolean }
  | { kind: 'refused'; code: string; fragment: string }
  | { kind: 'unsupported'; operation: string };

export interface ConformanceCase {
  service: string;
  operation: string;
  /** 'valid', 'not served', or the constraint broken (`length.max at 'name'`). */
  label: string;
  request: WireRequest;
  expect: Expectation;
  /** Runs after every other case of its service (it deletes what the others use). */
  last: boolean;
}

export interface SkippedConstraint {
  service: string;
  operation: string;
  label: string;
  reason: string;
}

export interface ServiceFixtures {
  /** Values of top-level input members, by `Operation.member` or by member name. */
  members: Record<string, unknown>;
  /** Raw bodies of restXml payload operations (the suite does not write XML). */
  rawBodies?: Record<string, string>;
  /** Any 4xx counts as documented (S3: its model lists few of the errors S3 answers). */
  anyClientError?: boolean;
}

const MAX_DEPTH = 8;
/** Headers an HTTP client computes itself (a request cannot carry a chosen value). */
const HTTP_CLIENT_HEADERS = new Set(['content-length', 'host', 'expect', 'transfer-encoding', 'connection']);
const OMIT = Symbol('omit');

export function generateCases(
  service: ServedService,
  fixtures: ServiceFixtures,
): { cases: ConformanceCase[]; skipped: SkippedConstraint[] } {
  const { model } = service.api;
  const cases: ConformanceCase[] = [];
  const skipped: SkippedConstraint[] = [];
  const served = new Set(service.served);
  const invalidCode = service.api.invalid('').type;
  const malformedCode = service.api.malformed('').type;
  // Members that tell operations on one URI apart (S3's uploadId): a request without one is another operation.
  const discriminating = new Map(
    (model.protocol === 'restXml' || model.protocol === 'restJson1' ? restRoutes(model) : []).map((r) => [
      r.operation,
      new Set([...r.discriminators.query, ...r.discriminators.headers]),
    ]),
  );
  for (const [operation, spec] of Object.entries(model.operations)) {
    const override = (path: string[], member: string) =>
      path.length === 1
        ? (fixtures.members[`${operation}.${member}`] ?? fixtures.members[member])
        : undefined;
    const valid = (
      spec.input && spec.inputShapes ? sampleValue(model, { target: spec.input }, override) : {}
    ) as Record<string, unknown>;
    if (!spec.input || !spec.inputShapes) fillLabels(model, operation, valid, fixtures);
    const encode = (input: Record<string, unknown>) => encodeRequest(model, operation, input, fixtures);
    const base = { service: service.name, operation, last: /^(Delete|Untag|Stop|Abort)/.test(operation) };
    if (!served.has(operation)) {
      cases.push({
        ...base,
        label: 'not served',
        request: encode(valid),
        expect: { kind: 'unsupported', operation },
      });
      continue;
    }
    cases.push({
      ...base,
      label: 'valid',
      request: encode(valid),
      expect: { kind: 'valid', documented: spec.errors, anyClientError: fixtures.anyClientError === true },
    });
    if (!spec.input) continue;
    const inputShape = model.shapes[spec.input];
    if (!inputShape || inputShape.type !== 'structure') continue;
    for (const broken of breakers(
      model,
      inputShape,
      valid,
      [],
      '',
      0,
      new Set([spec.input]),
      model.protocol,
      discriminating.get(operation) ?? new Set(),
    )) {
      if ('skip' in broken) {
        skipped.push({ service: service.name, operation, label: broken.label, reason: broken.skip });
        continue;
      }
      cases.push({
        ...base,
        last: false,
        label: broken.label,
        request: encode(broken.input),
        expect: {
          kind: 'refused',
          code: broken.malformed ? malformedCode : invalidCode,
          fragment: broken.fragment,
        },
      });
    }
  }
  return { cases, skipped };
}

type Broken =
  | { label: string; input: Record<string, unknown>; fragment: string; malformed: boolean }
  | { label: string; skip: string };

/** Every single-constraint violation reachable from `shape` (a structure at `path` of `input`). */
function* breakers(
  model: CompactModel,
  shape: Extract<CompactShape, { type: 'structure' | 'union' }>,
  input: Record<string, unknown>,
  path: (string | number)[],
  wirePath: string,
  depth: number,
  seen: Set<string>,
  protocol: string,
  discriminating: ReadonlySet<string>,
): Generator<Broken> {
  if (depth > MAX_DEPTH) return;
  const topLevel = path.length === 0;
  for (const [name, member] of Object.entries(shape.members)) {
    const at = memberPath(wirePath, name);
    const target = model.shapes[member.target];
    if (!target) continue;
    const bound =
      topLevel && (member.httpLabel || member.httpQuery !== undefined || member.httpHeader !== undefined);
    if (topLevel && member.httpPayload && protocol === 'restXml') continue;
    if (topLevel && (member.httpPrefixHeaders !== undefined || member.httpQueryParams)) {
      yield {
        label: `map at '${at}'`,
        skip: 'prefix headers and query-parameter maps are not bound to the input',
      };
      continue;
    }
    if (bound && member.httpHeader && HTTP_CLIENT_HEADERS.has(member.httpHeader.toLowerCase())) {
      yield { label: `header at '${at}'`, skip: `${member.httpHeader} is the HTTP client's to set` };
      continue;
    }
    const set = (value: unknown) =>
      withValue(input, [...path, member.jsonName ?? name], value, shape.type === 'union');
    const broke = (label: string, value: unknown, fragment: string, malformed = false): Broken => ({
      label: `${label} at '${at}'`,
      input: set(value),
      fragment,
      malformed,
    });
    if (member.required && !(shape.type === 'union')) {
      if (member.httpLabel)
        yield { label: `required at '${at}'`, skip: 'a URI label cannot be left out of the path' };
      else if (
        topLevel &&
        discriminating.has(member.httpQuery ?? member.httpHeader?.toLowerCase() ?? '\u0000')
      )
        yield {
          label: `required at '${at}'`,
          skip: 'it tells the operation from another on the same URI: without it the request is that one',
        };
      else
        yield broke(
          'required',
          OMIT,
          `Value null at '${at}' failed to satisfy constraint: Member must not be null`,
        );
    }
    const constraint = (text: string) => `at '${at}' failed to satisfy constraint: ${text}`;
    const length = member.length ?? ('length' in target ? target.length : undefined);
    const range = member.range ?? ('range' in target ? target.range : undefined);
    const pattern = member.pattern ?? ('pattern' in target ? target.pattern : undefined);
    const sample = sampleValue(model, member, () => undefined);
    const wrongType = wrongTypeOf(target.type);
    if (wrongType !== undefined && !bound) yield broke('type', wrongType, `at '${at}'`, true);
    else if (bound && ['integer', 'long', 'short', 'byte', 'boolean', 'intEnum'].includes(target.type))
      yield broke('type', 'not-a-number', `at '${at}'`, true);
    if (target.type === 'enum' || (target.type === 'string' && target.enum))
      yield broke('enum', 'NOT_A_VALUE', constraint('Member must satisfy enum value set'));
    if (length?.max !== undefined && length.max < 4_000_000) {
      const value = tooLong(target.type, length.max, sample);
      if (value !== undefined)
        yield broke(
          'length.max',
          value,
          constraint(`Member must have length less than or equal to ${length.max}`),
        );
    }
    if (length?.min !== undefined && length.min > 0) {
      const value = tooShort(target.type, length.min, sample);
      if (value === '' && member.httpLabel)
        yield { label: `length.min at '${at}'`, skip: 'an empty URI label does not reach the operation' };
      else if (value !== undefined)
        yield broke(
          'length.min',
          value,
          constraint(`Member must have length greater than or equal to ${length.min}`),
        );
    }
    if (range?.max !== undefined && Number.isFinite(range.max) && range.max < Number.MAX_SAFE_INTEGER) {
      // At the type's own limit (an integer's 2147483647) a larger number is not of the type: malformed.
      if (target.type === 'integer' && range.max >= 2147483647)
        yield broke('range.max', range.max + 1, `at '${at}'`, true);
      else
        yield broke(
          'range.max',
          range.max + 1,
          constraint(`Member must have value less than or equal to ${range.max}`),
        );
    }
    if (range?.min !== undefined && range.min > Number.MIN_SAFE_INTEGER)
      yield broke(
        'range.min',
        range.min - 1,
        constraint(`Member must have value greater than or equal to ${range.min}`),
      );
    if (pattern && target.type === 'string') {
      const value = breakPattern(pattern);
      if (value === undefined || (value === '' && member.httpLabel))
        yield { label: `pattern at '${at}'`, skip: 'no string the pattern refuses could be built' };
      else
        yield broke(
          'pattern',
          value,
          constraint(`Member must satisfy regular expression pattern: ${pattern}`),
        );
    }
    if (seen.has(member.target) || bound) continue;
    const next = new Set(seen).add(member.target);
    const here = [...path, member.jsonName ?? name];
    if (target.type === 'structure' || target.type === 'union') {
      const withMember = withValue(
        input,
        here,
        sampleValue(model, member, () => undefined),
        shape.type === 'union',
      );
      yield* breakers(model, target, withMember, here, at, depth + 1, next, protocol, discriminating);
    } else if (target.type === 'list') {
      const item = model.shapes[target.member.target];
      if (item && (item.type === 'structure' || item.type === 'union')) {
        const list = withValue(input, here, [sampleValue(model, target.member, () => undefined)], false);
        yield* breakers(
          model,
          item,
          list,
          [...here, 0],
          `${at}.1.member`,
          depth + 1,
          next.add(target.member.target),
          protocol,
          discriminating,
        );
      }
    }
  }
}

function wrongTypeOf(type: string): unknown {
  switch (type) {
    case 'string':
    case 'enum':
    case 'blob':
      return 12345;
    case 'boolean':
    case 'integer':
    case 'long':
    case 'short':
    case 'byte':
    case 'float':
    case 'double':
    case 'intEnum':
      return 'not-a-number';
    case 'list':
    case 'structure':
    case 'union':
    case 'map':
      return 'not-a-collection';
    case 'timestamp':
      return true;
    default:
      return undefined;
  }
}

function tooLong(type: string, max: number, sample: unknown): unknown {
  if (type === 'string') return 'a'.repeat(max + 1);
  if (type === 'blob') return Buffer.alloc(max + 1, 97).toString('base64');
  if (type === 'list')
    return Array.from({ length: max + 1 }, () => (Array.isArray(sample) ? sample[0] : sample));
  if (type === 'map')
    return Object.fromEntries(
      Array.from({ length: max + 1 }, (_, i) => [`k${i}`, Object.values(sample as object)[0]]),
    );
  return undefined;
}

function tooShort(type: string, min: number, sample: unknown): unknown {
  if (type === 'string') return 'a'.repeat(min - 1);
  if (type === 'blob') return Buffer.alloc(min - 1, 97).toString('base64');
  if (type === 'list') return Array.isArray(sample) ? sample.slice(0, min - 1) : [];
  if (type === 'map') return {};
  return undefined;
}

/** A copy of `input` with the value at `path` replaced (OMIT = removed); a union parent keeps only that member. */
function withValue(
  input: Record<string, unknown>,
  path: (string | number)[],
  value: unknown,
  unionParent: boolean,
): Record<string, unknown> {
  const copy = structuredClone(input);
  let node: Record<string | number, unknown> = copy;
  path.slice(0, -1).forEach((key, index) => {
    const nextIsIndex = typeof path[index + 1] === 'number';
    if (node[key] === undefined || node[key] === null) node[key] = nextIsIndex ? [] : {};
    node = node[key] as Record<string | number, unknown>;
  });
  const last = path[path.length - 1] as string | number;
  if (unionParent) for (const key of Object.keys(node)) delete node[key];
  if (value === OMIT) delete node[last];
  else node[last] = value;
  return copy;
}

/** Labels of an operation whose input shapes the compact model left out: from the fixtures, else `x`. */
function fillLabels(
  model: CompactModel,
  operation: string,
  input: Record<string, unknown>,
  fixtures: ServiceFixtures,
) {
  const uri = model.operations[operation]?.http?.uri ?? '';
  for (const [, label] of uri.matchAll(/\{([^}+]+)\+?\}/g)) {
    const name = label as string;
    input[name] = fixtures.members[`${operation}.${name}`] ?? fixtures.members[name] ?? 'x';
  }
}

/** The request as the protocol lays it out: target header and JSON body, or URI labels, query, headers and body. */
function encodeRequest(
  model: CompactModel,
  operation: string,
  input: Record<string, unknown>,
  fixtures: ServiceFixtures,
): WireRequest {
  const spec = model.operations[operation];
  if (model.protocol === 'awsJson1_1' || model.protocol === 'awsJson1_0' || !spec?.http) {
    return {
      method: 'POST',
      path: '/',
      headers: {
        'x-amz-target': `${model.targetPrefix}.${operation}`,
        'content-type': `application/x-amz-json-${model.protocol === 'awsJson1_0' ? '1.0' : '1.1'}`,
      },
      body: JSON.stringify(input),
    };
  }
  const shape = spec.input ? model.shapes[spec.input] : undefined;
  const members: Record<string, MemberRef> = shape && shape.type === 'structure' ? shape.members : {};
  const [rawPath = '', literalQuery = ''] = spec.http.uri.split('?');
  const path = rawPath.replace(/\{([^}+]+)(\+)?\}/g, (_m, name: string, greedy?: string) => {
    const value = String(input[name] ?? '');
    return greedy ? value.split('/').map(encodeURIComponent).join('/') : encodeURIComponent(value);
  });
  const query = new URLSearchParams(literalQuery);
  const headers: Record<string, string> = {};
  const body: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(input)) {
    const member = members[name];
    if (!member || member.httpLabel) continue;
    if (member.httpQuery !== undefined) {
      for (const item of Array.isArray(value) ? value : [value]) query.append(member.httpQuery, String(item));
    } else if (member.httpHeader !== undefined) headers[member.httpHeader.toLowerCase()] = String(value);
    else if (!member.httpPayload) body[member.jsonName ?? name] = value;
  }
  const search = query.toString();
  const raw = fixtures.rawBodies?.[operation];
  const json = Object.keys(body).length > 0 || (model.protocol === 'restJson1' && spec.http.method !== 'GET');
  return {
    method: spec.http.method,
    path: `${path || '/'}${search ? `?${search}` : ''}`,
    headers:
      raw !== undefined
        ? { ...headers, 'content-type': 'application/xml' }
        : json
          ? { 'content-type': 'application/json', ...headers }
          : headers,
    body: raw ?? (json && model.protocol === 'restJson1' ? JSON.stringify(body) : ''),
  };
}
