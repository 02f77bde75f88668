// The name → path mapping, as an attacker would feed it: random names built from `..`, `/`, `%2F`, `%2e`, NUL,
// backslashes, unicode and 1 KiB runs must each stay one record under its root, come back from a listing as written,
// and never share a file with another name (case-insensitive file systems included).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import {
  compareKeys,
  COMPONENT_BYTES,
  decodeName,
  encodeName,
  listNames,
  namedPath,
  objectPath,
  objectsUnder,
  StoredNameError,
} from './stored-paths';

const root = mkdtempSync(join(tmpdir(), 'stored-paths-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Pieces an attacker strings together. */
const hostile = fc.constantFrom(
  '..',
  '.',
  '/',
  '%2F',
  '%2f',
  '%2e',
  '%2E%2E',
  '\0',
  '\\',
  '..\\',
  '%',
  '%+',
  '+',
  'A',
  'a',
  '\u00e9',
  'e\u0301',
  'ﬀ',
  '😀',
  '\u202e',
  ' ',
  '~',
  '.json',
  '%00',
);
const piece = fc.oneof(hostile, fc.string({ unit: 'grapheme', maxLength: 8 }), fc.string({ maxLength: 4 }));
const hostileName = fc.oneof(
  fc.array(piece, { maxLength: 12 }).map((parts) => parts.join('')),
  fc.string({ unit: 'grapheme', minLength: 1000, maxLength: 1100 }),
  fc.constantFrom('../../lab/tables/authz_secret', '../'.repeat(40) + 'etc/passwd', 'x'.repeat(1024)),
);

describe('the name → path mapping', () => {
  it('keeps every name one record under its root, and reads it back as written', () => {
    fc.assert(
      fc.property(fc.array(hostileName, { minLength: 1, maxLength: 4 }), (names) => {
        const path = namedPath(root, names, '.json');
        const rel = relative(root, path);
        expect(rel.startsWith('..')).toBe(false);
        const components = rel.split(sep);
        for (const c of components) {
          expect(c).not.toBe('.');
          expect(c).not.toBe('..');
          expect(c).not.toBe('');
          expect(Buffer.byteLength(c)).toBeLessThanOrEqual(255);
          expect(c).not.toMatch(/[\0\\/]/);
        }
        for (const name of names) expect(decodeName(encodeName(name))).toBe(name);
      }),
      { numRuns: 200 },
    );
  });

  it('never maps two names to one file, even where the file system folds case or normalises Unicode', () => {
    fc.assert(
      fc.property(hostileName, hostileName, (a, b) => {
        fc.pre(a !== b);
        const fold = (name: string) => encodeName(name).join('/').toLowerCase().normalize('NFC');
        expect(fold(a)).not.toBe(fold(b));
      }),
      { numRuns: 500 },
    );
    // The pairs that fold together on macOS and Windows.
    for (const [a, b] of [
      ['Table', 'table'],
      ['\u00e9', 'e\u0301'],
      ['%2F', '%2f'],
      ['A%', 'a%'],
    ] as const)
      expect(
        encodeName(a as string)
          .join('')
          .toLowerCase(),
      ).not.toBe(
        encodeName(b as string)
          .join('')
          .toLowerCase(),
      );
  });

  it('writes only lower-case letters, digits, ._=- and %XX escapes in upper-case hex', () => {
    fc.assert(
      fc.property(hostileName, (name) => {
        for (const c of encodeName(name)) expect(c).toMatch(/^(?:[a-z0-9._=-]|%[0-9A-F]{2})*(?:%\+)?$|^%$/);
      }),
    );
  });

  it('leaves names that already are identifiers as they are (existing folders keep their layout)', () => {
    for (const name of ['loglake-flows', 'flow_logs', '0b6f1e2a-9c1d-4c7e-8a53-1f2e3d4c5b6a', 'v1.2'])
      expect(encodeName(name)).toEqual([name]);
    expect(encodeName('..')).toEqual(['%2E.']);
    expect(encodeName('')).toEqual(['%']);
    expect(encodeName('x'.repeat(1024)).length).toBeGreaterThan(1);
    expect(encodeName('x'.repeat(1024)).every((c) => c.length <= COMPONENT_BYTES)).toBe(true);
  });

  it('refuses a name that is not well-formed Unicode (a lone surrogate), naming it', () => {
    expect(() => namedPath(root, ['a\uD800b'])).toThrow(StoredNameError);
    expect(() => encodeName('\uDC00')).toThrow(/not well-formed Unicode/);
  });

  it('lists the names it stored, long and hostile ones included, and skips what it did not write', () => {
    const folder = mkdtempSync(join(root, 'list-'));
    const names = ['..', '.', 'a/b', 'A', 'a', '%2F', 'x'.repeat(700), '\0', ''];
    for (const name of names) {
      const file = namedPath(folder, ['things', name], '.json');
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, '{}');
    }
    writeFileSync(join(folder, 'things', 'Hand-Made.json'), '{}');
    expect(listNames(folder, ['things'], '.json')).toEqual([...names].sort());
  });
});

describe('S3 object keys', () => {
  /** Keys built of segments an attacker would try, `a` and `a/b` together included. */
  const segment = fc.oneof(
    fc.constantFrom('', '.', '..', 'a', 'A', 'b', '%2F', '..%2Fx', 'é', '\\', 'x'.repeat(300)),
    fc.string({ maxLength: 3 }),
  );
  const key = fc
    .array(segment, { minLength: 1, maxLength: 4 })
    .map((parts) => parts.join('/'))
    .filter((k) => k.length > 0 && Buffer.byteLength(k) <= 1024);

  it('stores any set of keys side by side and lists exactly those under a prefix, in UTF-8 byte order', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(key, { minLength: 1, maxLength: 12 }),
        fc.string({ maxLength: 3 }),
        (keys, p) => {
          const bucket = mkdtempSync(join(root, 'bucket-'));
          try {
            for (const k of keys) {
              const file = objectPath(bucket, k);
              expect(relative(bucket, file).startsWith('..')).toBe(false);
              mkdirSync(dirname(file), { recursive: true });
              writeFileSync(file, k);
            }
            const prefixes = ['', p, ...keys.map((k) => k.slice(0, Math.ceil(k.length / 2)))];
            for (const prefix of prefixes) {
              const listed = objectsUnder(bucket, prefix).map((o) => o.key);
              expect(listed).toEqual(keys.filter((k) => k.startsWith(prefix)).sort(compareKeys));
            }
          } finally {
            rmSync(bucket, { recursive: true, force: true });
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('keeps `prefix/..%2Fx` and `prefix/../x` inside the prefix they name', () => {
    const bucket = mkdtempSync(join(root, 'escape-'));
    for (const k of ['prefix/..%2Fx', 'prefix/../x', 'prefix/%2e%2e/x'])
      expect(relative(bucket, objectPath(bucket, k)).split(sep)[0]).toBe('prefix');
  });
});
