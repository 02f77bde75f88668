// Checks a request's input against its operation's input shape in the service's model: required members, JSON
// types, enums, string patterns and lengths, numeric ranges, list and map sizes, union arity. Returns what it
// found; `api.ts` turns that into the error the service's protocol answers with. Messages follow the form AWS's
// services answer with ("1 validation error detected: Value '…' at 'member.path' failed to satisfy constraint:
// Member must …"), member paths as AWS writes them: first letter lower-cased, list entries as `list.N.member`.
import type { Bounds, CompactModel, CompactShape, MemberRef, ScalarType } from './types';

export interface Violation {
  /** 'type' violations are malformed requests (SerializationException), the rest constraint failures. */
  kind: 'required' | 'type' | 'length' | 'range' | 'pattern' | 'enum' | 'union';
  path: string;
  message: string;
}

const INTEGER_RANGES: Record<string, [number, number]> = {
  byte: [-128, 127],
  short: [-32768, 32767],
  integer: [-2147483648, 2147483647],
  long: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
  bigInteger: [-Infinity, Infinity],
};

const patterns = new Map<string, RegExp | null>();
/** A model's pattern as a JavaScript RegExp (Smithy patterns are ECMA-262, not implicitly anchored). */
export function compilePattern(pattern: string): RegExp | null {
  let compiled = patterns.get(pattern);
  if (compiled === undefined) {
    compiled = tryRegExp(pattern, 'u') ?? tryRegExp(pattern, '');
    patterns.set(pattern, compiled);
  }
  return compiled;
}

function tryRegExp(pattern: string, flags: string): RegExp | null {
  try {
    return new RegExp(pattern, flags);
  } catch {
    return null;
  }
}

/** Where a value sits in the input, as AWS writes it. */
export function memberPath(parent: string, member: string): string {
  const name = member.charAt(0).toLowerCase() + member.slice(1);
  return parent ? `${parent}.${name}` : name;
}

export function validateInput(
  model: CompactModel,
  shapeName: string | undefined,
  input: unknown,
  /** Top-level members left to the handler (restXml payloads). */
  skip?: ReadonlySet<string>,
): Violation[] {
  const violations: Violation[] = [];
  if (shapeName === undefined) return violations;
  const shape = model.shapes[shapeName];
  if (skip && shape && shape.type === 'structure') {
    const members = Object.fromEntries(Object.entries(shape.members).filter(([name]) => !skip.has(name)));
    checkStructure(model, { ...shape, members }, input, '', violations);
  } else checkShape(model, { target: shapeName }, input, '', violations);
  return violations;
}

function checkShape(
  model: CompactModel,
  ref: MemberRef,
  value: unknown,
  path: string,
  out: Violation[],
): void {
  const shape = model.shapes[ref.target];
  if (!shape) return;
  switch (shape.type) {
    case 'structure':
    case 'union':
      return checkStructure(model, shape, value, path, out);
    case 'list': {
      if (!Array.isArray(value)) return typeError(out, path, 'a list', value);
      checkBounds(out, path, value, value.length, ref.length ?? shape.length, 'length');
      value.forEach((item, index) => {
        if (item !== null) checkShape(model, shape.member, item, `${path}.${index + 1}.member`, out);
      });
      return;
    }
    case 'map': {
      if (!isObject(value)) return typeError(out, path, 'a map', value);
      const keys = Object.keys(value);
      checkBounds(out, path, value, keys.length, ref.length ?? shape.length, 'length');
      const keyFailures: Violation[] = [];
      const valueFailures: Violation[] = [];
      for (const key of keys) {
        checkShape(model, shape.key, key, path, keyFailures);
        const entry = value[key];
        if (entry !== null) checkShape(model, shape.value, entry, path, valueFailures);
      }
      mapFailure(out, path, value, 'Map keys', keyFailures);
      mapFailure(out, path, value, 'Map value', valueFailures);
      return;
    }
    case 'enum':
      if (typeof value !== 'string') return typeError(out, path, 'a string', value);
      if (!shape.values.includes(value)) enumFailure(out, path, value, shape.values);
      return;
    case 'intEnum':
      if (typeof value !== 'number') return typeError(out, path, 'a number', value);
      if (!shape.values.includes(value)) enumFailure(out, path, value, shape.values);
      return;
    default:
      return checkScalar(shape, ref, value, path, out);
  }
}

function checkStructure(
  model: CompactModel,
  shape: Extract<CompactShape, { type: 'structure' | 'union' }>,
  value: unknown,
  path: string,
  out: Violation[],
): void {
  if (!isObject(value)) return typeError(out, path, 'a structure', value);
  let set = 0;
  for (const [name, member] of Object.entries(shape.members)) {
    const wireName = member.jsonName ?? name;
    const memberValue = value[wireName];
    const at = memberPath(path, name);
    if (memberValue === undefined || memberValue === null) {
      if (member.required)
        out.push({ kind: 'required', path: at, message: failure('null', at, 'Member must not be null') });
      continue;
    }
    set++;
    checkShape(model, member, memberValue, at, out);
  }
  if (shape.type === 'union' && set !== 1) {
    out.push({
      kind: 'union',
      path,
      message: failure(
        render(value),
        path || 'input',
        `Member must have exactly one of its members set (${Object.keys(shape.members).join(', ')}), got ${set}`,
      ),
    });
  }
}

function checkScalar(
  shape: Extract<CompactShape, { type: ScalarType }>,
  ref: MemberRef,
  value: unknown,
  path: string,
  out: Violation[],
): void {
  const length = ref.length ?? shape.length;
  const range = ref.range ?? shape.range;
  const pattern = ref.pattern ?? ('pattern' in shape ? shape.pattern : undefined);
  switch (shape.type) {
    case 'string': {
      if (typeof value !== 'string') return typeError(out, path, 'a string', value);
      checkBounds(out, path, value, codePoints(value, length), length, 'length');
      const values = 'enum' in shape ? shape.enum : undefined;
      if (values && !values.includes(value)) enumFailure(out, path, value, values);
      if (pattern) {
        const regex = compilePattern(pattern);
        if (regex && !regex.test(value))
          out.push({
            kind: 'pattern',
            path,
            message: failure(
              `'${value}'`,
              path,
              `Member must satisfy regular expression pattern: ${pattern}`,
            ),
          });
      }
      return;
    }
    case 'blob': {
      if (typeof value !== 'string') return typeError(out, path, 'a base64 string', value);
      const bytes = base64Length(value);
      if (length && outside(bytes, length)) {
        const shown = `java.nio.HeapByteBuffer[pos=0 lim=${bytes} cap=${bytes}]`;
        checkBounds(out, path, shown, bytes, length, 'length', true);
      }
      return;
    }
    case 'boolean':
      if (typeof value !== 'boolean') typeError(out, path, 'true or false', value);
      return;
    case 'timestamp':
      if (typeof value !== 'number' && typeof value !== 'string') typeError(out, path, 'a timestamp', value);
      return;
    case 'document':
      return;
    case 'float':
    case 'double':
    case 'bigDecimal':
      if (typeof value !== 'number') return typeError(out, path, 'a number', value);
      checkBounds(out, path, value, value, range, 'value');
      return;
    default: {
      const [lowest, highest] = INTEGER_RANGES[shape.type] ?? [-Infinity, Infinity];
      if (typeof value !== 'number' || !Number.isInteger(value) || value < lowest || value > highest)
        return typeError(out, path, `an integer (${shape.type})`, value);
      checkBounds(out, path, value, value, range, 'value');
    }
  }
}

function codePoints(value: string, length: Bounds | undefined): number {
  // UTF-16 length is an upper bound of the code points; count them only where it could matter.
  if (!length) return value.length;
  if (length.max !== undefined && value.length > length.max) return [...value].length;
  if (length.min !== undefined && value.length < length.min * 2) return [...value].length;
  return value.length;
}

function base64Length(text: string): number {
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  return Math.floor((text.length * 3) / 4) - padding;
}

function outside(n: number, bounds: Bounds): boolean {
  return (bounds.min !== undefined && n < bounds.min) || (bounds.max !== undefined && n > bounds.max);
}

function checkBounds(
  out: Violation[],
  path: string,
  value: unknown,
  measure: number,
  bounds: Bounds | undefined,
  what: 'length' | 'value',
  rendered = false,
): void {
  if (!bounds) return;
  const above = bounds.max !== undefined && measure > bounds.max;
  const below = bounds.min !== undefined && measure < bounds.min;
  if (!above && !below) return;
  // Rendered only for a violation: a valid list (PutRecordBatch's 500 records) is never serialised.
  const shown = rendered
    ? `'${String(value)}'`
    : typeof value === 'string'
      ? `'${value}'`
      : `'${render(value)}'`;
  const kind = what === 'length' ? 'length' : 'range';
  if (above)
    out.push({
      kind,
      path,
      message: failure(shown, path, `Member must have ${what} less than or equal to ${bounds.max}`),
    });
  if (below)
    out.push({
      kind,
      path,
      message: failure(shown, path, `Member must have ${what} greater than or equal to ${bounds.min}`),
    });
}

function enumFailure(
  out: Violation[],
  path: string,
  value: unknown,
  values: readonly (string | number)[],
): void {
  out.push({
    kind: 'enum',
    path,
    message: failure(
      `'${String(value)}'`,
      path,
      `Member must satisfy enum value set: [${values.join(', ')}]`,
    ),
  });
}

function mapFailure(
  out: Violation[],
  path: string,
  value: unknown,
  what: string,
  failures: Violation[],
): void {
  if (failures.length === 0) return;
  const constraints = [
    ...new Set(failures.map((f) => f.message.replace(/^.*failed to satisfy constraint: /, ''))),
  ];
  out.push({
    kind: failures[0]?.kind ?? 'length',
    path,
    message: failure(
      `'${render(value)}'`,
      path,
      `${what} must satisfy constraint: [${constraints.join(', ')}]`,
    ),
  });
}

function typeError(out: Violation[], path: string, expected: string, value: unknown): void {
  out.push({
    kind: 'type',
    path,
    message: `Expected ${expected} at '${path || 'input'}', got ${render(value)}.`,
  });
}

function failure(shown: string, path: string, constraint: string): string {
  return `Value ${shown} at '${path}' failed to satisfy constraint: ${constraint}`;
}

function render(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text === undefined ? String(value) : text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
