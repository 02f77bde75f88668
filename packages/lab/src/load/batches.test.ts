import { describe, test, expect } from '@jest/globals';
import { packBatches, FIREHOSE_LIMITS, type OutgoingRecord } from './batches';

const record = (id: string, bytes: number): OutgoingRecord => ({ id, data: new Uint8Array(bytes) });

describe('packBatches', () => {
  test('no batch exceeds 500 records', () => {
    const { batches } = packBatches(Array.from({ length: 1201 }, (_, i) => record(`r${i}`, 300)));
    expect(batches.map((b) => b.length)).toEqual([500, 500, 201]);
  });

  test('no batch exceeds 4 MiB, and order is kept', () => {
    const records = Array.from({ length: 10 }, (_, i) => record(`r${i}`, 900 * 1024));
    const { batches } = packBatches(records);
    for (const b of batches) {
      expect(b.reduce((n, r) => n + r.data.byteLength, 0)).toBeLessThanOrEqual(FIREHOSE_LIMITS.bytesPerBatch);
    }
    expect(batches.flat().map((r) => r.id)).toEqual(records.map((r) => r.id));
    expect(batches).toHaveLength(3);
  });

  test('a record over 1,000 KiB is set aside, not sent', () => {
    const { batches, oversized } = packBatches([
      record('ok', 10),
      record('big', 1000 * 1024 + 1),
      record('ok2', 10),
    ]);
    expect(oversized.map((r) => r.id)).toEqual(['big']);
    expect(batches.flat().map((r) => r.id)).toEqual(['ok', 'ok2']);
  });
});
