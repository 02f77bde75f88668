import { describe, test, expect } from '@jest/globals';
import { InvalidParameterError, SnapshotConfigError } from './errors';
import { parseSnapshotDefinition } from './definitions';
import { renderBuildSnapshot, renderHoursPresent } from './sql';
import { flowLogsDaily } from '../test/fixtures';

const hostile = [
  'x; DROP TABLE network.vpc_flow_logs',
  "x' OR '1'='1",
  'x"; --',
  'x -- comment',
  'x /* comment */',
  'X',
  '',
];

describe('rendered SQL', () => {
  test('the CTAS names every part quoted and typed', () => {
    // Act
    const sql = renderBuildSnapshot({
      tableBucket: 'loglake-01-tables',
      definition: { ...flowLogsDaily, filters: [{ column: 'action', op: 'in', values: ['REJECT'] }] },
      database: 'loglake_01_snapshots',
      stagingTable: 'vpc_flow_logs_daily__run_x',
      location: 's3://loglake-01-snapshots/vpc_flow_logs_daily/run=2026-11-27-20261128t061500z-abc123/',
      watermark: '2026-11-27',
      builtAt: new Date('2026-11-28T06:15:00.250Z'),
    });
    // Assess
    expect(sql).toContain(`CREATE TABLE "loglake_01_snapshots"."vpc_flow_logs_daily__run_x"`);
    expect(sql).toContain(`write_compression = 'ZSTD'`);
    expect(sql).toContain(`FROM "s3tablescatalog/loglake-01-tables"."network"."vpc_flow_logs"`);
    expect(sql).toContain(`"start_time" >= TIMESTAMP '2026-11-27 00:00:00.000'`);
    expect(sql).toContain(`"start_time" < TIMESTAMP '2026-11-28 00:00:00.000'`);
    expect(sql).toContain(`DATE '2026-11-27' AS snapshot_watermark`);
    expect(sql).toContain(`TIMESTAMP '2026-11-28 06:15:00.250' AS snapshot_built_at`);
    expect(sql).toContain(`AND "action" IN ('REJECT')`);
  });

  test.each(hostile)('an identifier %p is refused before rendering', (value) => {
    expect(() =>
      renderHoursPresent({
        tableBucket: 'loglake-01-tables',
        definition: { ...flowLogsDaily, source: { ...flowLogsDaily.source, table: value } },
        from: new Date(),
      }),
    ).toThrow(InvalidParameterError);
    expect(() => parseSnapshotDefinition({ ...flowLogsDaily, name: value })).toThrow(SnapshotConfigError);
  });

  test.each(["REJECT'; DROP TABLE t; --", 'a--b', "O'Brien", 'a;b', 'x/*'])(
    'a filter value %p is refused',
    (value) => {
      expect(() =>
        parseSnapshotDefinition({
          ...flowLogsDaily,
          filters: [{ column: 'action', op: '=', values: [value] }],
        }),
      ).toThrow(/Refused filter value/);
    },
  );

  test.each(['2026-11-27; DROP TABLE t', "2026-11-27'", '2026-02-30', '27/11/2026'])(
    'a watermark %p is refused',
    (value) => {
      expect(() =>
        renderBuildSnapshot({
          tableBucket: 'loglake-01-tables',
          definition: flowLogsDaily,
          database: 'loglake_01_snapshots',
          stagingTable: 'staging',
          location: 's3://loglake-01-snapshots/vpc_flow_logs_daily/run=2026-11-27-abc/',
          watermark: value,
          builtAt: new Date(),
        }),
      ).toThrow(InvalidParameterError);
    },
  );

  test('a location outside the run layout is refused', () => {
    expect(() =>
      renderBuildSnapshot({
        tableBucket: 'loglake-01-tables',
        definition: flowLogsDaily,
        database: 'loglake_01_snapshots',
        stagingTable: 'staging',
        location: "s3://loglake-01-snapshots/x' , format='TEXTFILE",
        watermark: '2026-11-27',
        builtAt: new Date(),
      }),
    ).toThrow(/Refused snapshot location/);
  });
});
