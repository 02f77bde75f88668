import { describe, test, expect } from '@jest/globals';
import type { LiveFile } from '../manifests/data-file';
import { planCompaction, CompactionPolicyError } from './compaction-plan';

const MiB = 1024 * 1024;

function file(path: string, size: number, hour: number, seq = 1, content = 0): LiveFile {
  return {
    file: {
      content,
      filePath: path,
      fileFormat: 'PARQUET',
      partition: [hour],
      recordCount: 100,
      fileSizeInBytes: size,
      columnSizes: new Map(),
      valueCounts: new Map(),
      nullValueCounts: new Map(),
      nanValueCounts: new Map(),
      lowerBounds: new Map(),
      upperBounds: new Map(),
      keyMetadata: null,
      splitOffsets: null,
      equalityIds: null,
      sortOrderId: null,
      referencedDataFile: null,
    },
    specId: 0,
    sequenceNumber: seq,
    fileSequenceNumber: seq,
    snapshotId: seq,
  };
}

const policy = { targetFileSizeBytes: 128 * MiB };

describe('planCompaction', () => {
  test('merges small files per partition and leaves big ones alone', () => {
    // Prepare: hour 1 has two small files and one big; hour 2 has one small file alone.
    const files = {
      dataFiles: [file('a', MiB, 1), file('b', 2 * MiB, 1), file('big', 120 * MiB, 1), file('c', MiB, 2)],
      deleteFiles: [],
    };
    // Act
    const plan = planCompaction(files, new Map(), policy);
    // Assess
    expect(plan.groups).toHaveLength(1);
    expect(plan.groups[0]?.dataFiles.map((f) => f.file.filePath).sort()).toEqual(['a', 'b']);
    expect(plan.loneSmallFiles).toBe(1);
    expect(plan.smallFileThresholdBytes).toBe(96 * MiB);
    expect(plan.summary).toMatch(/^Rewriting 2 data file\(s\) \(3\.0 MiB\) in 1 partition/);
  });

  test('finds nothing to do when every partition has one file and no deletes, and says why', () => {
    const plan = planCompaction(
      { dataFiles: [file('a', MiB, 1), file('b', MiB, 2)], deleteFiles: [] },
      new Map(),
      policy,
    );
    expect(plan.groups).toEqual([]);
    expect(plan.summary).toMatch(
      /^Nothing to compact: 2 data file\(s\) and 0 delete file\(s\).*2 small file\(s\) alone/,
    );
  });

  test('a file with deletes is rewritten even alone, and the delete file pulls in every file it targets', () => {
    const del = file('d', 1000, 1, 3, 1);
    const files = {
      dataFiles: [file('big1', 120 * MiB, 1), file('big2', 120 * MiB, 1), file('big3', 120 * MiB, 1)],
      deleteFiles: [del],
    };
    const plan = planCompaction(files, new Map([['d', ['big1', 'big2']]]), policy);
    expect(plan.groups).toHaveLength(1);
    expect(plan.groups[0]?.dataFiles.map((f) => f.file.filePath).sort()).toEqual(['big1', 'big2']);
    expect(plan.groups[0]?.deleteFiles.map((f) => f.file.filePath)).toEqual(['d']);
    expect(plan.summary).toContain('applying 1 position-delete file(s)');
  });

  test('deletes older than the data file do not apply (sequence numbers)', () => {
    const del = file('d', 1000, 1, 1, 1);
    const plan = planCompaction(
      { dataFiles: [file('new', 120 * MiB, 1, 2)], deleteFiles: [del] },
      new Map([['d', ['new']]]),
      policy,
    );
    expect(plan.groups).toEqual([]);
  });

  test('a bad target size is refused with the value', () => {
    expect(() =>
      planCompaction({ dataFiles: [], deleteFiles: [] }, new Map(), { targetFileSizeBytes: 0 }),
    ).toThrow(CompactionPolicyError);
    expect(() =>
      planCompaction({ dataFiles: [], deleteFiles: [] }, new Map(), {
        targetFileSizeBytes: 10,
        minFileSizeBytes: 20,
      }),
    ).toThrow(/got 20/);
  });
});
