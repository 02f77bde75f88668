import { randomBytes } from 'node:crypto';
import type { TableMetadata } from '../contract';

/** A new positive snapshot id below 2^53 (JSON and Avro readers turn longs into JS numbers). */
export function newSnapshotId(meta: TableMetadata): number {
  const used = new Set(meta.snapshots.map((s) => s['snapshot-id']));
  for (;;) {
    const id = Number(randomBytes(8).readBigUInt64BE() & ((1n << 53n) - 1n));
    if (id > 0 && !used.has(id)) return id;
  }
}
