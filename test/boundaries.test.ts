// The house's edges, checked on every import of every .ts file (grown from lakehouse's sql/layers.test.ts). The rule
// table (RULES) is the whole of it; each rule has a test that feeds the checker a synthetic crossing and expects it
// caught. The compiler checks the same edges from the other side: each package's tsconfig.json references only what
// its package.json declares (`pnpm typecheck` is `tsc -b`), and pnpm links only declared packages into node_modules.
import { describe, expect, test } from '@jest/globals';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Floors inside a package folder, lowest first: a file may import from its own floor or those below. A floor is a
 * list of paths relative to the package (a folder, or a file without `.ts`); a file on no floor is unconstrained.
 */
const FLOORS: Record<string, readonly (readonly string[])[]> = {
  // The engine along Iceberg's own layers: the catalog hands out tables and SQL sits on top. Maintenance and the REST
  // commit work on a table's commit machinery, and the table handle offers them, so both sit between table/ and the
  // handle (table-handle.ts, listed before table/ so its own floor wins).
  'packages/lakehouse': [
    ['src/contract', 'src/errors'],
    ['src/metadata', 'src/io', 'src/duckdb'],
    ['src/manifests'],
    ['src/snapshots', 'src/expressions'],
    ['src/table'],
    ['src/maintenance', 'src/rest'],
    ['src/table/table-handle'],
    ['src/catalog'],
    ['src/metadata-tables'],
    ['src/sql'],
  ],
  // sql/ in Trino's order: errors, the tree, the parser that builds it, the catalogs names resolve through, the
  // analyzer, the translation to DuckDB, execution, and the engine (the rest of sql/'s top level) on top. The
  // function table (functions/) sits under the three layers that read it, on the SQL types it is written in.
  'packages/lakehouse/src/sql': [
    ['errors'],
    ['tree'],
    ['parser'],
    ['catalog'],
    ['analyzer/types'],
    ['functions'],
    ['analyzer'],
    ['translation'],
    ['execution'],
    ['.'],
  ],
};

export interface Crossing {
  readonly rule: keyof typeof RULES;
  readonly file: string;
  readonly specifier: string;
}

export const RULES = {
  'path-across-packages':
    'a relative import stays inside its package folder; another package is imported by name',
  'src-to-test':
    'product code (not *.test.ts, test/, bench/ or tools/) imports no test/ file and no face that points into one',
  'undeclared-package':
    "a package is imported only if the importer's package.json declares it (product code: dependencies)",
  'face-only': 'another package is imported only through an entry of its package.json exports',
  'floor-order':
    'inside a package with floors, product code value-imports only from its own floor or those below (a type-only import may point up: it is erased, so it makes no cycle at run time)',
} as const;

interface Manifest {
  readonly dir: string;
  readonly name: string;
  readonly dependencies: ReadonlySet<string>;
  readonly devDependencies: ReadonlySet<string>;
  readonly exports: Readonly<Record<string, string>>;
}

function readManifest(dir: string): Manifest {
  const json = JSON.parse(readFileSync(join(ROOT, dir, 'package.json'), 'utf8')) as {
    name: string;
    dependencies?: Record<string, string>;
    devDependencies?: Record<string, string>;
    exports?: Record<string, string>;
  };
  return {
    dir,
    name: json.name,
    dependencies: new Set(Object.keys(json.dependencies ?? {})),
    devDependencies: new Set(Object.keys(json.devDependencies ?? {})),
    exports: json.exports ?? {},
  };
}

/** The workspace's packages (pnpm-workspace.yaml's globs: packages/*, stacks, units, scripts) and the root. */
export function manifests(): Manifest[] {
  const dirs = [
    ...readdirSync(join(ROOT, 'packages')).map((name) => `packages/${name}`),
    'stacks',
    'units',
    'scripts',
  ].filter((dir) => existsSync(join(ROOT, dir, 'package.json')));
  return [...dirs.map(readManifest), { ...readManifest('.'), dir: '.' }];
}

const BUILTINS = new Set(builtinModules);

/** The package a bare specifier names: `@scope/name` or `name`. */
function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

/** Test code: *.test.ts, anything under a test/ folder, and the benches and tools (they run beside, never in, the product). */
export function isProduct(relPath: string): boolean {
  return !/\.test\.ts$/.test(relPath) && !/(^|\/)(test|bench|tools)\//.test(relPath);
}

export interface ImportOf {
  readonly specifier: string;
  /** `import type`, `export type`, or every named binding marked `type`: erased at run time. */
  readonly typeOnly: boolean;
}

/** Module specifiers a source file imports (static, `export … from`, `import()`). */
export function specifiersOf(fileName: string, text: string): ImportOf[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.ES2022, false);
  const found: ImportOf[] = [];
  const visit = (node: ts.Node): void => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      found.push({ specifier: node.moduleSpecifier.text, typeOnly: isTypeOnly(node) });
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      found.push({ specifier: node.arguments[0].text, typeOnly: false });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The floor of a path: the floor of the longest entry that holds it (a file entry beats its folder's), or -1. */
function isTypeOnly(node: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isExportDeclaration(node)) return node.isTypeOnly;
  const clause = node.importClause;
  if (!clause) return false; // a side-effect import
  if (clause.isTypeOnly) return true;
  const bindings = clause.namedBindings;
  return (
    !clause.name &&
    bindings !== undefined &&
    ts.isNamedImports(bindings) &&
    bindings.elements.length > 0 &&
    bindings.elements.every((element) => element.isTypeOnly)
  );
}

function floorOf(floors: readonly (readonly string[])[], pathInBase: string): number {
  let best = { floor: -1, length: -1 };
  floors.forEach((floor, index) => {
    for (const entry of floor) {
      const holds =
        entry === '.'
          ? !pathInBase.includes('/')
          : pathInBase === entry || pathInBase === `${entry}.ts` || pathInBase.startsWith(`${entry}/`);
      if (holds && entry.length > best.length) best = { floor: index, length: entry.length };
    }
  });
  return best.floor;
}

/** The crossings of one file (path relative to the repository root), given its text. */
export function crossingsOf(
  relPath: string,
  text: string,
  house: readonly Manifest[] = manifests(),
): Crossing[] {
  const owner = [...house]
    .sort((a, b) => b.dir.length - a.dir.length)
    .find((m) => m.dir === '.' || relPath.startsWith(`${m.dir}/`))!;
  const product = isProduct(relPath);
  const out: Crossing[] = [];
  const cross = (rule: Crossing['rule'], specifier: string): void => {
    out.push({ rule, file: relPath, specifier });
  };
  const ownerOf = (path: string): Manifest =>
    [...house]
      .sort((a, b) => b.dir.length - a.dir.length)
      .find((m) => m.dir === '.' || path.startsWith(`${m.dir}/`))!;

  for (const { specifier, typeOnly } of specifiersOf(relPath, text)) {
    if (specifier.startsWith('.')) {
      const target = relative(ROOT, resolve(ROOT, dirname(relPath), specifier)).replaceAll('\\', '/');
      if (ownerOf(target).dir !== owner.dir) cross('path-across-packages', specifier);
      else if (product && !isProduct(target)) cross('src-to-test', specifier);
      for (const [base, floors] of Object.entries(FLOORS)) {
        if (!relPath.startsWith(`${base}/`) || !target.startsWith(`${base}/`)) continue;
        const from = floorOf(floors, relPath.slice(base.length + 1));
        const to = floorOf(floors, target.slice(base.length + 1));
        if (product && !typeOnly && from >= 0 && to > from) cross('floor-order', specifier);
      }
      continue;
    }
    if (specifier.startsWith('node:') || BUILTINS.has(specifier)) continue;
    const name = packageName(specifier);
    if (name === owner.name) continue;
    const declared =
      owner.dependencies.has(name) ||
      ((!product || typeOnly) && owner.devDependencies.has(name)) ||
      (!product && house.find((m) => m.dir === '.')!.devDependencies.has(name));
    if (!declared) cross('undeclared-package', specifier);
    const target = house.find((m) => m.name === name);
    if (target) {
      const entry = specifier === name ? '.' : `./${specifier.slice(name.length + 1)}`;
      const file = target.exports[entry];
      if (file === undefined) cross('face-only', specifier);
      else if (product && /^\.\/test\//.test(file)) cross('src-to-test', specifier);
    }
  }
  return out;
}

function tsFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'cdktf.out' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) tsFiles(path, out);
    else if (/\.(ts|mts)$/.test(name) && !/\.d\.m?ts$/.test(name)) out.push(path);
  }
  return out;
}

describe('the boundaries of the house', () => {
  const house = manifests();

  test('no file crosses an edge of the rule table', () => {
    const files = ['packages', 'stacks', 'units', 'scripts', 'tools', 'test'].flatMap((top) =>
      existsSync(join(ROOT, top)) ? tsFiles(join(ROOT, top)) : [],
    );
    expect(files.length).toBeGreaterThan(500);
    const crossings = files.flatMap((file) =>
      crossingsOf(relative(ROOT, file).replaceAll('\\', '/'), readFileSync(file, 'utf8'), house),
    );
    expect(crossings.map((c) => `${c.rule}: ${c.file} → ${c.specifier}`)).toEqual([]);
  });

  test('a path import into another package is caught (one of the 11 the review counted, put back)', () => {
    const text = "import { parseAttempts } from '../packages/teardown/src/index';";
    expect(crossingsOf('scripts/check-leftovers.ts', text, house)).toEqual([
      {
        rule: 'path-across-packages',
        file: 'scripts/check-leftovers.ts',
        specifier: '../packages/teardown/src/index',
      },
    ]);
    expect(
      crossingsOf('units/bench/synth.ts', "import { buildLab } from '../../stacks/app';", house),
    ).toHaveLength(1);
    expect(
      crossingsOf('scripts/check-leftovers.ts', "import { runCheck } from '@loglake/teardown';", house),
    ).toEqual([]);
  });

  test('product code reaching test support is caught; a test doing so is not', () => {
    const text = "import { testWarehouse } from '../../test/table/testing';";
    expect(
      crossingsOf('packages/lakehouse/src/table/table-handle.ts', text, house).map((c) => c.rule),
    ).toEqual(['src-to-test']);
    expect(crossingsOf('packages/lakehouse/src/table/table-handle.test.ts', text, house)).toEqual([]);
    const face = "import { DuckDbSession } from '@loglake/lakehouse/testing';";
    expect(crossingsOf('packages/local-aws/src/engine.ts', face, house).map((c) => c.rule)).toEqual([
      'src-to-test',
    ]);
    expect(crossingsOf('packages/local-aws/bench/local.ts', face, house)).toEqual([]);
  });

  test('an undeclared package is caught, and a devDependency is for tests only', () => {
    const units = "import { resolveLab } from '@loglake/units';";
    expect(crossingsOf('packages/flowgen/src/generator.ts', units, house).map((c) => c.rule)).toEqual([
      'undeclared-package',
    ]);
    // snapshot-lambdas declares local-aws as a devDependency: its tests may use the endpoint, its handlers may not.
    const endpoint = "import { startLocalEndpoint } from '@loglake/local-aws';";
    expect(crossingsOf('packages/snapshot-lambdas/src/pipeline.test.ts', endpoint, house)).toEqual([]);
    expect(
      crossingsOf('packages/snapshot-lambdas/src/aws-run.ts', endpoint, house).map((c) => c.rule),
    ).toEqual(['undeclared-package']);
  });

  test("a deep import past another package's exports is caught", () => {
    const text = "import { ResolvedUnit } from '@loglake/stacks/lib/contract';";
    expect(crossingsOf('units/lib/define.ts', text, house).map((c) => c.rule)).toEqual(['face-only']);
  });

  test('an import from a higher floor is caught', () => {
    expect(
      crossingsOf(
        'packages/lakehouse/src/table/commit.ts',
        "import { openWarehouse } from '../catalog/warehouse';",
        house,
      ),
    ).toEqual([
      {
        rule: 'floor-order',
        file: 'packages/lakehouse/src/table/commit.ts',
        specifier: '../catalog/warehouse',
      },
    ]);
    const tree = "import { DuckdbWriter } from '../translation/duckdb-writer';";
    expect(crossingsOf('packages/lakehouse/src/sql/tree/ast.ts', tree, house).map((c) => c.rule)).toEqual([
      'floor-order',
    ]);
    expect(
      crossingsOf('packages/lakehouse/src/sql/tree/ast.ts', "import type { X } from '../errors';", house),
    ).toEqual([]);
  });
});
