// A deterministic zip of a directory, for Lambda deployment packages. cdktf's ARCHIVE assets zip at every synth in
// a child process (~0.6 s per bundle) and stamp each entry with its mtime; this writes the zip once, next to the
// cached bundle, with sorted entries, a fixed timestamp and deflate level 9: same files → same bytes → same hash.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';
import { crc32, deflateRawSync } from 'node:zlib';
import { StacksError } from '../lib/errors';

// 1980-01-01 00:00:00, the zip (DOS) epoch: no build clock in the bytes.
const DOS_TIME = 0;
const DOS_DATE = (0 << 9) | (1 << 5) | 1;
const VERSION_NEEDED = 20; // 2.0: deflate
const MADE_BY_UNIX = (3 << 8) | 20;
const UNIX_FILE_MODE = 0o100644; // regular file, rw-r--r--: the Lambda runtime user can read it
const FLAG_UTF8_NAMES = 1 << 11;
const MAX_ENTRIES = 0xffff; // beyond needs zip64, which a Lambda bundle never does
const MAX_BYTES = 0xffffffff;

export class ZipError extends StacksError {
  override name = 'ZipError';
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true })
    .map(String)
    .filter((f) => statSync(join(dir, f)).isFile())
    .map((f) => f.split(sep).join('/'))
    .sort();
}

/** Zips every file under `dir` (paths relative to it, `/`-separated) into one Buffer. */
export function zipDirectory(dir: string): Buffer {
  const names = filesUnder(dir);
  if (names.length === 0) throw new ZipError(`${dir} holds no files: nothing to zip`, { value: dir });
  if (names.length > MAX_ENTRIES)
    throw new ZipError(`${dir} holds ${names.length} files, more than a zip without zip64 can`, {
      value: dir,
    });
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const name of names) {
    const data = readFileSync(join(dir, name));
    const deflated = deflateRawSync(data, { level: 9 });
    if (data.length > MAX_BYTES || offset > MAX_BYTES)
      throw new ZipError(`${name} in ${dir} is too large for a zip without zip64`, { value: name });
    const crc = crc32(data);
    const fileName = Buffer.from(name, 'utf8');

    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(VERSION_NEEDED, 4);
    local.writeUInt16LE(FLAG_UTF8_NAMES, 6);
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt16LE(DOS_TIME, 10);
    local.writeUInt16LE(DOS_DATE, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(deflated.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(fileName.length, 26);
    local.writeUInt16LE(0, 28);

    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(MADE_BY_UNIX, 4);
    central.writeUInt16LE(VERSION_NEEDED, 6);
    central.writeUInt16LE(FLAG_UTF8_NAMES, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt16LE(DOS_TIME, 12);
    central.writeUInt16LE(DOS_DATE, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(deflated.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(fileName.length, 28);
    // extra, comment, disk number start, internal attributes: 0
    central.writeUInt32LE((UNIX_FILE_MODE << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);

    locals.push(local, fileName, deflated);
    centrals.push(central, fileName);
    offset += local.length + fileName.length + deflated.length;
  }
  const centralDirectory = Buffer.concat(centrals);
  if (offset > MAX_BYTES) throw new ZipError(`${dir} is too large for a zip without zip64`, { value: dir });
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(names.length, 8);
  end.writeUInt16LE(names.length, 10);
  end.writeUInt32LE(centralDirectory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, centralDirectory, end]);
}
