import { describe, expect, test } from '@jest/globals';
import type { Schema } from '@loglake/lakehouse/iceberg';
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
    });
  });

  test('a canonical line gives each timestamp in its column form, keeping the microseconds either way', () => {
    // Prepare: micros, a text with an offset, and a case-folded key, none of them canonical as the part needs
    const micros = Date.UTC(2024, 4, 1, 10, 0, 0, 123) * 1000 + 456;
    const mapper = new RecordMapper(schema);
    const line = (record: unknown, forms: Map<string, 'micros' | 'text'>) =>
      JSON.parse(mapper.canonicalLine(Buffer.from(JSON.stringify(record)), forms).toString()) as unknown;

    // Act
    const asText = line({ START_TIME: micros, srcaddr: 5 }, new Map([['start_time', 'text']]));
    const asMicros = line(
      { start_time: '2024-05-01T12:00:00.123+02:00' },
      new Map([['start_time', 'micros']]),
    );
    const forms = new Map<string, 'micros' | 'text'>();
    const firstDecides = line({ start_time: micros }, forms);

    // Assess
    expect(asText).toEqual({ start_time: '2024-05-01 10:00:00.123456', srcaddr: '5' });
    expect(asMicros).toEqual({ start_time: Date.UTC(2024, 4, 1, 10, 0, 0, 123) * 1000 });
    expect(firstDecides).toEqual({ start_time: micros });
    expect(forms.get('start_time')).toBe('micros');
  });

  test('microseconds before 1970 floor to the right second', () => {
    expect(fromEpochMicros(-1)).toBe('1969-12-31 23:59:59.999999');
    expect(fromEpochMicros(0)).toBe('1970-01-01 00:00:00.000000');
  });

  test('ISO strings still map, and a fractional epoch number is a schema misfit', () => {
    expect(mapRecord({ start_time: '2024-05-01T10:00:00.000Z' })).toMatchObject({ ok: true });
    expect(mapRecord({ start_time: 1.5 })).toMatchObject({ ok: false, errorCode: 'Iceberg.SchemaMismatch' });
  });

  test('impossible dates and out-of-range epochs are misfits, valid forms of each kind are not', () => {
    // Prepare: the ISO shape with month 13 and February 30, an epoch beyond 2^53, valid forms of each kind
    const verdicts = [
      ['2024-13-01T10:00:00.000Z', false],
      ['2024-02-30T10:00:00.000Z', false],
      ['yesterday', false],
      [9e18, false],
      ['2024-05-01T10:00:00.000Z', true],
      ['2024-05-01 10:00:00', true],
      [Date.UTC(2024, 4, 1) * 1000, true],
      [-1, true],
    ] as const;
    const mapper = new RecordMapper(schema);
    // Act
    const seen = verdicts.map(([start_time]) => [
      start_time,
      mapper.map(Buffer.from(JSON.stringify({ start_time }))).ok,
    ]);
    // Assess
    expect(seen).toEqual(verdicts.map(([value, ok]) => [value, ok]));
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

  test('every accepted value of every type has a canonical line, and only native values keep the raw bytes', () => {
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
        { id: 7, name: 'n', type: 'decimal(6,2)', required: false },
        { id: 8, name: 'day', type: 'date', required: false },
      ],
    };
    const values: Record<string, [unknown, unknown][]> = {
      // [value, what its canonical line holds (undefined = a misfit)]
      s: [
        ['x', 'x'],
        [5, '5'],
        [true, 'true'],
        [{}, undefined],
      ],
      i: [
        [443, 443],
        [2147483648, undefined],
        [443.5, undefined],
        ['443', 443],
        ['x', undefined],
      ],
      l: [
        [1, 1],
        ['12', 12],
        ['99999999999999999999', undefined],
        [1.5, undefined],
      ],
      d: [
        [0.5, 0.5],
        ['2.5', 2.5],
        [true, undefined],
      ],
      b: [
        [true, true],
        ['false', false],
        [1, undefined],
      ],
      t: [
        ['2024-05-01 10:00:00', '2024-05-01 10:00:00.000000'],
        [1.5, undefined],
        ['x', undefined],
      ],
      n: [
        [12.5, '12.50'],
        ['1.234', undefined],
        ['12345.6', undefined],
      ],
      day: [
        ['2024-02-29', '2024-02-29'],
        ['2023-02-29', undefined],
        [20240229, undefined],
      ],
    };
    const mapper = new RecordMapper(wide);
    for (const [column, list] of Object.entries(values))
      for (const [value, expected] of list) {
        const data = Buffer.from(JSON.stringify({ [column]: value }));
        // Act
        const outcome = mapper.map(data);
        const line = outcome.ok ? JSON.parse(mapper.canonicalLine(data, new Map()).toString()) : undefined;
        // Assess
        expect({ column, value, line }).toEqual({
          column,
          value,
          line: expected === undefined ? undefined : { [column]: expected },
        });
        if (outcome.ok)
          expect({ column, value, canonical: outcome.canonical }).toEqual({
            column,
            value,
            canonical: JSON.stringify(expected) === JSON.stringify(value) && !['n', 'day'].includes(column),
          });
      }
  });
});
