// Local file IO: URIs ↔ paths, atomic create-if-absent (the commit point) and atomic replace.
// Metadata files are small (KBs, page-cached): they are read and written with synchronous calls, which take
// microseconds, instead of one event-loop round trip per step — a commit has about thirty, and a busy loop
// (the local endpoint serving PutRecordBatch) made each of those cost milliseconds.
import { randomUUID } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Stored locations are absolute `file://` URIs, as Iceberg requires absolute URIs in metadata. The path is
 * kept verbatim (not percent-encoded): DuckDB opens `file://` paths as written and reports them back
 * byte-identical in its filename column, which is what position deletes must reference.
 */
export function toUri(path: string): string {
  return `file://${path}`;
}

export function toPath(uri: string): string {
  return uri.startsWith('file://') ? uri.slice('file://'.length) : uri;
}

/**
 * Removes files or staging directories by URI (or path), ignoring those already gone: what a write or commit
 * that lost cleans up. Unlinks are synchronous for the same reason as the metadata IO above.
 */
export async function removeUris(uris: readonly string[]): Promise<void> {
  for (const uri of uris) rmSync(toPath(uri), { recursive: true, force: true });
}

function writeTemp(dir: string, data: string | Uint8Array, durable: boolean): string {
  mkdirSync(dir, { recursive: true });
  const temp = join(dir, `.tmp-${randomUUID()}`);
  const fd = openSync(temp, 'wx');
  try {
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    for (let written = 0; written < bytes.length;) written += writeSync(fd, bytes, written);
    if (durable) fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return temp;
}

/**
 * Writes `data` to `path` only if `path` does not exist, atomically: a durable temp file is hard-linked into
 * place (link fails with EEXIST when another writer won; rename would silently overwrite). Returns false if
 * the path already existed. Readers never see a partial file.
 */
export async function createExclusive(path: string, data: string | Uint8Array): Promise<boolean> {
  const temp = writeTemp(dirname(path), data, true);
  try {
    linkSync(temp, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    rmSync(temp, { force: true });
  }
}

/**
 * Replaces `path` atomically (temp + rename): readers see the old or the new content. `durable: false` skips
 * the fsync, for files that are only hints (version-hint.text: readers probe past it for newer versions).
 */
export async function replaceAtomically(
  path: string,
  data: string | Uint8Array,
  options: { durable?: boolean } = {},
): Promise<void> {
  const temp = writeTemp(dirname(path), data, options.durable ?? true);
  try {
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

export async function exists(path: string): Promise<boolean> {
  return existsSync(path);
}

export async function readText(path: string): Promise<string | null> {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
