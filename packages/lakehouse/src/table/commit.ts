// The commit protocol: build the next metadata from the latest committed version, publish it as
// v(N+1).metadata.json with create-if-absent (hard link, EEXIST = another writer won), then move the
// version hint. On conflict: clean up this attempt's files, back off, reload and rebuild (the builder
// re-validates against the new base), up to a limit; then CommitConflictError. This is the engine's one
// commit-retry loop: callers recognise its failure by type (CommitConflictError), never retry around it.
import type { CommitOptions, CommitResult, TableMetadata } from '../contract';
import { CommitConflictError, NoSuchTableError } from '../errors';
import { createExclusive, exists, readText, removeUris, toUri } from '../io/file-io';
import type { TableLayout } from '../io/table-layout';
import { parseMetadata, serializeMetadata } from '../metadata/table-metadata';

export interface LoadedMetadata {
  metadata: TableMetadata;
  version: number;
}

export async function loadLatest(layout: TableLayout): Promise<LoadedMetadata> {
  const version = await layout.latestVersion();
  const path = layout.metadataFile(version);
  const text = await readText(path);
  if (text === null) {
    // A handle outliving its table (dropped, or its files removed): say so instead of failing on a read.
    throw new NoSuchTableError(
      `Table metadata ${path} does not exist: the table was dropped or its files removed. Load the table again from the catalog.`,
      { value: path },
    );
  }
  return { metadata: parseMetadata(text, path), version };
}

export interface BuiltCommit<T> {
  /** null = nothing to commit. */
  metadata: TableMetadata | null;
  /** Files this attempt wrote that the metadata references only if it wins. */
  writtenFiles: string[];
  result: T;
}

/** What a write that changed nothing returns (no snapshot). */
export const NOTHING: CommitResult = {
  snapshot: null,
  addedRows: 0,
  deletedRows: 0,
  addedFiles: 0,
  addedDeleteFiles: 0,
  rewrittenFiles: 0,
};

const MAX_ATTEMPTS = 25;
const MAX_METADATA_LOG = 100;

/** Test hook: crash the process at a named point of the protocol (crash-safety tests). */
function crashPoint(point: string): void {
  if (process.env['LOGLAKE_CRASH_AT'] === point) process.kill(process.pid, 'SIGKILL');
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * `loaded`: metadata the caller read earlier (an append reads it before writing its data files), used for the
 * first attempt while it is still the newest version; if another commit landed since, that attempt starts from
 * the latest instead of building a commit certain to lose. `faults.simulateConflict` makes an attempt lose its
 * race as a concurrent writer would (its files cleaned up, then the same backoff and retry).
 */
export async function commitWithRetry<T>(
  layout: TableLayout,
  table: string,
  build: (base: TableMetadata, attempt: number) => Promise<BuiltCommit<T>>,
  loaded?: LoadedMetadata,
  faults: Pick<CommitOptions, 'simulateConflict'> = {},
): Promise<{ result: T; metadata: TableMetadata | null; attempts: number }> {
  for (let attempt = 0; ; attempt++) {
    const fresh = attempt === 0 && loaded && !(await exists(layout.metadataFile(loaded.version + 1)));
    const { metadata: base, version } = fresh ? loaded : await loadLatest(layout);
    const built = await build(base, attempt);
    if (built.metadata === null) return { result: built.result, metadata: null, attempts: attempt + 1 };
    const next: TableMetadata = {
      ...built.metadata,
      'last-updated-ms': Math.max(Date.now(), base['last-updated-ms'], built.metadata['last-updated-ms']),
      'metadata-log': [
        ...base['metadata-log'],
        { 'metadata-file': toUri(layout.metadataFile(version)), 'timestamp-ms': base['last-updated-ms'] },
      ].slice(-MAX_METADATA_LOG),
    };
    crashPoint('before-publish');
    const lost = faults.simulateConflict?.(attempt + 1) === true;
    if (!lost && (await createExclusive(layout.metadataFile(version + 1), serializeMetadata(next)))) {
      crashPoint('after-publish');
      await layout.writeVersionHint(version + 1).catch(() => undefined);
      return { result: built.result, metadata: next, attempts: attempt + 1 };
    }
    await removeUris(built.writtenFiles);
    if (attempt + 1 >= MAX_ATTEMPTS) {
      throw new CommitConflictError(
        `Could not commit to ${table}: ${MAX_ATTEMPTS} attempts lost to concurrent writers. Retry later or reduce concurrency.`,
        { value: table },
      );
    }
    await sleep(Math.min(1000, 5 * 2 ** Math.min(attempt, 8)) * (0.5 + Math.random()));
  }
}
