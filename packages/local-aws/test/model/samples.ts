// Values that satisfy (or break) a model's constraints, for the generated conformance suite: a small sampler for
// the ECMA-262 patterns AWS's models use (classes, escapes, groups, alternation, quantifiers; lookarounds are
// checked afterwards, not generated), and a sample value for any shape.
import type { Bounds, CompactModel, MemberRef } from '../../src/model/types';
import { compilePattern } from '../../src/model/validate';

type Node =
  | { kind: 'char'; pick: string }
  | { kind: 'group'; alternatives: Node[][] }
  | { kind: 'repeat'; node: Node; min: number; max: number | undefined }
  | { kind: 'empty' };

/** A string of `length` bounds matching `pattern`, or undefined when the sampler cannot build one. */
export function samplePattern(pattern: string, length: Bounds = {}): string | undefined {
  const regex = compilePattern(pattern);
  if (!regex) return undefined;
  let tree: Node[][];
  try {
    tree = parseAlternatives(pattern, { at: 0 });
  } catch {
    return undefined;
  }
  for (const alternative of tree) {
    for (const extra of [0, 1, 2, 3, 5, 8, 13, 21, 40, 64, 100, 256]) {
      const text = alternative.map((node) => generate(node, extra)).join('');
      const fits = (length.min ?? 0) <= [...text].length && [...text].length <= (length.max ?? Infinity);
      if (fits && regex.test(text)) return text;
    }
  }
  return undefined;
}

/** A string that `pattern` refuses (the pattern violation of the suite), or undefined. */
export function breakPattern(pattern: string): string | undefined {
  const regex = compilePattern(pattern);
  if (!regex) return undefined;
  const candidates = ['!', ' ', '#%', 'a b', '~', '\u0000', ':', '*', '/', '\\', '"', 'é', ''];
  return candidates.find((candidate) => !regex.test(candidate));
}

function generate(node: Node, extra: number): string {
  switch (node.kind) {
    case 'char':
      return node.pick;
    case 'empty':
      return '';
    case 'group':
      return (node.alternatives[0] ?? []).map((n) => generate(n, extra)).join('');
    case 'repeat': {
      const count =
        node.max === undefined
          ? Math.max(node.min, extra)
          : Math.min(node.max, Math.max(node.min, Math.min(extra, node.max)));
      return Array.from({ length: count }, () => generate(node.node, extra)).join('');
    }
  }
}

interface Cursor {
  at: number;
}

function parseAlternatives(source: string, cursor: Cursor): Node[][] {
  const alternatives: Node[][] = [[]];
  while (cursor.at < source.length) {
    const c = source[cursor.at] as string;
    if (c === ')') break;
    if (c === '|') {
      cursor.at++;
      alternatives.push([]);
      continue;
    }
    const atom = parseAtom(source, cursor);
    (alternatives[alternatives.length - 1] as Node[]).push(parseQuantifier(source, cursor, atom));
  }
  return alternatives;
}

function parseAtom(source: string, cursor: Cursor): Node {
  const c = source[cursor.at++] as string;
  switch (c) {
    case '^':
    case '$':
      return { kind: 'empty' };
    case '../../src/model':
      return { kind: 'char', pick: 'a' };
    case '(': {
      let lookaround = false;
      if (source[cursor.at] === '?') {
        const next = source.slice(cursor.at, cursor.at + 3);
        lookaround = /^\?(<?[=!])/.test(next);
        cursor.at +=
          next.startsWith('?<') && !lookaround ? 0 : lookaround ? (next.startsWith('?<') ? 3 : 2) : 2;
      }
      const alternatives = parseAlternatives(source, cursor);
      if (source[cursor.at] !== ')') throw new Error('unclosed group');
      cursor.at++;
      return lookaround ? { kind: 'empty' } : { kind: 'group', alternatives };
    }
    case '[':
      return { kind: 'char', pick: parseClass(source, cursor) };
    case '\\':
      return { kind: 'char', pick: escapeSample(source, cursor) };
    default:
      return { kind: 'char', pick: c };
  }
}

function parseQuantifier(source: string, cursor: Cursor, node: Node): Node {
  const c = source[cursor.at];
  let min: number;
  let max: number | undefined;
  if (c === '*' || c === '+' || c === '?') {
    cursor.at++;
    [min, max] = c === '*' ? [0, undefined] : c === '+' ? [1, undefined] : [0, 1];
  } else if (c === '{' && /^\{\d+(,\d*)?\}/.test(source.slice(cursor.at))) {
    const match = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(cursor.at)) as RegExpExecArray;
    cursor.at += match[0].length;
    min = Number(match[1]);
    max = match[2] === undefined ? min : match[3] === '' ? undefined : Number(match[3]);
  } else return node;
  if (source[cursor.at] === '?' || source[cursor.at] === '+') cursor.at++;
  return { kind: 'repeat', node, min, max };
}

/** A character the class allows: a letter or digit when it has one, else its first. */
function parseClass(source: string, cursor: Cursor): string {
  const negated = source[cursor.at] === '^';
  if (negated) cursor.at++;
  const members: [string, string][] = [];
  let first = true;
  while (cursor.at < source.length && (source[cursor.at] !== ']' || first)) {
    first = false;
    let low = source[cursor.at++] as string;
    if (low === '\\') low = escapeSample(source, cursor);
    if (source[cursor.at] === '-' && source[cursor.at + 1] !== ']' && cursor.at + 1 < source.length) {
      cursor.at++;
      let high = source[cursor.at++] as string;
      if (high === '\\') high = escapeSample(source, cursor);
      members.push([low, high]);
    } else members.push([low, low]);
  }
  cursor.at++;
  const allowed = (ch: string) => members.some(([low, high]) => low <= ch && ch <= high);
  const preferred = ['a', 'b', 'x', '1', '0', 'A', '_', '-', '../../src/model'];
  if (negated) return preferred.find((ch) => !allowed(ch)) ?? 'z';
  return preferred.find(allowed) ?? (members[0]?.[0] as string);
}

function escapeSample(source: string, cursor: Cursor): string {
  const c = source[cursor.at++] as string;
  switch (c) {
    case 'd':
      return '1';
    case 'w':
    case 'S':
    case 'D':
    case 'W':
      return c === 'W' ? '-' : 'a';
    case 's':
      return ' ';
    case 'p':
    case 'P': {
      const end = source.indexOf('}', cursor.at);
      cursor.at = end + 1;
      return c === 'p' ? 'a' : '1';
    }
    case 'u': {
      const hex = source.slice(cursor.at, cursor.at + 4);
      cursor.at += 4;
      return String.fromCharCode(parseInt(hex, 16));
    }
    case 't':
      return '\t';
    case 'n':
      return '\n';
    case 'r':
      return '\r';
    default:
      return c;
  }
}

/**
 * A value of the shape that satisfies its constraints: required members only, the first member of a union,
 * one entry per list and map (or the minimum). `override` gives the value of a member by its path first.
 */
export function sampleValue(
  model: CompactModel,
  ref: MemberRef,
  override: (path: string[], member: string) => unknown,
  path: string[] = [],
  depth = 0,
): unknown {
  const shape = model.shapes[ref.target];
  if (!shape || depth > 24) return undefined;
  const length = ref.length ?? ('length' in shape ? shape.length : undefined);
  switch (shape.type) {
    case 'structure':
    case 'union': {
      const out: Record<string, unknown> = {};
      const entries = Object.entries(shape.members);
      const chosen = shape.type === 'union' ? entries.slice(0, 1) : entries;
      for (const [name, member] of chosen) {
        const given = override([...path, name], name);
        if (given !== undefined) out[member.jsonName ?? name] = given;
        else if (member.required || shape.type === 'union')
          out[member.jsonName ?? name] = sampleValue(model, member, override, [...path, name], depth + 1);
      }
      return out;
    }
    case 'list': {
      const count = Math.max(length?.min ?? 1, Math.min(1, length?.max ?? 1));
      return Array.from({ length: count }, (_, i) =>
        sampleValue(model, shape.member, override, [...path, String(i)], depth + 1),
      );
    }
    case 'map': {
      const key = sampleValue(model, shape.key, override, [...path, 'key'], depth + 1);
      return { [String(key)]: sampleValue(model, shape.value, override, [...path, 'value'], depth + 1) };
    }
    case 'enum':
    case 'intEnum':
      return shape.values[0];
    case 'string': {
      if (shape.enum) return shape.enum[0];
      const pattern = ref.pattern ?? shape.pattern;
      if (pattern) return samplePattern(pattern, length);
      return 'a'.repeat(Math.max(1, length?.min ?? 1));
    }
    case 'blob':
      return Buffer.from('{"a":1}'.padEnd(Math.max(7, length?.min ?? 0), ' ')).toString('base64');
    case 'boolean':
      return false;
    case 'timestamp':
      return 1_700_000_000;
    case 'document':
      return {};
    default: {
      const range = ref.range ?? shape.range;
      if (range?.min !== undefined) return range.min;
      if (range?.max !== undefined && range.max < 1) return range.max;
      return 1;
    }
  }
}
