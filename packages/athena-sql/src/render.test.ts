import { describe, test, expect, beforeAll, afterAll } from '@jest/globals';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TemplateParameterError } from './errors';
import { parseParamPairs } from './params';
import { renderSql, renderTemplate, splitStatements } from './render';
import { listTemplates, readTemplate, type SqlTemplate } from './templates';

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'athena-sql-'));
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

const template = (name: string): SqlTemplate => {
  const found = listTemplates(dir).find((t) => t.name === name);
  if (!found) throw new Error(`test template ${name} missing`);
  return found;
};

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
    const sql = renderTemplate(template('network/at_snapshot'), {
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
    expect(() => renderTemplate(template('network/at_snapshot'), params)).toThrow(new RegExp(name));
  });

  test('a missing parameter is named, with its kind', () => {
    expect(() => renderTemplate(template('network/at_snapshot'), { snapshot_id: '1' })).toThrow(
      /needs --param hour=<timestamp>/,
    );
  });

  test('an undeclared parameter is refused with the valid ones', () => {
    expect(() => renderTemplate(template('network/plain'), { table: 'x' })).toThrow(
      /no parameter table. Its parameters: none/,
    );
  });

  test('trusted data is quoted by sqlstr; files split into statements', () => {
    const sql = renderTemplate(
      template('ref/insert'),
      {},
      { hosts: [{ name: "o'brien" }, { name: 'web-01' }] },
    );
    expect(sql).toEqual(["INSERT INTO ref.t VALUES ('o''brien'),('web-01')", 'SELECT 2']);
    expect(splitStatements('SELECT 1;\n-- only a comment\n')).toEqual(['SELECT 1']);
  });

  test('parameter errors are TemplateParameterError naming the value', () => {
    const error = (() => {
      try {
        renderTemplate(template('network/at_snapshot'), { snapshot_id: 'x', hour: '2026-11-29 10:00:00' });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(TemplateParameterError);
    expect((error as TemplateParameterError).value).toBe('x');
  });

  test('a value no one supplied is refused (throwOnUndefined), as TemplateParameterError from renderTemplate', () => {
    const loose: SqlTemplate = { ...template('network/plain'), source: 'SELECT {{ missing }}' };
    expect(() => renderTemplate(loose, {})).toThrow(TemplateParameterError);
    expect(() => renderSql('SELECT {{ missing }}', {})).toThrow(/undefined value/);
  });

  test('renderSql keeps the text whole (comments and all); a file outside the folder is named by its file', () => {
    expect(renderSql('-- why\nSELECT {{ n }};\n', { n: 1 })).toBe('-- why\nSELECT 1;\n');
    expect(readTemplate(join(dir, 'network', 'plain.sql'), join(dir, 'ref')).name).toBe('plain.sql');
  });

  test('--param pairs must be name=value', () => {
    expect(parseParamPairs(['a=1', 'b=x=y'])).toEqual({ a: '1', b: 'x=y' });
    expect(() => parseParamPairs(['oops'])).toThrow(/not name=value/);
  });
});
