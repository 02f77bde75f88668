// The report is meant to be shared: nothing in it keeps a machine's paths — not the banner, not an error message
// that quotes a data file or a stack. A path inside the repository becomes relative to it, one under the home folder
// starts with ~, one in the local lake starts at the data folder's name (as the banner shows it), and any other
// absolute path keeps only its last folder.
import { sep } from 'node:path';

export interface PathRoots {
  repoRoot: string;
  home?: string;
  /** The local target's data folder: a path in it is shown from the folder's name on (`…/local/warehouse/…`). */
  dataDir?: string;
}

const trim = (p: string) => p.replace(/[\\/]+$/, '');
const under = (path: string, root: string) => path.startsWith(`${root}/`) || path.startsWith(`${root}${sep}`);
const lastName = (path: string) => trim(path).split(/[\\/]/).filter(Boolean).pop();

/** An absolute path as the report shows it. */
export function shareablePath(path: string, roots: PathRoots): string {
  const repo = trim(roots.repoRoot) || sep;
  const home = roots.home ? trim(roots.home) : undefined;
  const data = roots.dataDir ? trim(roots.dataDir) : undefined;
  if (path === repo) return '.';
  if (under(path, repo)) return path.slice(repo.length + 1);
  if (home && (path === home || under(path, home))) return `~${path.slice(home.length)}`;
  if (data && (path === data || under(path, data))) return `…/${lastName(data)}${path.slice(data.length)}`;
  const last = lastName(path);
  return last ? `…/${last}` : path;
}

// An absolute POSIX path in running text: a slash after a space, "(", "=", quote or line start, then path
// characters; or a file:// URL (a stack's frames of ES modules), whose path is the same.
const ABSOLUTE = /(^|[\s("'=`[])(?:file:\/\/)?(\/[^\s"'(),;`\]]+)/gm;

/** A line with every absolute path in it made shareable (other URLs are left alone: their path follows "//host"). */
export function shareableLine(line: string, roots: PathRoots): string {
  return line.replace(
    ABSOLUTE,
    (_m, before: string, path: string) => `${before}${shareablePath(path, roots)}`,
  );
}

/** A copy of a JSON-like value with every string in it made shareable (keys are left as they are). */
export function shareableValue<T>(value: T, roots: PathRoots): T {
  if (typeof value === 'string') return shareableLine(value, roots) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => shareableValue(v, roots)) as T;
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shareableValue(v, roots)])) as T;
  return value;
}
