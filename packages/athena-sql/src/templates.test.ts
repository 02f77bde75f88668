import { describe, expect, test } from '@jest/globals';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { TemplateParameterError } from './errors';
import { listTemplates, readTemplate, sqlDir } from './templates';

describe('sql/ folder', () => {
  test("from the source tree it is the repo's sql/, with every namespace", () => {
    const dir = sqlDir();
    expect(existsSync(join(dir, 'network', 'count_rows.sql'))).toBe(true);
    expect(existsSync(join(dir, 'snapshots', 'build_snapshot.sql.njk'))).toBe(true);
    const names = listTemplates(dir).map((t) => t.name);
    expect(names).toContain('snapshots/hours_present');
    expect(names).toContain('ref/merge_inventory');
  });

  test('an @param of an unknown kind is refused, naming the kind', () => {
    const dir = mkdtempSync(join(tmpdir(), 'athena-sql-'));
    try {
      const file = join(dir, 'bad.sql.njk');
      writeFileSync(file, '-- @param t tablename  A table\nSELECT * FROM {{ t }}');
      expect(() => readTemplate(file, dir)).toThrow(TemplateParameterError);
      expect(() => readTemplate(file, dir)).toThrow(/bad.sql.njk: @param t has unknown kind tablename/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
