// Athena's Iceberg metadata tables ("t$snapshots", "t$history", "t$files", "t$manifests", "t$partitions",
// "t$refs") as data the SQL front end can bind: rows + typed columns, or a DuckDB relation.
import type { TableHandle, TableMetadata, VersionSelector } from '../contract';
import { LakehouseError } from '../errors';
import { filesTable, manifestsTable, partitionsTable } from './file-tables';
import { historyTable, refsTable, snapshotsTable } from './history-tables';
import { toRelationSql } from './relation-sql';
import { METADATA_TABLE_NAMES, type MetadataTable, type MetadataTableName } from './types';

export { toRelationSql } from './relation-sql';
export { METADATA_TABLE_NAMES } from './types';
export type { MetadataColumn, MetadataTable, MetadataTableName, MetadataValue } from './types';
export { snapshotsTable, historyTable, refsTable, ancestorIds } from './history-tables';
export { filesTable, manifestsTable, partitionsTable } from './file-tables';

/** An unknown metadata table, snapshot, ref or time (names the value and what to use instead). */
export class MetadataTableError extends LakehouseError {
  override readonly name = 'MetadataTableError';
  constructor(message: string, value: unknown) {
    super(message, { value });
  }
}

/** `vpc_flow_logs$files` → { table: 'vpc_flow_logs', kind: 'files' }; null when the name has no `$`. */
export function parseMetadataTableName(name: string): { table: string; kind: MetadataTableName } | null {
  const at = name.lastIndexOf('$');
  if (at < 0) return null;
  const kind = name.slice(at + 1).toLowerCase();
  if (!(METADATA_TABLE_NAMES as readonly string[]).includes(kind)) {
    throw new MetadataTableError(
      `Table '${name}' does not exist: "${kind}" is not an Iceberg metadata table. Use one of ${METADATA_TABLE_NAMES.map((n) => `$${n}`).join(', ')}.`,
      name,
    );
  }
  return { table: name.slice(0, at), kind: kind as MetadataTableName };
}

/** The snapshot a version selector designates (current snapshot of main when none is set). */
export function resolveSnapshotId(metadata: TableMetadata, selector: VersionSelector = {}): number | null {
  if (selector.snapshotId !== undefined) {
    if (!metadata.snapshots.some((s) => s['snapshot-id'] === selector.snapshotId)) {
      throw new MetadataTableError(
        `Snapshot ${selector.snapshotId} does not exist (or was expired); list snapshots with "$snapshots".`,
        selector.snapshotId,
      );
    }
    return selector.snapshotId;
  }
  if (selector.ref !== undefined) {
    const ref = metadata.refs[selector.ref];
    if (!ref)
      throw new MetadataTableError(
        `Ref "${selector.ref}" does not exist; list refs with "$refs".`,
        selector.ref,
      );
    return ref['snapshot-id'];
  }
  if (selector.asOf !== undefined) {
    const at = selector.asOf.getTime();
    let found: number | null = null;
    for (const entry of metadata['snapshot-log'])
      if (entry['timestamp-ms'] <= at) found = entry['snapshot-id'];
    if (found === null)
      throw new MetadataTableError(
        `No snapshot of the table existed at ${selector.asOf.toISOString()}.`,
        selector.asOf,
      );
    return found;
  }
  return metadata['current-snapshot-id'] ?? null;
}

/** Builds one metadata table. `$files`, `$manifests`, `$partitions` honour the version selector. */
export async function buildMetadataTable(
  tableName: string,
  metadata: TableMetadata,
  kind: MetadataTableName,
  selector: VersionSelector = {},
): Promise<MetadataTable> {
  switch (kind) {
    case 'snapshots':
      return snapshotsTable(tableName, metadata);
    case 'history':
      return historyTable(tableName, metadata);
    case 'refs':
      return refsTable(tableName, metadata);
    case 'files':
      return filesTable(tableName, metadata, resolveSnapshotId(metadata, selector));
    case 'manifests':
      return manifestsTable(tableName, metadata, resolveSnapshotId(metadata, selector));
    case 'partitions':
      return partitionsTable(tableName, metadata, resolveSnapshotId(metadata, selector));
  }
}

/** Convenience for a loaded table: the metadata table and its DuckDB relation. */
export async function metadataTable(
  table: TableHandle,
  kind: MetadataTableName,
  selector: VersionSelector = {},
): Promise<MetadataTable & { relationSql: string }> {
  const built = await buildMetadataTable(table.name, await table.metadata(), kind, selector);
  return { ...built, relationSql: toRelationSql(built) };
}
