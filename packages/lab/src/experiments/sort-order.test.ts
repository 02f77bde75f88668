// The sort order's 20x goal is the benchmark's line, with the figures behind it; never a check of the lab's.
import { describe, expect, test } from '@jest/globals';
import { compressionGoalLine } from './sort-order';

describe("the benchmark's compression goal", () => {
  const sort = { recordsAfter: 48_606, jsonBytesPerRecord: 290.8, storedBytesAfter: 919_368 };

  test('the ratio with its raw figures, and how far from the goal', () => {
    expect(compressionGoalLine(sort)).toBe(
      'P4 sorted compaction, JSON ÷ Parquet for the rows the table holds: 48,606 rows × 290.8 B = 13.5 MiB of JSON ÷ ' +
        '898 KiB of Parquet = 15.4× (goal ≥ 20×: 1.30× short)',
    );
  });

  test('met when the sorted files are small enough; not measured without the figures', () => {
    expect(compressionGoalLine({ ...sort, storedBytesAfter: 600_000 })).toMatch(
      /= 23\.6× \(goal ≥ 20×: met\)$/,
    );
    expect(compressionGoalLine({ storedBytesBefore: 1 })).toBe(
      'P4 sorted compaction, JSON ÷ Parquet for the rows the table holds: not measured (goal ≥ 20×)',
    );
  });
});
