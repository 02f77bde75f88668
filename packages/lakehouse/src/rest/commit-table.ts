// A REST commit (requirements + updates) as one atomic catalog commit: requirements are checked and updates applied
// on the latest metadata inside the commit attempt; if another writer wins the race, commitWithRetry (the one retry
// layer) rebuilds on the new latest, so requirements are always judged against what the commit replaces. An unmet
// requirement or a refused update throws before anything is published: a failed commit changes nothing.
import { existsSync } from 'node:fs';
import { InvalidMetadataLocationError } from '../errors';
import { toPath, toUri } from '../io/file-io';
import { isInside } from '../io/stored-paths';
import type { TableLayout } from '../io/table-layout';
import { manifestFilePaths, readManifestList } from '../manifests/manifest-io';
import { commitWithRetry, loadLatest } from '../table/commit';
import { checkRequirements } from './requirements';
import type { CommittedTable, TableCommit } from '../contract';
import { applyUpdates } from './updates';

export async function commitTableChanges(
  layout: TableLayout,
  table: string,
  commit: TableCommit,
): Promise<CommittedTable> {
  for (const update of commit.updates)
    if (update.action === 'add-snapshot') await checkSnapshotFiles(layout, table, update.snapshot);
  const { metadata } = await commitWithRetry(layout, table, async (base) => {
    checkRequirements(base, commit.requirements, table);
    const next = commit.updates.length === 0 ? null : applyUpdates(base, commit.updates, table);
    return { metadata: next, writtenFiles: [], result: null };
  });
  if (metadata === null) {
    const loaded = await loadLatest(layout);
    return { metadata: loaded.metadata, metadataLocation: toUri(layout.metadataFile(loaded.version)) };
  }
  // The published file is the one after the metadata-log's last entry (commitWithRetry appends the replaced file).
  const replaced = metadata['metadata-log'][metadata['metadata-log'].length - 1]?.['metadata-file'] ?? '';
  const version = Number(/v(\d+)\.metadata\.json$/.exec(replaced)?.[1] ?? NaN) + 1;
  return { metadata, metadataLocation: toUri(layout.metadataFile(version)) };
}

/**
 * A snapshot may name only the table's own files: its manifest list, the manifests it lists and the files they list
 * must lie under the table's location (an S3 Tables table reads its own storage only). Otherwise a writer of one
 * table could point it at another table's files, or at any file on the machine, and read them back through it.
 */
async function checkSnapshotFiles(
  layout: TableLayout,
  table: string,
  snapshot: { 'manifest-list'?: unknown },
): Promise<void> {
  const outside = (uri: string, what: string) =>
    new InvalidMetadataLocationError(
      `${table}: the snapshot's ${what} ${uri} is not under the table's location ${layout.location}; write the table's files there.`,
      { value: uri },
    );
  const list = snapshot['manifest-list'];
  if (typeof list !== 'string') return; // applyUpdates refuses it, naming what is missing
  if (!isInside(layout.root, toPath(list))) throw outside(list, 'manifest list');
  if (!existsSync(toPath(list))) return; // a snapshot whose files are not written yet is refused when read
  for (const manifest of await readManifestList(list)) {
    if (!isInside(layout.root, toPath(manifest.manifestPath)))
      throw outside(manifest.manifestPath, 'manifest');
    if (!existsSync(toPath(manifest.manifestPath))) continue;
    for (const file of await manifestFilePaths(manifest.manifestPath))
      if (!isInside(layout.root, toPath(file))) throw outside(file, 'data file');
  }
}
