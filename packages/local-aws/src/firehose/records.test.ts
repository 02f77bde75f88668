import { describe, expect, test } from '@jest/globals';
import type { Schema } from '@loglake/lakehouse';
import { fromEpochMicros, isoMillisUtc, RecordMapper } from './records';

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

  test('the ISO fast check agrees with the regular expression and Date.parse on every edge of every part', () => {
    // Prepare: each part at and around its limits, plus non-digits and wrong separators.
    const years = ['0000', '0001', '1969', '1970', '2024', '9999', '20a4', '-001'];
    const twos = [
      '00',
      '01',
      '09',
      '12',
      '13',
      '23',
      '24',
      '28',
      '29',
      '30',
      '31',
      '32',
      '59',
      '60',
      '99',
      'x1',
      ' 1',
    ];
    const millis = ['000', '001', '999', '0a0', '00'];
    const reference = (s: string) =>
      /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(s) && !Number.isNaN(Date.parse(s));
    const candidates: string[] = [];
    for (const y of years)
      for (const mo of twos) for (const d of twos) candidates.push(`${y}-${mo}-${d}T10:20:30.456Z`);
    for (const h of twos)
      for (const mi of twos)
        for (const sec of twos)
          for (const ms of millis) candidates.push(`2024-05-01T${h}:${mi}:${sec}.${ms}Z`);
    candidates.push(
      '2024-05-01T10:20:30.456',
      '2024-05-01 10:20:30.456Z',
      '2024-05-01T10:20:30,456Z',
      '2024/05/01T10:20:30.456Z',
    );

    // Act
    const disagreements = candidates.filter((s) => isoMillisUtc(s) !== reference(s));

    // Assess
    expect(candidates.length).toBeGreaterThan(20_000);
    expect(disagreements).toEqual([]);
  });

  test('validating only and mapping agree on verdict, code and flags for native and converted values of every type', () => {
    // Prepare
    const wide: Schema = {
      'schema-id': 0,
      type: 'struct',
      fields: [
        { id: 1, name: 's', type: 'string', required: false },
        { id: 2, name: 'i', type: 'int', required: false },
        { id: 3, name: 'l', type: 'long', required: false },
        { id: 4, name: 'd', type: 'double', required: false },
        { id: 5, name: 'b', type: 'boolean', required: false },
        { id: 6, name: 't', type: 'timestamp', required: false },
      ],
    };
    const values: Record<string, unknown[]> = {
      s: ['x', 5, true, {}],
      i: [443, 2147483648, -2147483649, 443.5, '443', 'x', 2 ** 53 + 2],
      l: [1, 9007199254740991, 2 ** 60, '12', '99999999999999999999', 1.5],
      d: [0.5, 2, '2.5', 'NaN', true],
      b: [true, 'false', 1],
      t: [
        '2024-05-01T10:00:00.000Z',
        '2024-05-01T24:00:00.000Z',
        '2024-05-01 10:00:00',
        1714557600000000,
        1.5,
        'x',
      ],
    };
    const mapper = new RecordMapper(wide);
    for (const [column, list] of Object.entries(values))
      for (const value of list) {
        const data = Buffer.from(JSON.stringify({ [column]: value }));
        // Act
        const mapped = mapper.map(data);
        const validated = mapper.map(data, false);
        // Assess
        const { row: _row, ...rest } = mapped as { row?: unknown };
        const { row: _none, ...validatedRest } = validated as { row?: unknown };
        expect({ column, value, ...validatedRest }).toEqual({ column, value, ...rest });
      }
  });
});
