// Emptying a local lake: exactly the files an inspection listed (local-lake.ts) are removed, each only if it is still
// the file that was inspected (same size), then the folder's bookkeeping and the folders left empty. A file that
// appeared or changed in between is kept and named, so the count the lab printed before is the count removed.
import { existsSync, lstatSync, readdirSync, rmdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { assertDataFolderFree } from '@loglake/local-aws';
import { isBookkeeping, lakeFiles, type FileCount } from './local-lake';

export interface LakeRemoval extends FileCount {
  /** Files still there (appeared or changed after the inspection): path → size. */
  kept: Map<string, number>;
}

/** Removes the folders under `dir` (and `dir`) that hold nothing; a folder with anything left stays. */
function removeEmptyFolders(dir: string): boolean {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return !existsSync(dir);
  }
  let empty = true;
  for (const entry of entries) {
    const full = join(dir, entry);
    const s = lstatSync(full, { throwIfNoEntry: false });
    if (s?.isDirectory()) empty = removeEmptyFolders(full) && empty;
    else if (s) empty = false;
  }
  if (!empty) return false;
  try {
    rmdirSync(dir);
    return true;
  } catch {
    return false; // something arrived meanwhile
  }
}

/**
 * Removes `planned` (path → size, as inspected) from the lake in `dir`, then its bookkeeping — the manifest, a stale
 * lock — and every folder left empty. Refuses a folder a live endpoint holds before removing anything.
 */
export function removeLakeFiles(dir: string, planned: ReadonlyMap<string, number>): LakeRemoval {
  if (!existsSync(dir)) return { files: 0, bytes: 0, kept: new Map() };
  // A folder another process holds (a running `pnpm lab local`, a lab: the data-folder lock) is refused before
  // anything is removed; a lock left by a killed process is stale and does not hold it.
  assertDataFolderFree(dir, 'emptying it');
  const removed = { files: 0, bytes: 0 };
  for (const [path, size] of planned) {
    const full = join(dir, ...path.split('/'));
    const s = lstatSync(full, { throwIfNoEntry: false });
    if (!s || s.isDirectory() || s.size !== size) continue;
    rmSync(full, { force: true });
    removed.files++;
    removed.bytes += size;
  }
  const kept = lakeFiles(dir);
  if (kept.size === 0) {
    // The bookkeeping goes last, with nothing of the lake left: the manifest, a stale lock and its aside files.
    const walk = (d: string, rel: string) => {
      for (const entry of readdirSync(d)) {
        const full = join(d, entry);
        const path = rel ? `${rel}/${entry}` : entry;
        if (lstatSync(full).isDirectory()) walk(full, path);
        else if (isBookkeeping(path)) rmSync(full, { force: true });
      }
    };
    walk(dir, '');
  }
  removeEmptyFolders(dir);
  return { ...removed, kept };
}

/** A removal that kept files: what to say about them. */
export function keptNote(removal: LakeRemoval): string {
  if (removal.kept.size === 0) return '';
  const paths = [...removal.kept.keys()];
  return (
    ` ${paths.length} file${paths.length === 1 ? '' : 's'} appeared or changed after the lake was looked at and ` +
    `${paths.length === 1 ? 'was' : 'were'} kept: ${paths.slice(0, 5).join(', ')}${paths.length > 5 ? ', …' : ''}.`
  );
}
