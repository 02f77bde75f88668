// Removes files under the table location that no metadata references: leftovers of commits that lost a race
// or crashed (data files written but never committed, temp files, manifests of a losing attempt). Every
// vN.metadata.json and the version hint are kept (they are the table's history), and so is anything newer
// than `olderThanMs`, so files of a commit still in flight are not taken (Iceberg and S3 Tables default to
// 3 days; pass 0 only when no writer is running).
import { promises as fs, type Dirent, type Stats } from 'node:fs';
import { join } from 'node:path';
import { LakehouseError } from '../errors';
import { toPath } from '../io/file-io';
import type { IcebergTable } from '../table/table-handle';
import { reachableFiles } from './reachable-files';

export const DEFAULT_ORPHAN_AGE_MS = 3 * 24 * 3_600_000;

export class OrphanRemovalError extends LakehouseError {
  override readonly name = 'OrphanRemovalError';
  constructor(message: string, value: unknown) {
    super(message, { value });
  }
}

async function listFiles(dir: string): Promise<string[]> {
  let entries: Dirent[];
  try {
    entries = await fs.readdir(dir, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const out: string[] = [];
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await listFiles(path)));
    else out.push(path);
  }
  return out;
}

async function removeEmptyDirs(dir: string, keep: string): Promise<void> {
  let entries: Dirent[];
  try {
    entries = await fs.readdir(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) if (entry.isDirectory()) await removeEmptyDirs(join(dir, entry.name), keep);
  if (dir !== keep && (await fs.readdir(dir)).length === 0) await fs.rmdir(dir).catch(() => undefined);
}

export async function removeTableOrphanFiles(
  table: IcebergTable,
  olderThanMs: number = DEFAULT_ORPHAN_AGE_MS,
  now: Date = new Date(),
): Promise<{ deletedFiles: number; deletedBytes: number; deletedPaths: string[] }> {
  if (!Number.isFinite(olderThanMs) || olderThanMs < 0) {
    throw new OrphanRemovalError(
      `olderThanMs must be a non-negative number of milliseconds, got ${olderThanMs}.`,
      olderThanMs,
    );
  }
  const root = table.layout.root;
  // List first, then read metadata: anything committed in between is then seen as referenced.
  const files = await listFiles(root);
  const metadata = await table.metadata();
  const reachable = await reachableFiles(metadata, metadata.snapshots);
  const referenced = new Set<string>([
    ...reachable.manifestLists,
    ...reachable.manifests,
    ...reachable.liveContentFiles,
  ]);
  for (const entry of metadata['metadata-log']) referenced.add(toPath(entry['metadata-file']));
  const cutoff = now.getTime() - olderThanMs;
  let deletedFiles = 0;
  let deletedBytes = 0;
  const deletedPaths: string[] = [];
  for (const path of files) {
    const name = path.slice(path.lastIndexOf('/') + 1);
    if (referenced.has(path) || /^v\d+\.metadata\.json$/.test(name) || name === 'version-hint.text') continue;
    let stat: Stats;
    try {
      stat = await fs.stat(path);
    } catch {
      continue;
    }
    if (stat.mtimeMs > cutoff) continue;
    await fs.rm(path, { force: true });
    deletedFiles++;
    deletedBytes += stat.size;
    deletedPaths.push(path);
  }
  await removeEmptyDirs(join(root, 'data'), join(root, 'data'));
  return { deletedFiles, deletedBytes, deletedPaths };
}
