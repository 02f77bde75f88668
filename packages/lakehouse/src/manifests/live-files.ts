// The files a snapshot references: reads its manifest list and manifests (immutable, so cached by path)
// and returns live data and delete files with their inherited sequence numbers.
import type { Snapshot, TableMetadata } from '../contract';
import { partitionFieldTypes, type PartitionSpec } from '../metadata/partition-spec';
import { specById } from '../metadata/table-metadata';
import type { Schema } from '../contract';
import {
  CONTENT_DATA,
  STATUS_DELETED,
  type LiveFile,
  type ManifestEntry,
  type ManifestFile,
} from './data-file';
import { readManifest, readManifestList } from './manifest-io';

const CACHE_LIMIT = 2000;
const manifestCache = new Map<string, ManifestEntry[]>();
const listCache = new Map<string, ManifestFile[]>();

function remember<T>(cache: Map<string, T>, key: string, value: T): T {
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  cache.set(key, value);
  return value;
}

/** Partition value types of a spec, resolving source columns in any schema (ids are never reused). */
export function specPartitionTypes(meta: TableMetadata, spec: PartitionSpec): string[] {
  const fields = new Map<number, Schema['fields'][number]>();
  for (const schema of meta.schemas) for (const f of schema.fields) fields.set(f.id, f);
  const union: Schema = { 'schema-id': -1, type: 'struct', fields: [...fields.values()] };
  return partitionFieldTypes(spec, union);
}

export async function readManifestListCached(path: string): Promise<ManifestFile[]> {
  return listCache.get(path) ?? remember(listCache, path, await readManifestList(path));
}

export async function readManifestCached(
  meta: TableMetadata,
  manifest: ManifestFile,
): Promise<ManifestEntry[]> {
  const cached = manifestCache.get(manifest.manifestPath);
  if (cached) return cached;
  const types = specPartitionTypes(meta, specById(meta, manifest.partitionSpecId));
  return remember(manifestCache, manifest.manifestPath, await readManifest(manifest, types));
}

export interface SnapshotFiles {
  manifests: ManifestFile[];
  dataFiles: LiveFile[];
  deleteFiles: LiveFile[];
}

function toLive(entry: ManifestEntry, specId: number): LiveFile {
  return {
    file: entry.dataFile,
    specId,
    sequenceNumber: entry.sequenceNumber,
    fileSequenceNumber: entry.fileSequenceNumber,
    snapshotId: entry.snapshotId,
  };
}

/** Live files of a snapshot; `keepManifest` lets scans skip whole manifests by their partition summaries. */
export async function snapshotFiles(
  meta: TableMetadata,
  snapshot: Snapshot | null,
  keepManifest: (m: ManifestFile) => boolean = () => true,
): Promise<SnapshotFiles> {
  if (!snapshot) return { manifests: [], dataFiles: [], deleteFiles: [] };
  const manifests = await readManifestListCached(snapshot['manifest-list']);
  const dataFiles: LiveFile[] = [];
  const deleteFiles: LiveFile[] = [];
  for (const manifest of manifests) {
    if (!keepManifest(manifest)) continue;
    for (const entry of await readManifestCached(meta, manifest)) {
      if (entry.status === STATUS_DELETED) continue;
      (entry.dataFile.content === CONTENT_DATA ? dataFiles : deleteFiles).push(
        toLive(entry, manifest.partitionSpecId),
      );
    }
  }
  return { manifests, dataFiles, deleteFiles };
}
