import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, inflateRawSync } from 'node:zlib';
import { zipDirectory, ZipError } from './zip';

interface Entry {
  name: string;
  data: Buffer;
  mode: number;
}

// Reads a zip the way unzip does: from the end-of-central-directory record through the central directory to each
// local header, checking sizes and CRCs on the way.
function readZip(zip: Buffer): Entry[] {
  const end = zip.length - 22;
  expect(zip.readUInt32LE(end)).toBe(0x06054b50);
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  expect(at + zip.readUInt32LE(end + 12)).toBe(end);
  const entries: Entry[] = [];
  for (let i = 0; i < count; i++) {
    expect(zip.readUInt32LE(at)).toBe(0x02014b50);
    const crc = zip.readUInt32LE(at + 16);
    const compressed = zip.readUInt32LE(at + 20);
    const size = zip.readUInt32LE(at + 24);
    const nameLength = zip.readUInt16LE(at + 28);
    const mode = zip.readUInt32LE(at + 38) >>> 16;
    const local = zip.readUInt32LE(at + 42);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    expect(zip.readUInt32LE(local)).toBe(0x04034b50);
    expect(zip.toString('utf8', local + 30, local + 30 + zip.readUInt16LE(local + 26))).toBe(name);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = inflateRawSync(zip.subarray(start, start + compressed));
    expect(data.length).toBe(size);
    expect(crc32(data)).toBe(crc);
    entries.push({ name, data, mode });
    at += 46 + nameLength;
  }
  return entries;
}

describe('zipDirectory', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'zip-test-'));
    mkdirSync(join(dir, 'sql', 'snapshots'), { recursive: true });
    writeFileSync(join(dir, 'index.mjs'), 'export const handler = async () => 42;\n'.repeat(50));
    writeFileSync(join(dir, 'sql', 'snapshots', 'b.sql.njk'), 'SELECT {{ x }}\n');
    writeFileSync(join(dir, 'sql', 'snapshots', 'a.sql.njk'), '');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('holds every file under its relative posix path, sorted, readable by its own headers', () => {
    // Prepare / Act
    const entries = readZip(zipDirectory(dir));

    // Assess
    expect(entries.map((e) => e.name)).toEqual([
      'index.mjs',
      'sql/snapshots/a.sql.njk',
      'sql/snapshots/b.sql.njk',
    ]);
    expect(entries[0]?.data.toString()).toBe('export const handler = async () => 42;\n'.repeat(50));
    expect(entries[1]?.data.length).toBe(0);
    expect(entries[2]?.data.toString()).toBe('SELECT {{ x }}\n');
    expect(entries.every((e) => e.mode === 0o100644)).toBe(true);
  });

  test('same files give the same bytes, whatever their timestamps', () => {
    // Prepare
    const first = zipDirectory(dir);
    utimesSync(join(dir, 'index.mjs'), new Date('2031-05-06'), new Date('2031-05-06'));

    // Act
    const second = zipDirectory(dir);

    // Assess
    expect(second.equals(first)).toBe(true);
  });

  test('different contents give different bytes', () => {
    // Prepare
    const before = zipDirectory(dir);
    writeFileSync(join(dir, 'sql', 'snapshots', 'a.sql.njk'), '-- changed\n');

    // Act
    const after = zipDirectory(dir);

    // Assess
    expect(after.equals(before)).toBe(false);
  });

  test('an empty directory is refused with its path', () => {
    // Prepare
    const empty = mkdtempSync(join(tmpdir(), 'zip-empty-'));

    // Act / Assess
    try {
      expect(() => zipDirectory(empty)).toThrow(ZipError);
      expect(() => zipDirectory(empty)).toThrow(`${empty} holds no files`);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
