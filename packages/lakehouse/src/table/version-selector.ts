// Resolving which snapshot and schema a read sees: current, by snapshot id, as of a timestamp, or by ref.
import type { Schema, Snapshot, TableMetadata, VersionSelector } from '../contract';
import { InvalidExpressionError, NoSuchRefError, NoSuchSnapshotError } from '../errors';
import { branchHead, currentSchema, schemaById, snapshotById } from '../metadata/table-metadata';

export interface ResolvedVersion {
  snapshot: Snapshot | null;
  schema: Schema;
}

export function resolveVersion(
  meta: TableMetadata,
  selector: VersionSelector,
  table: string,
): ResolvedVersion {
  const set = [selector.snapshotId, selector.asOf, selector.ref].filter((v) => v !== undefined);
  if (set.length > 1) {
    throw new InvalidExpressionError('Choose one of snapshotId, asOf or ref to time travel, not several.', {
      value: selector,
    });
  }
  const snapshotSchema = (s: Snapshot) => schemaById(meta, s['schema-id'] ?? meta['current-schema-id']);
  if (selector.snapshotId !== undefined) {
    const snapshot = snapshotById(meta, selector.snapshotId);
    return { snapshot, schema: snapshotSchema(snapshot) };
  }
  if (selector.asOf !== undefined) {
    const at = selector.asOf.getTime();
    const entries = meta['snapshot-log'].filter((e) => e['timestamp-ms'] <= at);
    const entry = entries[entries.length - 1];
    if (!entry) {
      const first = meta['snapshot-log'][0];
      throw new NoSuchSnapshotError(
        `${table} has no snapshot at or before ${selector.asOf.toISOString()}` +
          (first
            ? `; its first snapshot was committed at ${new Date(first['timestamp-ms']).toISOString()}.`
            : '; it has no snapshots yet.'),
        { value: selector.asOf },
      );
    }
    const snapshot = snapshotById(meta, entry['snapshot-id']);
    return { snapshot, schema: snapshotSchema(snapshot) };
  }
  if (selector.ref !== undefined) {
    const ref = meta.refs[selector.ref];
    if (!ref) {
      throw new NoSuchRefError(
        `${table} has no tag or branch '${selector.ref}'; its refs are ${Object.keys(meta.refs).join(', ') || 'none'}.`,
        { value: selector.ref },
      );
    }
    const snapshot = snapshotById(meta, ref['snapshot-id']);
    // A tag pins a snapshot (and its schema); a branch is read with the table's current schema.
    return { snapshot, schema: ref.type === 'tag' ? snapshotSchema(snapshot) : currentSchema(meta) };
  }
  return { snapshot: branchHead(meta, 'main'), schema: currentSchema(meta) };
}
