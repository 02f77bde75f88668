// The face meter: for each workspace package, the names each `exports` entry of its package.json offers, and how many
// of them other parts of the house import. Run: node scripts/supported-node.mjs tsx tools/face-usage.ts [--markdown]
//
// How it counts:
// - exported = the checker's exports of the entry module (values and types, `export *` expanded);
// - an import counts when a file outside the package's folder names the face's specifier (`@loglake/x` or
//   `@loglake/x/sub`) in an import, `export … from`, or `import()` whose result is destructured; a namespace import
//   counts each `ns.name` it reads;
// - a test file is a `*.test.ts` file, or any file under a `test/` folder (support, oracles, corpora); everything else
//   (product code, benches, tools, scripts) is non-test;
// - importers: every .ts file under packages/, stacks/, units/, scripts/, tools/ and test/.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const IMPORTER_ROOTS = ['packages', 'stacks', 'units', 'scripts', 'tools', 'test'];

interface Face {
  readonly pkg: string;
  readonly dir: string;
  readonly specifier: string;
  readonly entry: string;
}

function packageDirs(): string[] {
  const dirs = readdirSync(join(ROOT, 'packages')).map((name) => join(ROOT, 'packages', name));
  return [...dirs, join(ROOT, 'stacks'), join(ROOT, 'units')].filter((dir) =>
    existsSync(join(dir, 'package.json')),
  );
}

function facesOf(dir: string): Face[] {
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
    name: string;
    exports?: Record<string, string>;
  };
  return Object.entries(manifest.exports ?? {})
    .filter(([, target]) => !target.includes('*'))
    .map(([key, target]) => ({
      pkg: manifest.name,
      dir,
      specifier: key === '.' ? manifest.name : `${manifest.name}/${key.slice(2)}`,
      entry: resolve(dir, target),
    }))
    .filter((face) => existsSync(face.entry));
}

function tsFiles(dir: string, out: string[] = []): string[] {
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'cdktf.out' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) tsFiles(path, out);
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

export function isTestFile(path: string): boolean {
  const rel = relative(ROOT, path).split('\\').join('/');
  return rel.endsWith('.test.ts') || /(^|\/)test\//.test(rel);
}

/** Names each module specifier is asked for in one file. */
export function importedNames(source: ts.SourceFile): Map<string, Set<string>> {
  const found = new Map<string, Set<string>>();
  const add = (specifier: string, name: string): void => {
    const names = found.get(specifier) ?? new Set<string>();
    names.add(name);
    found.set(specifier, names);
  };
  const namespaces = new Map<string, string>();
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const specifier = node.moduleSpecifier.text;
      const clause = node.importClause;
      if (clause?.name) add(specifier, 'default');
      const bindings = clause?.namedBindings;
      if (bindings && ts.isNamedImports(bindings)) {
        for (const el of bindings.elements) add(specifier, (el.propertyName ?? el.name).text);
      } else if (bindings && ts.isNamespaceImport(bindings)) {
        namespaces.set(bindings.name.text, specifier);
      }
    } else if (
      ts.isExportDeclaration(node) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      const specifier = node.moduleSpecifier.text;
      if (node.exportClause && ts.isNamedExports(node.exportClause)) {
        for (const el of node.exportClause.elements) add(specifier, (el.propertyName ?? el.name).text);
      } else add(specifier, '*');
    } else if (ts.isVariableDeclaration(node) && node.initializer && ts.isObjectBindingPattern(node.name)) {
      let init: ts.Expression = node.initializer;
      if (ts.isAwaitExpression(init)) init = init.expression;
      if (
        ts.isCallExpression(init) &&
        init.expression.kind === ts.SyntaxKind.ImportKeyword &&
        init.arguments[0] &&
        ts.isStringLiteral(init.arguments[0])
      ) {
        const specifier = init.arguments[0].text;
        for (const el of node.name.elements) {
          const key = el.propertyName ?? el.name;
          if (ts.isIdentifier(key)) add(specifier, key.text);
        }
      }
    } else if (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression)) {
      const specifier = namespaces.get(node.expression.text);
      if (specifier) add(specifier, node.name.text);
    } else if (ts.isQualifiedName(node) && ts.isIdentifier(node.left)) {
      const specifier = namespaces.get(node.left.text);
      if (specifier) add(specifier, node.right.text);
    }
    ts.forEachChild(node, visit);
  };
  // Namespace imports are declared at the top, so one pass sees them before their uses.
  visit(source);
  return found;
}

export interface FaceRow {
  readonly face: string;
  readonly exported: number;
  readonly usedNonTest: number;
  readonly usedAny: number;
  readonly unused: readonly string[];
  /** Names other packages' non-test files import. */
  readonly usedByProduct: readonly string[];
  /** Names only other packages' tests import. */
  readonly usedByTestsOnly: readonly string[];
}

export interface Measurement {
  readonly rows: FaceRow[];
  /** `@loglake/…` specifiers that match no explicit entry (a wildcard entry, or a missing one), with their importers. */
  readonly offFace: Map<string, Set<string>>;
  /** Relative imports that leave the importer's package folder, as `file → specifier`. */
  readonly pathCrossings: string[];
}

export function measure(): Measurement {
  const faces = packageDirs().flatMap(facesOf);
  const program = ts.createProgram(
    faces.map((face) => face.entry),
    {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.Preserve,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      resolveJsonModule: true,
      allowImportingTsExtensions: true,
      noEmit: true,
      skipLibCheck: true,
      types: [],
    },
  );
  const checker = program.getTypeChecker();
  const exportsOf = (entry: string): string[] => {
    const source = program.getSourceFile(entry);
    const symbol = source && checker.getSymbolAtLocation(source);
    return symbol ? checker.getExportsOfModule(symbol).map((s) => s.getName()) : [];
  };

  const uses = new Map<string, { nonTest: Set<string>; any: Set<string> }>();
  for (const face of faces) uses.set(face.specifier, { nonTest: new Set(), any: new Set() });
  const ownerOf = (file: string): string | undefined =>
    faces
      .find((face) => file.startsWith(face.dir + '/'))
      ?.specifier.split('/')
      .slice(0, 2)
      .join('/');

  const offFace = new Map<string, Set<string>>();
  const pathCrossings: string[] = [];
  const folderOf = (file: string): string => {
    const rel = relative(ROOT, file).split('/');
    // packages/<name>, stacks and units are packages; everything else at the top (scripts/, tools/, test/) is the root's.
    if (rel[0] === 'packages') return rel.slice(0, 2).join('/');
    return rel[0] === 'stacks' || rel[0] === 'units' ? rel[0] : '.';
  };
  for (const root of IMPORTER_ROOTS) {
    for (const file of tsFiles(join(ROOT, root))) {
      const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
      const owner = ownerOf(file);
      const test = isTestFile(file);
      for (const [specifier, names] of importedNames(source)) {
        if (specifier.startsWith('.') && folderOf(resolve(dirname(file), specifier)) !== folderOf(file)) {
          pathCrossings.push(`${relative(ROOT, file)} → ${specifier}`);
        }
        const use = uses.get(specifier);
        if (!use && specifier.startsWith('@loglake/')) {
          const importers = offFace.get(specifier) ?? new Set<string>();
          importers.add(relative(ROOT, file));
          offFace.set(specifier, importers);
        }
        if (!use || specifier.split('/').slice(0, 2).join('/') === owner) continue;
        for (const name of names) {
          use.any.add(name);
          if (!test) use.nonTest.add(name);
        }
      }
    }
  }

  const rows = faces.map((face) => {
    const exported = exportsOf(face.entry);
    const use = uses.get(face.specifier)!;
    const star = use.any.has('*');
    const counted = (set: Set<string>): number =>
      set.has('*') ? exported.length : exported.filter((name) => set.has(name)).length;
    return {
      face: face.specifier,
      exported: exported.length,
      usedNonTest: counted(use.nonTest),
      usedAny: counted(use.any),
      unused: star ? [] : exported.filter((name) => !use.any.has(name)).sort(),
      usedByProduct: exported.filter((name) => use.nonTest.has(name) || use.nonTest.has('*')).sort(),
      usedByTestsOnly: exported.filter((name) => use.any.has(name) && !use.nonTest.has(name)).sort(),
    };
  });
  return { rows, offFace, pathCrossings };
}

const pct = (part: number, whole: number): string =>
  whole === 0 ? '–' : `${Math.round((100 * part) / whole)}%`;

export function renderTable(rows: readonly FaceRow[]): string {
  const lines = [
    '| Face | Exported | Used, non-test | % | Used, counting tests | % |',
    '|---|---:|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| \`${r.face}\` | ${r.exported} | ${r.usedNonTest} | ${pct(r.usedNonTest, r.exported)} | ${r.usedAny} | ${pct(r.usedAny, r.exported)} |`,
    ),
  ];
  const sum = (pick: (r: FaceRow) => number): number => rows.reduce((total, r) => total + pick(r), 0);
  const exported = sum((r) => r.exported);
  lines.push(
    `| **All** | **${exported}** | **${sum((r) => r.usedNonTest)}** | ${pct(
      sum((r) => r.usedNonTest),
      exported,
    )} | **${sum((r) => r.usedAny)}** | ${pct(
      sum((r) => r.usedAny),
      exported,
    )} |`,
  );
  return lines.join('\n');
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { rows, offFace, pathCrossings } = measure();
  console.log(renderTable(rows));
  console.log(`\nImports of \`@loglake/…\` specifiers with no explicit \`exports\` entry: ${offFace.size}`);
  for (const [specifier, importers] of offFace)
    console.log(`- \`${specifier}\` (${[...importers].join(', ')})`);
  console.log(`\nRelative imports that leave their package folder: ${pathCrossings.length}`);
  for (const crossing of pathCrossings) console.log(`- ${crossing}`);
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify(rows));
    process.exit(0);
  }
  if (process.argv.includes('--unused')) {
    for (const row of rows)
      if (row.unused.length > 0) console.log(`\n${row.face} unused: ${row.unused.join(', ')}`);
  }
}
