// JSON request bodies of awsJson services. A large body (a PutRecordBatch of 500 records is 180 KB to 5 MB) is
// parsed piece by piece — each member of the top-level object, and each element of a large array — instead of
// as one string: V8 allocates strings over ~128 KiB in large-object space, which costs about 1 ms per 180 KB
// on top of the parse itself, on the event loop every flush and every other request share. The result is the
// same value JSON.parse gives; anything the piecewise scan does not recognise falls back to JSON.parse.

/** Bodies up to this size go to JSON.parse whole (their string stays in V8's regular heap). */
const WHOLE_BELOW = 96 * 1024;

/**
 * Each body parsed once, however many layers read it (with authorization the request step reads the members that
 * name the resource, then the service the whole input). Readers must not mutate what they get.
 */
const parsedBodies = new WeakMap<Buffer, unknown>();

/** The parsed body, or undefined when it is not valid JSON. */
export function parseJsonText(body: Buffer): unknown {
  if (parsedBodies.has(body)) return parsedBodies.get(body);
  const parsed = parseOnce(body);
  parsedBodies.set(body, parsed);
  return parsed;
}

function parseOnce(body: Buffer): unknown {
  if (body.length >= WHOLE_BELOW) {
    try {
      const parsed = parseObjectPiecewise(body);
      if (parsed !== undefined) return parsed;
    } catch {
      // Not the shape the scan handles: JSON.parse decides (and reports malformed bodies).
    }
  }
  try {
    return JSON.parse(body.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

function isSpace(c: number | undefined): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

function skipSpace(body: Buffer, at: number): number {
  while (isSpace(body[at])) at++;
  return at;
}

/** End (exclusive) of the string starting at `at` (a quote). Strings are skipped with indexOf, not per byte. */
function stringEnd(body: Buffer, at: number): number {
  let from = at + 1;
  for (;;) {
    const quote = body.indexOf(QUOTE, from);
    if (quote < 0) throw new SyntaxError('unterminated string');
    let slashes = 0;
    while (body[quote - 1 - slashes] === BACKSLASH) slashes++;
    if (slashes % 2 === 0) return quote + 1;
    from = quote + 1;
  }
}

/** End (exclusive) of the JSON value starting at `at`; the value itself is validated later by JSON.parse. */
function valueEnd(body: Buffer, at: number): number {
  const first = body[at];
  if (first === QUOTE) return stringEnd(body, at);
  if (first === 0x7b || first === 0x5b) {
    let depth = 0;
    for (let i = at; i < body.length;) {
      const c = body[i];
      if (c === QUOTE) {
        i = stringEnd(body, i);
        continue;
      }
      if (c === 0x7b || c === 0x5b) depth++;
      else if (c === 0x7d || c === 0x5d) {
        depth--;
        if (depth === 0) return i + 1;
      }
      i++;
    }
    throw new SyntaxError('unterminated value');
  }
  let end = at;
  while (end < body.length) {
    const c = body[end];
    if (c === 0x2c || c === 0x7d || c === 0x5d || isSpace(c)) break;
    end++;
  }
  if (end === at) throw new SyntaxError('missing value');
  return end;
}

function parsePiece(body: Buffer, start: number, end: number): unknown {
  return JSON.parse(body.toString('utf8', start, end)) as unknown;
}

/** A large array element by element; a small one whole. */
function parseValue(body: Buffer, start: number, end: number): unknown {
  if (body[start] !== 0x5b || end - start < WHOLE_BELOW) return parsePiece(body, start, end);
  const items: unknown[] = [];
  let at = skipSpace(body, start + 1);
  if (body[at] === 0x5d) return at + 1 === end ? items : parsePiece(body, start, end);
  for (;;) {
    const itemEnd = valueEnd(body, at);
    items.push(parsePiece(body, at, itemEnd));
    at = skipSpace(body, itemEnd);
    if (body[at] === 0x2c) at = skipSpace(body, at + 1);
    else if (body[at] === 0x5d && at + 1 === end) return items;
    else throw new SyntaxError('malformed array');
  }
}

/** A top-level object member by member, or undefined when the body is not an object. */
export function parseObjectPiecewise(body: Buffer): Record<string, unknown> | undefined {
  let at = skipSpace(body, 0);
  if (body[at] !== 0x7b) return undefined;
  const result: Record<string, unknown> = {};
  at = skipSpace(body, at + 1);
  if (body[at] === 0x7d) at++;
  else {
    for (;;) {
      if (body[at] !== QUOTE) throw new SyntaxError('expected a key');
      const keyEnd = stringEnd(body, at);
      const key = parsePiece(body, at, keyEnd) as string;
      // Plain assignment of "__proto__" would set the prototype, not a member: leave such bodies to JSON.parse.
      if (key === '__proto__') throw new SyntaxError('__proto__ key');
      at = skipSpace(body, keyEnd);
      if (body[at] !== 0x3a) throw new SyntaxError('expected a colon');
      at = skipSpace(body, at + 1);
      const end = valueEnd(body, at);
      result[key] = parseValue(body, at, end);
      at = skipSpace(body, end);
      if (body[at] === 0x2c) at = skipSpace(body, at + 1);
      else if (body[at] === 0x7d) {
        at++;
        break;
      } else throw new SyntaxError('expected a comma or the end of the object');
    }
  }
  if (skipSpace(body, at) !== body.length) throw new SyntaxError('content after the object');
  return result;
}
