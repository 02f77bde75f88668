// A REST commit (requirements + updates) as one atomic catalog commit: requirements are checked and updates applied
// on the latest metadata inside the commit attempt; if another writer wins the race, commitWithRetry (the one retry
// layer) rebuilds on the new latest, so requirements are always judged against what the commit replaces. An unmet
// requirement or a refused update throws before anything is published: a failed commit changes nothing.
import { toUri } from '../io/file-io';
import type { TableLayout } from '../io/table-layout';
import { commitWithRetry, loadLatest } from '../table/commit';
import { checkRequirements } from './requirements';
import type { CommittedTable, TableCommit } from './types';
import { applyUpdates } from './updates';

export async function commitTableChanges(
  layout: TableLayout,
  table: string,
  commit: TableCommit,
): Promise<CommittedTable> {
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
