// Local file IO: URIs ↔ paths, atomic create-if-absent (the commit point) and atomic replace.
import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
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

async function writeTemp(dir: string, data: string | Uint8Array): Promise<string> {
  await fs.mkdir(dir, { recursive: true });
  const temp = join(dir, `.tmp-${randomUUID()}`);
  const handle = await fs.open(temp, 'wx');
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
  return temp;
}

/**
 * Writes `data` to `path` only if `path` does not exist, atomically: a durable temp file is hard-linked into
 * place (link fails with EEXIST when another writer won; rename would silently overwrite). Returns false if
 * the path already existed. Readers never see a partial file.
 */
export async function createExclusive(path: string, data: string | Uint8Array): Promise<boolean> {
  const temp = await writeTemp(dirname(path), data);
  try {
    await fs.link(temp, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    await fs.rm(temp, { force: true });
  }
}

/** Replaces `path` atomically (temp + rename): readers see the old or the new content. */
export async function replaceAtomically(path: string, data: string | Uint8Array): Promise<void> {
  const temp = await writeTemp(dirname(path), data);
  try {
    await fs.rename(temp, path);
  } catch (error) {
    await fs.rm(temp, { force: true });
    throw error;
  }
}

export async function exists(path: string): Promise<boolean> {
  try {
    await fs.access(path);
    return true;
  } catch {
    return false;
  }
}

export async function readText(path: string): Promise<string | null> {
  try {
    return await fs.readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

export async function fileSize(path: string): Promise<number> {
  return (await fs.stat(path)).size;
}
