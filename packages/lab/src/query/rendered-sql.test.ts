// Every template in sql/, rendered with the lab's parameters (each kind's example) and the lab's data, byte for
// byte as the lab rendered it when the renderer moved to @loglake/athena-sql: the oracle is test/rendered-sql.json,
// written by the old renderer. A template changed on purpose: LOGLAKE_UPDATE_RENDERED_SQL=1 rewrites the oracle.
import { describe, expect, test } from '@jest/globals';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { labTemplateData } from './lab-data';
import { listTemplates, PARAM_KINDS, renderTemplate } from '@loglake/athena-sql';

const ORACLE = fileURLToPath(new URL('../../test/rendered-sql.json', import.meta.url));

type Rendered = { params: Record<string, string>; statements: string[] } | { error: string };

function renderAll(): Record<string, Rendered> {
  const out: Record<string, Rendered> = {};
  for (const template of listTemplates()) {
    const params = Object.fromEntries(template.params.map((p) => [p.name, PARAM_KINDS[p.kind].example]));
    try {
      out[template.name] = { params, statements: renderTemplate(template, params, labTemplateData()) };
    } catch (error) {
      // sql/snapshots/ needs its own workflow's values: the lab refuses it, and that refusal is pinned too.
      out[template.name] = { error: (error as Error).name };
    }
  }
  return out;
}

describe('rendered sql/', () => {
  test('every template renders exactly as before', () => {
    const rendered = renderAll();
    if (process.env.LOGLAKE_UPDATE_RENDERED_SQL === '1')
      writeFileSync(ORACLE, `${JSON.stringify(rendered, null, 2)}\n`);
    const oracle = JSON.parse(readFileSync(ORACLE, 'utf8')) as Record<string, Rendered>;
    expect(Object.keys(rendered)).toEqual(Object.keys(oracle));
    for (const [name, expected] of Object.entries(oracle))
      expect([name, rendered[name]]).toEqual([name, expected]);
  });
});
