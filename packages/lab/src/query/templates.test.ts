import { describe, test, expect, beforeAll, afterAll } from '@jest/globals';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findTemplate, listTemplates, renderTemplate, splitStatements } from './templates';
import { parseParamPairs } from './params';

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'lab-sql-'));
  mkdirSync(join(dir, 'network'));
  mkdirSync(join(dir, 'ref'));
  writeFileSync(
    join(dir, 'network', 'at_snapshot.sql.njk'),
    [
      '-- Rows as of one snapshot.',
      '-- @param snapshot_id snapshot_id  The snapshot to read',
      '-- @param hour timestamp  Start of the hour',
      "SELECT count(*) FROM network.vpc_flow_logs FOR VERSION AS OF {{ snapshot_id }} WHERE start_time >= TIMESTAMP '{{ hour }}';",
    ].join('\n'),
  );
  writeFileSync(join(dir, 'network', 'plain.sql'), 'SELECT 1;\n\n-- trailing comment\n');
  writeFileSync(
    join(dir, 'ref', 'insert.sql.njk'),
    "INSERT INTO ref.t VALUES {% for h in hosts %}({{ h.name | sqlstr }}){{ ',' if not loop.last }}{% endfor %};\nSELECT 2;",
  );
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('sql templates', () => {
  test('lists templates by namespace/name with their declared parameters', () => {
    const all = listTemplates(dir);
    expect(all.map((t) => t.name)).toEqual(['network/at_snapshot', 'network/plain', 'ref/insert']);
    expect(all[0]?.params.map((p) => [p.name, p.kind])).toEqual([
      ['snapshot_id', 'snapshot_id'],
      ['hour', 'timestamp'],
    ]);
    expect(all[0]?.description).toContain('Rows as of one snapshot.');
  });

  test('renders validated parameters; timestamps normalised to Athena literals', () => {
    const sql = renderTemplate(findTemplate('at_snapshot', dir), {
      snapshot_id: '42',
      hour: '2026-11-29T10:00:00Z',
    });
    expect(sql).toEqual([
      "SELECT count(*) FROM network.vpc_flow_logs FOR VERSION AS OF 42 WHERE start_time >= TIMESTAMP '2026-11-29 10:00:00.000000'",
    ]);
  });

  test.each([
    ['snapshot_id', '42 OR 1=1'],
    ['snapshot_id', '42; DROP TABLE network.vpc_flow_logs'],
    ['hour', "2026-11-29 10:00:00' OR '1'='1"],
    ['hour', '2026-13-45 99:00:00'],
  ])('refuses %s=%s (no SQL can be injected)', (name, value) => {
    const params = { snapshot_id: '1', hour: '2026-11-29 10:00:00', [name]: value };
    expect(() => renderTemplate(findTemplate('network/at_snapshot', dir), params)).toThrow(new RegExp(name));
  });

  test('a missing parameter is named, with its kind', () => {
    expect(() => renderTemplate(findTemplate('at_snapshot', dir), { snapshot_id: '1' })).toThrow(
      /needs --param hour=<timestamp>/,
    );
  });

  test('an undeclared parameter is refused with the valid ones', () => {
    expect(() => renderTemplate(findTemplate('plain', dir), { table: 'x' })).toThrow(
      /no parameter table. Its parameters: none/,
    );
  });

  test('an unknown name lists the valid ones', () => {
    expect(() => findTemplate('nope', dir)).toThrow(
      /No query named nope. Valid names: network\/at_snapshot, network\/plain, ref\/insert/,
    );
  });

  test('trusted data is quoted by sqlstr; files split into statements', () => {
    const sql = renderTemplate(
      findTemplate('ref/insert', dir),
      {},
      { hosts: [{ name: "o'brien" }, { name: 'web-01' }] },
    );
    expect(sql).toEqual(["INSERT INTO ref.t VALUES ('o''brien'),('web-01')", 'SELECT 2']);
    expect(splitStatements('SELECT 1;\n-- only a comment\n')).toEqual(['SELECT 1']);
  });

  test('--param pairs must be name=value', () => {
    expect(parseParamPairs(['a=1', 'b=x=y'])).toEqual({ a: '1', b: 'x=y' });
    expect(() => parseParamPairs(['oops'])).toThrow(/not name=value/);
  });
});
