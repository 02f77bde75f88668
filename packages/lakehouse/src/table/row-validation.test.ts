import { describe, expect, test } from '@jest/globals';
import { buildSchema } from '../metadata/schema';
import { validateRows } from './row-validation';

const schema = buildSchema(0, [
  { name: 'id', type: 'long', required: true },
  { name: 'port', type: 'int' },
  { name: 'start_time', type: 'timestamp' },
  { name: 'ok', type: 'boolean' },
]);

describe('validateRows (what the local Firehose routes to its error output)', () => {
  test('accepts and coerces per row; rejects with reasons naming column, value and fix', () => {
    // Prepare
    const rows = [
      { id: 1, port: '443', start_time: '2024-05-01T10:00:00Z', ok: 'true' },
      { id: 2, port: 1.5 },
      { port: 80 },
      { id: 3, extra: 'x' },
      'not an object',
      { ID: '4', START_TIME: '2024-05-01 10:00:00.5' },
      { id: 5, start_time: 1714557600 },
    ];
    // Act
    const result = validateRows(schema, rows);
    // Assess
    expect(result.acceptedIndexes).toEqual([0, 5]);
    expect(result.accepted[0]).toEqual({
      id: 1n,
      port: 443,
      start_time: '2024-05-01 10:00:00.000000',
      ok: true,
    });
    expect(result.accepted[1]).toEqual({
      id: 4n,
      port: null,
      start_time: '2024-05-01 10:00:00.500000',
      ok: null,
    });
    expect(result.rejected.map((r) => [r.index, r.reason])).toEqual([
      [1, "column 'port' (int): 1.5 is not an integer"],
      [2, "required column 'id' (long) is missing or null"],
      [
        3,
        "column 'extra' is not in the table (columns: id, port, start_time, ok); remove it or add the column",
      ],
      [4, 'record is not a JSON object (got string); send one object per record'],
      [6, expect.stringContaining("column 'start_time' (timestamp): expected a timestamp")],
    ]);
    // Accepted rows validate again unchanged (Firehose appends them).
    expect(validateRows(schema, result.accepted).accepted).toEqual(result.accepted);
  });

  test('unknown columns can be ignored instead', () => {
    expect(validateRows(schema, [{ id: 1, extra: 1 }], { ignoreUnknownColumns: true }).rejected).toEqual([]);
  });
});
