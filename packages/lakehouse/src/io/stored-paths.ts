// The one mapping from stored names to paths on disk. Every store of the engine and the local endpoint (table
// buckets, namespaces, tables, S3 buckets and object keys, Firehose streams, sessions, Glue names, query ids, alarms)
// turns a name into a path here and nowhere else, so a name never becomes a path of its own: each name is encoded
// into one or more path components that cannot be `.`, `..`, empty, or hold a separator, and every result is
// checked to lie under its root.
//
// The encoding is reversible (listing a folder gives the names back) and injective even on case-insensitive,
// normalising file systems (macOS, Windows): bytes outside `[a-z0-9._=-]` — upper-case letters included — are written
// `%XX` (upper-case hex), and so is a leading `.`. Names that already are lower-case identifiers (S3 Tables and Glue
// names, stream names, UUIDs) are their own encoding, so existing folders keep their layout.
//
// Reserved (never produced by the escaping, because every `%` it writes is followed by two hex digits):
//   `%`   alone: the empty name;  `…%+`: a long name continues in the next component (names are cut into components
//   of at most COMPONENT_BYTES so a 1 KiB name fits the file system's 255-byte limit);  `…%` at the end of a file
//   name: an S3 object (so an object `a` and an object `a/b` can both exist: file `a%` beside folder `a`). Components
//   starting with `.` are the stores' own (temporary files).
import { readdirSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { LakehouseError } from '../errors';

/** A name the mapping cannot represent (not well-formed Unicode), or a path that would leave its root. */
export class StoredNameError extends LakehouseError {
  override readonly name = 'StoredNameError';
}

/** Longest component the encoding writes, leaving room for a suffix and a temporary file's `.<uuid>.tmp`. */
export const COMPONENT_BYTES = 200;
const CONTINUES = '%+';
const EMPTY = '%';
/** Appended to the last component of an S3 object's file. */
export const OBJECT_MARKER = '%';

const SAFE = new Uint8Array(256);
for (const c of 'abcdefghijklmnopqrstuvwxyz0123456789._=-') SAFE[c.charCodeAt(0)] = 1;
const HEX = '0123456789ABCDEF';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function utf8(name: string): Buffer {
  if (LONE_SURROGATE.test(name)) {
    throw new StoredNameError(
      `The name ${JSON.stringify(name)} is not well-formed Unicode (a lone surrogate): it cannot be stored.`,
      { value: name },
    );
  }
  return Buffer.from(name, 'utf8');
}

/** The escaped units of a name: each is one safe character or one `%XX`. */
function escapedUnits(name: string): string[] {
  const units: string[] = [];
  const bytes = utf8(name);
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i] as number;
    const safe = SAFE[b] === 1 && !(i === 0 && b === 0x2e);
    units.push(safe ? String.fromCharCode(b) : `%${HEX[b >> 4]}${HEX[b & 15]}`);
  }
  return units;
}

/** One name as path components (usually one; long names several, all but the last ending in `%+`). */
export function encodeName(name: string): string[] {
  const units = escapedUnits(name);
  if (units.length === 0) return [EMPTY];
  const components: string[] = [];
  let current = '';
  for (const unit of units) {
    if (current.length + unit.length > COMPONENT_BYTES - CONTINUES.length) {
      components.push(current + CONTINUES);
      current = '';
    }
    current += unit;
  }
  components.push(current);
  return components;
}

/** The name a run of components spells (the inverse of encodeName); undefined for a component it never writes. */
export function decodeName(components: readonly string[]): string | undefined {
  let text = '';
  for (let i = 0; i < components.length; i++) {
    const c = components[i] as string;
    const last = i === components.length - 1;
    if (!last) {
      if (!c.endsWith(CONTINUES)) return undefined;
      text += c.slice(0, -CONTINUES.length);
    } else if (c === EMPTY) {
      if (components.length > 1) return undefined;
    } else text += c;
  }
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 0x25) {
      const hex = text.slice(i + 1, i + 3);
      if (!/^[0-9A-F]{2}$/.test(hex)) return undefined;
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else if (SAFE[ch] === 1 && !(bytes.length === 0 && ch === 0x2e)) bytes.push(ch);
    else return undefined;
  }
  const name = Buffer.from(bytes).toString('utf8');
  // Only the encoding's own output decodes: anything else (a file put there by hand) is not a stored name.
  return encodeName(name).join('/') === components.join('/') ? name : undefined;
}

/** `root/<components>` after checking each component and that the result lies under root. */
export function containedPath(root: string, components: readonly string[]): string {
  const base = resolve(root);
  for (const c of components) {
    if (c === '' || c === '.' || c === '..' || c.includes('/') || c.includes('\\') || c.includes('\0'))
      throw new StoredNameError(`The path component ${JSON.stringify(c)} is not allowed under ${base}.`, {
        value: c,
      });
  }
  const path = resolve(base, ...components);
  if (!isInside(base, path))
    throw new StoredNameError(`${path} is outside ${base}.`, { value: components.join('/') });
  return path;
}

/** True when `path` is `root` itself or lies under it (both resolved). */
export function isInside(root: string, path: string): boolean {
  const rel = relative(resolve(root), resolve(path));
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/**
 * The path of a record named by a sequence of names under `root` (`['glue', 'tables', db, table]`), the last
 * component carrying `suffix` (e.g. `.json`).
 */
export function namedPath(root: string, names: readonly string[], suffix = ''): string {
  const components = names.flatMap(encodeName);
  if (suffix && components.length > 0) components[components.length - 1] += suffix;
  return containedPath(root, components);
}

/**
 * The names of the records directly in the folder `names` names under `root`, whose files end in `suffix` (a name
 * cut into several components is found through its `%+` folders). Sorted; anything that is not a stored name is
 * skipped.
 */
export function listNames(root: string, names: readonly string[], suffix: string): string[] {
  const dir = namedPath(root, names);
  const found: string[] = [];
  const walk = (folder: string, prefix: string[]) => {
    let entries;
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    for (const entry of entries) {
      if (entry.isDirectory() && entry.name.endsWith(CONTINUES)) {
        walk(join(folder, entry.name), [...prefix, entry.name]);
      } else if (entry.isFile() && entry.name.endsWith(suffix) && entry.name.length > suffix.length) {
        const name = decodeName([...prefix, entry.name.slice(0, entry.name.length - suffix.length)]);
        if (name !== undefined) found.push(name);
      }
    }
  };
  walk(dir, []);
  return found.sort();
}

/** The components of an S3 object key: each `/`-separated segment encoded, the last with the object marker. */
export function objectKeyComponents(key: string): string[] {
  const segments = key.split('/');
  const components = segments.flatMap((segment) => encodeName(segment));
  components[components.length - 1] += OBJECT_MARKER;
  return components;
}

/** The file holding the object `key` in the bucket folder `bucketDir`. */
export function objectPath(bucketDir: string, key: string): string {
  return containedPath(bucketDir, objectKeyComponents(key));
}

/** The folder holding the objects whose keys start with `prefix` followed by a segment end (`a/b/` → `a/b`). */
function prefixFolder(prefix: string): { components: string[]; rest: string } {
  const cut = prefix.lastIndexOf('/');
  if (cut < 0) return { components: [], rest: prefix };
  return {
    components: prefix
      .slice(0, cut)
      .split('/')
      .flatMap((s) => encodeName(s)),
    rest: prefix.slice(cut + 1),
  };
}

export interface StoredObject {
  key: string;
  path: string;
}

/** Compares keys as S3 lists them: by their UTF-8 bytes. */
export function compareKeys(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/**
 * Every object in the bucket folder whose key starts with `prefix`, in S3's order (UTF-8 bytes), with its file. Only
 * the folders the prefix can reach are walked; files and folders the encoding does not write are skipped.
 */
export function objectsUnder(bucketDir: string, prefix = ''): StoredObject[] {
  const start = prefixFolder(prefix);
  let base: string;
  try {
    base = containedPath(bucketDir, start.components);
  } catch (error) {
    if (error instanceof StoredNameError) return [];
    throw error;
  }
  const keyPrefix = prefix.slice(0, prefix.length - start.rest.length);
  const found: StoredObject[] = [];
  // `segments`: whole segments decoded so far; `pending`: the components of a segment cut into several.
  const walk = (folder: string, segments: string[], pending: string[], top: boolean) => {
    let entries;
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return;
      throw error;
    }
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const path = join(folder, entry.name);
      if (entry.isDirectory()) {
        if (entry.name.endsWith(CONTINUES)) {
          walk(path, segments, [...pending, entry.name], top);
          continue;
        }
        const segment = decodeName([...pending, entry.name]);
        if (segment === undefined) continue;
        // Below the prefix's folder, a key continues `<segment>/…`: it can match only if that starts with the rest.
        if (top && !`${segment}/`.startsWith(start.rest)) continue;
        walk(path, [...segments, segment], [], false);
      } else if (entry.isFile() && entry.name.endsWith(OBJECT_MARKER)) {
        const segment = decodeName([...pending, entry.name.slice(0, -OBJECT_MARKER.length)]);
        if (segment === undefined) continue;
        const key = keyPrefix + [...segments, segment].join('/');
        if (key.startsWith(prefix)) found.push({ key, path });
      }
    }
  };
  walk(base, [], [], true);
  return found.sort((a, b) => compareKeys(a.key, b.key));
}
