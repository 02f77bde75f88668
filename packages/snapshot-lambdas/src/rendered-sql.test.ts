// The snapshot statements, byte for byte as they were rendered when the renderer moved to @loglake/athena-sql:
// the oracle is test/rendered-sql.json, written by the old renderer. A template changed on purpose:
// LOGLAKE_UPDATE_RENDERED_SQL=1 rewrites the oracle.
import { describe, expect, test } from '@jest/globals';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderAnalystsQuery, renderBuildSnapshot, renderCountRows, renderHoursPresent } from './sql';
import { flowLogsDaily } from '../test/fixtures';

const ORACLE = fileURLToPath(new URL('../test/rendered-sql.json', import.meta.url));

const build = {
  tableBucket: 'loglake-01-tables',
  database: 'loglake_01_snapshots',
  stagingTable: 'vpc_flow_logs_daily__run_20261128t061500z_abc123',
  location: 's3://loglake-01-snapshots/vpc_flow_logs_daily/run=2026-11-27-20261128t061500z-abc123/',
  watermark: '2026-11-27',
  builtAt: new Date('2026-11-28T06:15:00.250Z'),
};

const cases: Record<string, () => string> = {
  hours_present: () =>
    renderHoursPresent({
      tableBucket: 'loglake-01-tables',
      definition: flowLogsDaily,
      from: new Date('2026-11-20T00:00:00Z'),
    }),
  build_snapshot: () => renderBuildSnapshot({ ...build, definition: flowLogsDaily }),
  build_snapshot_filtered: () =>
    renderBuildSnapshot({
      ...build,
      definition: {
        ...flowLogsDaily,
        filters: [
          { column: 'action', op: 'in', values: ['REJECT', 'ACCEPT'] },
          { column: 'dstport', op: '>=', values: [1024] },
        ],
      },
    }),
  count_rows: () => renderCountRows({ database: 'loglake_01_snapshots', table: 'vpc_flow_logs_daily' }),
  analysts_query_snapshot: () =>
    renderAnalystsQuery({ table: '"loglake_01_snapshots"."vpc_flow_logs_daily"', timeColumn: 'start_time' }),
  analysts_query_source: () =>
    renderAnalystsQuery({
      table: '"s3tablescatalog/loglake-01-tables"."network"."vpc_flow_logs"',
      timeColumn: 'start_time',
      day: '2026-11-27',
    }),
};

describe('rendered sql/snapshots', () => {
  test('every statement renders exactly as before', () => {
    const rendered = Object.fromEntries(Object.entries(cases).map(([name, render]) => [name, render()]));
    if (process.env.LOGLAKE_UPDATE_RENDERED_SQL === '1')
      writeFileSync(ORACLE, `${JSON.stringify(rendered, null, 2)}\n`);
    expect(rendered).toEqual(JSON.parse(readFileSync(ORACLE, 'utf8')));
  });
});
