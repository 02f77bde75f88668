import { describe, test, expect } from '@jest/globals';
import type { Snapshot, TableMetadata } from '../contract';
import { metadataWithSnapshots } from '../../test/metadata/testing';
import { planSnapshotExpiry, ExpirePolicyError } from './expire-plan';

const HOUR = 3_600_000;
const NOW = new Date('2026-11-29T12:00:00Z');

function snapshot(id: number, ageHours: number, parent?: number): Snapshot {
  return {
    'snapshot-id': id,
    ...(parent === undefined ? {} : { 'parent-snapshot-id': parent }),
    'sequence-number': id,
    'timestamp-ms': NOW.getTime() - ageHours * HOUR,
    'manifest-list': `file:///t/metadata/snap-${id}.avro`,
    summary: { operation: 'append' },
    'schema-id': 0,
  };
}

/** A chain 1 ← 2 ← … ← n, snapshot i committed (n - i + 1) × 24 hours ago... newest 1 hour ago. */
function chain(ages: number[], refs: TableMetadata['refs'] = {}): TableMetadata {
  const snapshots = ages.map((age, i) => snapshot(i + 1, age, i === 0 ? undefined : i));
  return metadataWithSnapshots('file:///t', snapshots, {
    'last-updated-ms': NOW.getTime(),
    refs: { main: { 'snapshot-id': snapshots.length, type: 'branch' }, ...refs },
  });
}

describe('planSnapshotExpiry', () => {
  test('keeps snapshots younger than the max age and at least the minimum count', () => {
    // Prepare: five snapshots aged 100h, 80h, 50h, 10h, 1h.
    const metadata = chain([100, 80, 50, 10, 1]);
    // Act: max age 24h, keep at least 3.
    const plan = planSnapshotExpiry(metadata, {
      minSnapshotsToKeep: 3,
      maxSnapshotAgeMs: 24 * HOUR,
      now: NOW,
    });
    // Assess
    expect(plan.retainedSnapshotIds).toEqual([3, 4, 5]);
    expect(plan.expiredSnapshotIds).toEqual([1, 2]);
    expect(plan.metadata['snapshot-log'].map((e) => e['snapshot-id'])).toEqual([3, 4, 5]);
  });

  test('a young history keeps everything even with minSnapshotsToKeep 1', () => {
    const plan = planSnapshotExpiry(chain([5, 3, 1]), {
      minSnapshotsToKeep: 1,
      maxSnapshotAgeMs: 24 * HOUR,
      now: NOW,
    });
    expect(plan.expiredSnapshotIds).toEqual([]);
  });

  test('a tag keeps its old snapshot alive (the tag that breaks automatic cleanup)', () => {
    const metadata = chain([100, 80, 50, 10, 1], { audit: { 'snapshot-id': 1, type: 'tag' } });
    const plan = planSnapshotExpiry(metadata, {
      minSnapshotsToKeep: 1,
      maxSnapshotAgeMs: 24 * HOUR,
      now: NOW,
    });
    expect(plan.retainedSnapshotIds).toEqual([1, 4, 5]);
    expect(plan.reasons[1]).toEqual(['tag audit']);
    expect(plan.metadata.refs.audit).toBeDefined();
  });

  test('a tag older than its max-ref-age is dropped and stops protecting its snapshot', () => {
    const metadata = chain([100, 80, 50, 10, 1], {
      audit: { 'snapshot-id': 1, type: 'tag', 'max-ref-age-ms': 48 * HOUR },
    });
    const plan = planSnapshotExpiry(metadata, {
      minSnapshotsToKeep: 1,
      maxSnapshotAgeMs: 24 * HOUR,
      now: NOW,
    });
    expect(plan.expiredRefs).toEqual(['audit']);
    expect(plan.metadata.refs.audit).toBeUndefined();
    expect(plan.expiredSnapshotIds).toEqual([1, 2, 3]);
  });

  test('main is never expired, whatever its age', () => {
    const metadata = chain([500, 400]);
    metadata.refs.main = { 'snapshot-id': 2, type: 'branch', 'max-ref-age-ms': 1 };
    const plan = planSnapshotExpiry(metadata, { minSnapshotsToKeep: 1, maxSnapshotAgeMs: HOUR, now: NOW });
    expect(plan.retainedSnapshotIds).toEqual([2]);
    expect(plan.expiredRefs).toEqual([]);
  });

  test('a branch with its own min-snapshots-to-keep overrides the table default', () => {
    const metadata = chain([100, 80, 50, 10, 1]);
    metadata.refs.main = { 'snapshot-id': 5, type: 'branch', 'min-snapshots-to-keep': 4 };
    const plan = planSnapshotExpiry(metadata, {
      minSnapshotsToKeep: 1,
      maxSnapshotAgeMs: HOUR / 2,
      now: NOW,
    });
    expect(plan.retainedSnapshotIds).toEqual([2, 3, 4, 5]);
  });

  test('rejects a policy that would keep nothing, naming the value', () => {
    expect(() =>
      planSnapshotExpiry(chain([1]), { minSnapshotsToKeep: 0, maxSnapshotAgeMs: HOUR, now: NOW }),
    ).toThrow(ExpirePolicyError);
    expect(() =>
      planSnapshotExpiry(chain([1]), { minSnapshotsToKeep: 1, maxSnapshotAgeMs: -5, now: NOW }),
    ).toThrow(/-5/);
  });
});
