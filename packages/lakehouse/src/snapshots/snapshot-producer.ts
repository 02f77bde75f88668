// Produces a new snapshot from file changes: writes new manifests (ADDED entries), rewrites manifests that
// lose files (DELETED + EXISTING entries with explicit sequence numbers), writes the manifest list, builds
// the summary, and returns the next table metadata with refs and snapshot-log moved. Nothing here commits.
import type { Snapshot, SnapshotSummary, TableMetadata } from '../contract';
import { CommitConflictError } from '../errors';
import {
  CONTENT_DATA,
  STATUS_ADDED,
  STATUS_DELETED,
  STATUS_EXISTING,
  type DataFile,
  type ManifestEntry,
  type ManifestFile,
} from '../manifests/data-file';
import { readManifestCached, readManifestListCached, specPartitionTypes } from '../manifests/live-files';
import { writeManifest, writeManifestList } from '../manifests/manifest-io';
import type { PartitionSpec } from '../metadata/partition-spec';
import { branchHead, currentSchema, specById } from '../metadata/table-metadata';
import { removeUris } from '../io/file-io';
import type { TableLayout } from '../io/table-layout';
import { newSnapshotId } from './snapshot-id';
import { buildSummary } from './summary';

export interface AddedFile {
  file: DataFile;
  /** Defaults to the table's default spec. */
  specId?: number;
}

export interface FileChanges {
  operation: SnapshotSummary['operation'];
  branch?: string;
  added: AddedFile[];
  /** Paths (URIs) of live data or delete files this snapshot removes. */
  removed: string[];
  extraSummary?: Record<string, string>;
}

export interface ProducedSnapshot {
  metadata: TableMetadata;
  snapshot: Snapshot;
  /** Manifest and manifest-list files written (to clean up if the commit loses). */
  writtenFiles: string[];
}

export async function produceSnapshot(
  base: TableMetadata,
  layout: TableLayout,
  changes: FileChanges,
  now = Date.now(),
): Promise<ProducedSnapshot> {
  const written: string[] = [];
  try {
    return await produce(base, layout, changes, now, written);
  } catch (error) {
    // Nothing references this attempt's manifests: remove them rather than leave orphans.
    await removeUris(written);
    throw error;
  }
}

async function produce(
  base: TableMetadata,
  layout: TableLayout,
  changes: FileChanges,
  now: number,
  written: string[],
): Promise<ProducedSnapshot> {
  const branch = changes.branch ?? 'main';
  const parent = branchHead(base, branch);
  const sequenceNumber = base['last-sequence-number'] + 1;
  const snapshotId = newSnapshotId(base);
  const schema = currentSchema(base);
  const manifests: ManifestFile[] = [];
  const removed = new Set(changes.removed);
  const removedFiles: DataFile[] = [];
  // Every manifest this attempt writes belongs to the new snapshot, under the current schema.
  const newManifest = async (
    spec: PartitionSpec,
    content: number,
    entries: ManifestEntry[],
  ): Promise<ManifestFile> => {
    const path = layout.uri(layout.newManifestPath());
    written.push(path);
    return writeManifest({
      path,
      schema,
      spec,
      partitionTypes: specPartitionTypes(base, spec),
      content,
      snapshotId,
      sequenceNumber,
      entries,
    });
  };

  // Carry the parent's manifests; rewrite those that lose files.
  const parentManifests = parent ? await readManifestListCached(parent['manifest-list']) : [];
  for (const manifest of parentManifests) {
    const entries = await readManifestCached(base, manifest);
    if (!entries.some((e) => e.status !== STATUS_DELETED && removed.has(e.dataFile.filePath))) {
      manifests.push(manifest);
      continue;
    }
    const rewritten: ManifestEntry[] = [];
    for (const entry of entries) {
      if (entry.status === STATUS_DELETED) continue;
      if (removed.has(entry.dataFile.filePath)) {
        removedFiles.push(entry.dataFile);
        removed.delete(entry.dataFile.filePath);
        rewritten.push({ ...entry, status: STATUS_DELETED, snapshotId });
      } else {
        rewritten.push({ ...entry, status: STATUS_EXISTING });
      }
    }
    manifests.push(await newManifest(specById(base, manifest.partitionSpecId), manifest.content, rewritten));
  }
  if (removed.size > 0) {
    throw new CommitConflictError(
      `Files this commit removes are no longer live (another writer removed or rewrote them): ${[...removed].slice(0, 3).join(', ')}. Re-read the table and retry.`,
      { value: [...removed] },
    );
  }

  // New manifests: one per (content, spec).
  const groups = new Map<string, { content: number; specId: number; files: AddedFile[] }>();
  for (const added of changes.added) {
    const content = added.file.content === CONTENT_DATA ? 0 : 1;
    const specId = added.specId ?? base['default-spec-id'];
    const key = `${content}:${specId}`;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { content, specId, files: [] }));
    group.files.push(added);
  }
  const newManifests: ManifestFile[] = [];
  for (const { content, specId, files } of groups.values()) {
    const entries = files.map((f) => ({
      status: STATUS_ADDED,
      snapshotId,
      sequenceNumber,
      fileSequenceNumber: sequenceNumber,
      dataFile: f.file,
    }));
    newManifests.push(await newManifest(specById(base, specId), content, entries));
  }
  const allManifests = [...newManifests, ...manifests];

  const listPath = layout.uri(layout.newManifestListPath(snapshotId));
  written.push(listPath);
  await writeManifestList(listPath, allManifests, {
    snapshotId,
    parentSnapshotId: parent ? parent['snapshot-id'] : null,
    sequenceNumber,
  });

  const summary = buildSummary({
    operation: changes.operation,
    parent,
    added: changes.added.map((a) => a.file),
    removed: removedFiles,
    extra: changes.extraSummary,
  });
  const snapshot: Snapshot = {
    'snapshot-id': snapshotId,
    ...(parent ? { 'parent-snapshot-id': parent['snapshot-id'] } : {}),
    'sequence-number': sequenceNumber,
    'timestamp-ms': Math.max(now, base['last-updated-ms']),
    'manifest-list': listPath,
    summary,
    'schema-id': schema['schema-id'],
  };
  const metadata = withSnapshot(base, snapshot, branch);
  return { metadata, snapshot, writtenFiles: written };
}

/** Next metadata: snapshot added, the branch moved to it, snapshot-log appended when main moves. */
export function withSnapshot(base: TableMetadata, snapshot: Snapshot, branch: string): TableMetadata {
  const refs = { ...base.refs };
  refs[branch] = { ...(refs[branch] ?? {}), 'snapshot-id': snapshot['snapshot-id'], type: 'branch' };
  const isMain = branch === 'main';
  return {
    ...base,
    'last-sequence-number': snapshot['sequence-number'],
    'last-updated-ms': snapshot['timestamp-ms'],
    snapshots: [...base.snapshots, snapshot],
    refs,
    'current-snapshot-id': isMain ? snapshot['snapshot-id'] : (base['current-snapshot-id'] ?? null),
    'snapshot-log': isMain
      ? [
          ...base['snapshot-log'],
          { 'snapshot-id': snapshot['snapshot-id'], 'timestamp-ms': snapshot['timestamp-ms'] },
        ]
      : base['snapshot-log'],
  };
}
