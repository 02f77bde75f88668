// The report is meant to be shared: the lines it quotes (the banner) keep no machine's paths. A path inside the
// repository becomes relative to it, one under the home folder starts with ~, and any other absolute path keeps
// only its last folder.
import { sep } from 'node:path';

export interface PathRoots {
  repoRoot: string;
  home?: string;
}

const trim = (p: string) => p.replace(/[\\/]+$/, '');

/** An absolute path as the report shows it. */
export function shareablePath(path: string, roots: PathRoots): string {
  const repo = trim(roots.repoRoot) || sep;
  const home = roots.home ? trim(roots.home) : undefined;
  if (path === repo) return '.';
  if (path.startsWith(`${repo}${sep}`) || path.startsWith(`${repo}/`)) return path.slice(repo.length + 1);
  if (home && (path === home || path.startsWith(`${home}/`))) return `~${path.slice(home.length)}`;
  const last = trim(path).split(/[\\/]/).filter(Boolean).pop();
  return last ? `…/${last}` : path;
}

// An absolute POSIX path in running text: a slash after a space, "(", "=", quote or line start, then path characters.
const ABSOLUTE = /(^|[\s("'=])(\/[^\s"'(),;]+)/g;

/** A line with every absolute path in it made shareable (URLs are left alone: their path follows "//host"). */
export function shareableLine(line: string, roots: PathRoots): string {
  return line.replace(
    ABSOLUTE,
    (_m, before: string, path: string) => `${before}${shareablePath(path, roots)}`,
  );
}
