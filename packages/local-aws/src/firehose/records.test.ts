import { describe, expect, test } from '@jest/globals';
import type { Schema } from '@loglake/lakehouse';
import { fromEpochMicros, RecordMapper } from './records';

const schema: Schema = {
  'schema-id': 0,
  type: 'struct',
  fields: [
    { id: 1, name: 'start_time', type: 'timestamp', required: false },
    { id: 2, name: 'srcaddr', type: 'string', required: false },
  ],
};

function mapRecord(record: unknown) {
  return new RecordMapper(schema).map(Buffer.from(JSON.stringify(record)));
}

describe('Firehose record mapping of timestamps', () => {
  test('an epoch number is read as microseconds, as the Iceberg destination documents', () => {
    // Prepare: 2024-05-01 10:00:00.123456 UTC in microseconds
    const micros = Date.UTC(2024, 4, 1, 10, 0, 0, 123) * 1000 + 456;

    // Act
    const outcome = mapRecord({ start_time: micros, srcaddr: '10.0.1.10' });

    // Assess
    expect(outcome).toEqual({
      ok: true,
      canonical: true,
      microsColumns: ['start_time'],
      textTimestampColumns: [],
      row: { start_time: '2024-05-01 10:00:00.123456', srcaddr: '10.0.1.10' },
    });
  });

  test('microseconds before 1970 floor to the right second', () => {
    expect(fromEpochMicros(-1)).toBe('1969-12-31 23:59:59.999999');
    expect(fromEpochMicros(0)).toBe('1970-01-01 00:00:00.000000');
  });

  test('ISO strings still map, and a fractional epoch number is a schema misfit', () => {
    expect(mapRecord({ start_time: '2024-05-01T10:00:00.000Z' })).toMatchObject({ ok: true });
    expect(mapRecord({ start_time: 1.5 })).toMatchObject({ ok: false, errorCode: 'Iceberg.SchemaMismatch' });
  });

  test('validating only (the raw path) gives the same verdicts as mapping, impossible dates included', () => {
    // Prepare: the ISO shape with month 13, an epoch beyond what a date holds, valid forms of each kind
    const values = [
      '2024-13-01T10:00:00.000Z',
      '2024-02-30T10:00:00.000Z',
      '2024-05-01T10:00:00.000Z',
      '2024-05-01 10:00:00',
      'yesterday',
      Date.UTC(2024, 4, 1) * 1000,
      9e18,
      -1,
    ];
    const mapper = new RecordMapper(schema);
    for (const start_time of values) {
      const data = Buffer.from(JSON.stringify({ start_time }));
      // Act
      const mapped = mapper.map(data);
      const validated = mapper.map(data, false);
      // Assess
      expect({ start_time, ok: validated.ok }).toEqual({ start_time, ok: mapped.ok });
    }
    expect(mapRecord({ start_time: '2024-13-01T10:00:00.000Z' })).toMatchObject({
      ok: false,
      errorCode: 'Iceberg.SchemaMismatch',
    });
  });
});
