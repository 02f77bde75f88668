// The files a set of snapshots reaches: manifest lists, manifests, and the data and delete files their
// manifest entries name. Expiry deletes what only expired snapshots reach; orphan removal keeps all of it.
import type { Snapshot, TableMetadata } from '../contract';
import { toPath } from '../io/file-io';
import { STATUS_DELETED } from '../manifests/data-file';
import { readManifestCached, readManifestListCached } from '../manifests/live-files';

export interface ReachableFiles {
  manifestLists: Set<string>;
  manifests: Set<string>;
  /** Data and delete files with a live (ADDED/EXISTING) entry in some snapshot. */
  liveContentFiles: Set<string>;
  /** Data and delete files named by any entry, DELETED entries included. */
  anyContentFiles: Set<string>;
}

/** Paths (not URIs) of everything `snapshots` reach. */
export async function reachableFiles(
  metadata: TableMetadata,
  snapshots: readonly Snapshot[],
): Promise<ReachableFiles> {
  const out: ReachableFiles = {
    manifestLists: new Set(),
    manifests: new Set(),
    liveContentFiles: new Set(),
    anyContentFiles: new Set(),
  };
  const seenManifests = new Set<string>();
  for (const snapshot of snapshots) {
    out.manifestLists.add(toPath(snapshot['manifest-list']));
    for (const manifest of await readManifestListCached(snapshot['manifest-list'])) {
      out.manifests.add(toPath(manifest.manifestPath));
      if (seenManifests.has(manifest.manifestPath)) continue;
      seenManifests.add(manifest.manifestPath);
      for (const entry of await readManifestCached(metadata, manifest)) {
        const path = toPath(entry.dataFile.filePath);
        out.anyContentFiles.add(path);
        if (entry.status !== STATUS_DELETED) out.liveContentFiles.add(path);
      }
    }
  }
  return out;
}
