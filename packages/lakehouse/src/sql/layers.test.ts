// sql/ is layered in Trino's order and each layer imports only from the layers below it: errors, then the tree
// (Trino's io.trino.sql.tree, which depends on nothing above it), the parser that builds it, the catalogs names
// resolve through, the analyzer, the translation to DuckDB, the execution of statements, and the engine on top.
import { describe, expect, test } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const SQL = dirname(fileURLToPath(import.meta.url));
const LAYERS = ['errors', 'tree', 'parser', 'catalog', 'analyzer', 'translation', 'execution', 'engine'];

/** The layer of a file under sql/: its folder, `errors` for errors.ts, `engine` for the rest of the top level. */
function layerOf(file: string): string {
  const path = relative(SQL, file).replaceAll('\\', '/');
  if (path === 'errors.ts') return 'errors';
  const folder = path.includes('/') ? (path.split('/')[0] as string) : 'engine';
  return LAYERS.includes(folder) ? folder : 'engine';
}

/** Imports of `file` that reach a layer above its own, as `file → target`. */
function upwardImports(file: string, source: string): string[] {
  const rank = LAYERS.indexOf(layerOf(file));
  const out: string[] = [];
  for (const [, target] of source.matchAll(/from '(\.[^']+)'/g)) {
    const resolved = resolve(dirname(file), target as string);
    if (relative(SQL, resolved).startsWith('..')) continue; // outside sql/: the engine's own modules
    if (LAYERS.indexOf(layerOf(`${resolved}.ts`)) > rank) out.push(`${relative(SQL, file)} → ${target}`);
  }
  return out;
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('sql/ layering', () => {
  test('every module imports only from its own layer or those below', () => {
    const violations = sources(SQL).flatMap((file) => upwardImports(file, readFileSync(file, 'utf8')));
    expect(violations).toEqual([]);
  });

  test('an import from a higher layer is caught', () => {
    const file = join(SQL, 'tree', 'ast.ts');
    expect(upwardImports(file, "import { DuckdbWriter } from '../translation/duckdb-writer';")).toEqual([
      'tree/ast.ts → ../translation/duckdb-writer',
    ]);
    expect(upwardImports(file, "import type { SourcePosition } from '../errors';")).toEqual([]);
  });
});
