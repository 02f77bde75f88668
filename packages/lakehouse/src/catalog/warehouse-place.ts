// A warehouse is usable only at the place its tables were made. Iceberg records absolute locations (the table's
// `location`, manifest lists, manifests, data files), and the catalog keeps each table's location: a warehouse
// folder that was copied or moved still points at the original's files, so reads and WRITES would land there
// (and the copy loses its tables when the original is emptied). Opening checks every table and refuses such a
// folder; relocating would mean rewriting Iceberg metadata, which the engine does not do.
import { realpathSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import { LakehouseError, type LakehouseErrorOptions } from '../errors';
import { readText, toPath } from '../io/file-io';
import { isInside, namedPath } from '../io/stored-paths';
import { TableLayout } from '../io/table-layout';
import type { CatalogStore, TableRecord } from './catalog-store';

export interface OutsideTable {
  /** `bucket/namespace.table` */
  table: string;
  /** The location found outside the warehouse (a catalog entry's, or its current metadata's `location`). */
  location: string;
  /** The warehouse folder the table was made in, when the location has the engine's own layout. */
  origin?: string;
}

/** A warehouse folder whose tables live elsewhere (a copied or moved folder): opening it is refused. */
export class WarehouseNotInPlaceError extends LakehouseError {
  override readonly name = 'WarehouseNotInPlaceError';
  constructor(
    message: string,
    /** The warehouse folder that was opened (resolved). */
    readonly warehouse: string,
    /** The first table found outside it. */
    readonly outside: OutsideTable,
    options: LakehouseErrorOptions = {},
  ) {
    super(message, { value: outside.location, ...options });
  }
}

/** The real path when it exists (so a symlinked or /private/tmp-style path compares equal), else the resolved one. */
function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/**
 * The warehouse folder a table location was made under: tables are made at `<dir>/warehouse/<bucket>/<namespace>/
 * <name>-<id>` (CatalogStore.newTableLocation), so `<dir>` is what precedes that layout; undefined when it is not it.
 */
function originOf(store: CatalogStore, record: TableRecord, path: string): string | undefined {
  const parent = relative(
    store.dataDir,
    namedPath(store.dataDir, ['warehouse', record.bucket, record.namespace]),
  );
  const at = path.lastIndexOf(`${sep}${parent}${sep}`);
  return at > 0 ? path.slice(0, at) : undefined;
}

/** The current metadata file's `location`, when it can be read (unreadable metadata is reported when it is used). */
async function metadataLocation(record: TableRecord): Promise<string | undefined> {
  try {
    const layout = new TableLayout(record.location);
    const version = await layout.latestVersion();
    if (version === 0) return undefined;
    const text = await readText(layout.metadataFile(version));
    const location = text === null ? undefined : (JSON.parse(text) as { location?: unknown }).location;
    return typeof location === 'string' ? location : undefined;
  } catch {
    return undefined;
  }
}

/** The first table whose catalog location or current metadata location is not under the warehouse folder. */
async function firstOutside(store: CatalogStore, root: string): Promise<OutsideTable | undefined> {
  for (const bucket of await store.listBuckets()) {
    for (const { namespace } of await store.listNamespaces(bucket.name)) {
      for (const record of await store.listTables(bucket.name, namespace)) {
        const table = `${bucket.name}/${namespace}.${record.name}`;
        for (const location of [record.location, await metadataLocation(record)]) {
          if (location === undefined || isInside(root, real(toPath(location)))) continue;
          const origin = originOf(store, record, resolve(toPath(location)));
          return { table, location, ...(origin ? { origin } : {}) };
        }
      }
    }
  }
  return undefined;
}

/** Throws WarehouseNotInPlaceError when a table of the warehouse in `store.dataDir` lives outside that folder. */
export async function checkWarehouseInPlace(store: CatalogStore): Promise<void> {
  const root = real(store.dataDir);
  const outside = await firstOutside(store, root);
  if (!outside) return;
  const from = outside.origin
    ? `it was copied or moved from ${outside.origin}`
    : 'it was copied or moved from another folder';
  throw new WarehouseNotInPlaceError(
    `The warehouse ${resolve(store.dataDir)} cannot be opened: its table ${outside.table} lives at ` +
      `${outside.location}, outside this folder (${from}). Iceberg records absolute locations, so a copy would ` +
      `read and write the original's files: use the original folder${outside.origin ? ` (${outside.origin})` : ''}, ` +
      'or start on an empty folder.',
    resolve(store.dataDir),
    outside,
  );
}
