import { describe, expect, test } from '@jest/globals';
import type { TableMetadata } from '@loglake/lakehouse/iceberg';
import { commitSummary, committedGeneration } from './log-commits';

const LOG = '5f0c8a2e-1b2c-4d3e-8f9a-0b1c2d3e4f5a';
const snapshot = (id: number, schemaId: number, summary: Record<string, string>) => ({
  'snapshot-id': id,
  'schema-id': schemaId,
  summary: { operation: 'append', ...summary },
});
const table = (...snapshots: ReturnType<typeof snapshot>[]) => ({ snapshots }) as unknown as TableMetadata;
const gen = (g: number, logId = LOG) =>
  commitSummary('loglake-01-vpc-flow-logs', logId, g, [
    { seq: g * 10 } as never,
    { seq: g * 10 + 9 } as never,
  ]);

describe('committedGeneration: is a replayed generation already in the table?', () => {
  test('its own snapshot says so, with the schema its commit was checked against', () => {
    expect(committedGeneration(table(snapshot(1, 0, gen(3)), snapshot(2, 1, gen(4))), LOG, 3)).toEqual({
      schemaId: 0,
    });
  });

  test('its own snapshot expired, a later generation of the same log committed: still committed (no second append)', () => {
    expect(committedGeneration(table(snapshot(2, 1, gen(5))), LOG, 3)).toEqual({ schemaId: undefined });
  });

  test('only earlier generations, other logs or other writers: not committed', () => {
    const other = '00000000-0000-4000-8000-000000000000';
    expect(committedGeneration(table(snapshot(1, 0, gen(2))), LOG, 3)).toBeUndefined();
    expect(committedGeneration(table(snapshot(1, 0, gen(7, other))), LOG, 3)).toBeUndefined();
    expect(committedGeneration(table(snapshot(1, 0, {})), LOG, 3)).toBeUndefined();
  });
});
