// The face meter's counting: which names a file asks of a specifier, and what counts as a test file.
import { describe, expect, test } from '@jest/globals';
import ts from 'typescript';
import { importedNames, isTestFile } from './face-usage';

const names = (text: string): Record<string, string[]> =>
  Object.fromEntries(
    [...importedNames(ts.createSourceFile('x.ts', text, ts.ScriptTarget.ES2022, true))].map(([spec, set]) => [
      spec,
      [...set].sort(),
    ]),
  );

describe('face-usage', () => {
  test('counts named imports, type imports, re-exports and destructured dynamic imports by their exported names', () => {
    const text = [
      "import { a, b as local, type C } from '@loglake/x';",
      "import type { D } from '@loglake/x/sub';",
      "export { e as renamed } from '@loglake/y';",
      "const { f, g: h } = await import('@loglake/z');",
    ].join('\n');
    expect(names(text)).toEqual({
      '@loglake/x': ['C', 'a', 'b'],
      '@loglake/x/sub': ['D'],
      '@loglake/y': ['e'],
      '@loglake/z': ['f', 'g'],
    });
  });

  test('a namespace import counts the names it reads; `export *` counts the whole face', () => {
    const text =
      "import * as x from '@loglake/x';\nx.one(); const t: x.Two = 1;\nexport * from '@loglake/y';";
    expect(names(text)).toEqual({ '@loglake/x': ['Two', 'one'], '@loglake/y': ['*'] });
  });

  test('test files: *.test.ts and anything under a test/ folder; benches and tools are not tests', () => {
    expect(isTestFile('packages/lab/src/cli.test.ts')).toBe(true);
    expect(isTestFile('packages/local-aws/test/support/clients.ts')).toBe(true);
    expect(isTestFile('packages/lab/bench/sql.ts')).toBe(false);
    expect(isTestFile('packages/lab/src/cli.ts')).toBe(false);
  });
});
