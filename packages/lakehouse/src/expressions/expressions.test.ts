import { describe, expect, test } from '@jest/globals';
import type { Expression } from '../contract';
import { CONTENT_DATA, type DataFile } from '../manifests/data-file';
import { buildPartitionSpec } from '../metadata/partition-spec';
import { buildSchema } from '../metadata/schema';
import { bucketOf } from '../metadata/murmur3';
import { coerceValue, encodeBound } from '../metadata/values';
import { bindExpression } from './bind';
import { fileMightMatch, manifestMightMatch } from './evaluate';
import { boundToSql, expressionToSql } from './to-sql';

const schema = buildSchema(0, [
  { name: 'id', type: 'long' },
  { name: 'start_time', type: 'timestamp' },
  { name: 'host', type: 'string' },
]);
const hourSpec = buildPartitionSpec(0, schema, [{ sourceColumn: 'start_time', transform: 'hour' }], 999, 't');
const bucketSpec = buildPartitionSpec(
  1,
  schema,
  [{ sourceColumn: 'host', transform: 'bucket[8]' }],
  999,
  't',
);

function file(partition: DataFile['partition'], idRange: [bigint, bigint] | null, nulls = 0): DataFile {
  const bounds = (v: bigint) => new Map([[1, encodeBound('long', v)]]);
  return {
    content: CONTENT_DATA,
    filePath: 'file:///x',
    fileFormat: 'PARQUET',
    partition,
    recordCount: 10,
    fileSizeInBytes: 1,
    columnSizes: new Map([
      [1, 1],
      [2, 1],
      [3, 1],
    ]),
    valueCounts: new Map([[1, 10]]),
    nullValueCounts: new Map([[1, nulls]]),
    nanValueCounts: new Map(),
    lowerBounds: idRange ? bounds(idRange[0]) : new Map(),
    upperBounds: idRange ? bounds(idRange[1]) : new Map(),
    keyMetadata: null,
    splitOffsets: null,
    equalityIds: null,
    sortOrderId: null,
    referencedDataFile: null,
  };
}

const hourOf = (text: string) => Number((coerceValue('timestamp', text) as bigint) / 3_600_000_000n);

describe('binding and SQL rendering', () => {
  test('NOT is pushed to the leaves and literals are typed', () => {
    // Prepare
    const expression: Expression = {
      op: 'not',
      arg: {
        op: 'and',
        args: [
          { op: 'lt', column: 'id', value: 5 },
          { op: 'in', column: 'host', values: ['a', "o'b"] },
        ],
      },
    };
    // Act
    const sql = boundToSql(bindExpression(expression, schema));
    // Assess
    expect(sql).toBe(`(("id" >= CAST(5 AS BIGINT)) OR ("host" NOT IN ('a', 'o''b')))`);
  });

  test('expressionToSql binds and renders typed literals', () => {
    const sql = expressionToSql(
      { op: 'gte', column: 'start_time', value: '2024-05-01T10:00:00Z' },
      schema,
      't',
    );
    expect(sql).toBe(`(t."start_time" >= TIMESTAMP '2024-05-01 10:00:00.000000')`);
  });

  test('unknown columns and uncoercible values are named errors', () => {
    expect(() => bindExpression({ op: 'eq', column: 'nope', value: 1 }, schema, 'table t')).toThrow(
      expect.objectContaining({ name: 'SchemaMismatchError' }),
    );
    expect(() => bindExpression({ op: 'eq', column: 'start_time', value: 'yesterday' }, schema)).toThrow(
      expect.objectContaining({ name: 'InvalidExpressionError' }),
    );
  });
});

describe('pruning', () => {
  const hourFilter = (from: string, to: string) =>
    bindExpression(
      {
        op: 'and',
        args: [
          { op: 'gte', column: 'start_time', value: from },
          { op: 'lt', column: 'start_time', value: to },
        ],
      },
      schema,
    );

  test('hour partitions outside a time range are skipped, the matching hour is kept', () => {
    // Prepare
    const filter = hourFilter('2024-05-01 10:00:00', '2024-05-01 11:00:00');
    // Act / Assess
    expect(fileMightMatch(filter, hourSpec, ['int'], file([hourOf('2024-05-01 10:00:00')], null))).toBe(true);
    expect(fileMightMatch(filter, hourSpec, ['int'], file([hourOf('2024-05-01 09:00:00')], null))).toBe(
      false,
    );
    // `< 11:00` projects to hour <= 11 (not strict): the transform loses the minutes.
    expect(fileMightMatch(filter, hourSpec, ['int'], file([hourOf('2024-05-01 11:00:00')], null))).toBe(true);
    expect(fileMightMatch(filter, hourSpec, ['int'], file([hourOf('2024-05-01 12:00:00')], null))).toBe(
      false,
    );
  });

  test('manifest summaries prune whole manifests', () => {
    // Prepare
    const filter = hourFilter('2024-05-01 10:00:00', '2024-05-01 10:30:00');
    const summary = (lo: string, hi: string) => [
      {
        containsNull: false,
        containsNan: null,
        lowerBound: encodeBound('int', hourOf(lo)),
        upperBound: encodeBound('int', hourOf(hi)),
      },
    ];
    // Act / Assess
    expect(
      manifestMightMatch(filter, hourSpec, ['int'], summary('2024-05-01 00:00:00', '2024-05-01 09:00:00')),
    ).toBe(false);
    expect(
      manifestMightMatch(filter, hourSpec, ['int'], summary('2024-05-01 08:00:00', '2024-05-01 12:00:00')),
    ).toBe(true);
  });

  test('bucket partitions prune equality only; bounds prune ranges; null counts prune IS NULL', () => {
    // Prepare
    const eqA = bindExpression({ op: 'eq', column: 'host', value: 'a' }, schema);
    const bucket = bucketOf('string', 'a', 8);
    // Act / Assess
    const kept = [0, 1, 2, 3, 4, 5, 6, 7].filter((b) =>
      fileMightMatch(eqA, bucketSpec, ['int'], file([b], null)),
    );
    expect(kept).toEqual([bucket]);
    const notEq = bindExpression({ op: 'neq', column: 'host', value: 'a' }, schema);
    expect(fileMightMatch(notEq, bucketSpec, ['int'], file([bucket], null))).toBe(true);
    const range = bindExpression({ op: 'gt', column: 'id', value: 100 }, schema);
    expect(fileMightMatch(range, { 'spec-id': 0, fields: [] }, [], file([], [1n, 100n]))).toBe(false);
    expect(fileMightMatch(range, { 'spec-id': 0, fields: [] }, [], file([], [1n, 101n]))).toBe(true);
    const isNull = bindExpression({ op: 'is-null', column: 'id' }, schema);
    expect(fileMightMatch(isNull, { 'spec-id': 0, fields: [] }, [], file([], [1n, 9n], 0))).toBe(false);
    expect(fileMightMatch(isNull, { 'spec-id': 0, fields: [] }, [], file([], [1n, 9n], 2))).toBe(true);
  });

  test('a column without metrics might match anything: absent metrics are unknown, never "all null"', () => {
    // Another writer (a REST client committing its own files) may record no metrics, or none for a column
    // (write.metadata.metrics.column.<c>=none); Iceberg reads a missing count or bound as unknown.
    const none = { 'spec-id': 0, fields: [] };
    const noMetrics: DataFile = {
      ...file([], null),
      columnSizes: null,
      valueCounts: null,
      nullValueCounts: null,
      nanValueCounts: null,
      lowerBounds: null,
      upperBounds: null,
    };
    const eqId = bindExpression({ op: 'eq', column: 'id', value: 7 }, schema);
    const notNull = bindExpression({ op: 'not-null', column: 'host' }, schema);
    expect(fileMightMatch(eqId, none, [], noMetrics)).toBe(true);
    expect(fileMightMatch(notNull, none, [], noMetrics)).toBe(true);
    // host (id 3) has a size but no counts or bounds in file(): unknown too.
    expect(
      fileMightMatch(
        bindExpression({ op: 'eq', column: 'host', value: 'a' }, schema),
        none,
        [],
        file([], null),
      ),
    ).toBe(true);
    // Counts that say every value is null still prune.
    const allNull: DataFile = {
      ...file([], null),
      valueCounts: new Map([[1, 10]]),
      nullValueCounts: new Map([[1, 10]]),
    };
    expect(fileMightMatch(eqId, none, [], allNull)).toBe(false);
  });
});
