// Loading sql/: one statement file (or several statements separated by `;` at line end) per step, by namespace.
// `.sql.njk` files are nunjucks templates; their header declares parameters:
//   -- @param snapshot_id snapshot_id  The smoke test's snapshot
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SqlFolderNotFoundError, TemplateParameterError } from './errors';
import { isParamKind, type ParamDeclaration } from './params';

export interface SqlTemplate {
  /** `namespace/name` (path under sql/ without extension). */
  name: string;
  path: string;
  description: string;
  params: ParamDeclaration[];
  source: string;
}

export const SQL_EXTENSIONS = ['.sql.njk', '.sql'] as const;

/**
 * The sql/ folder: beside the module in a Lambda bundle (esbuild keeps `import.meta.url` the bundle's, and the
 * bundler copies sql/<namespace>/ there), else the repo's own sql/ (this file is packages/athena-sql/src/).
 */
export function sqlDir(): string {
  const candidates = [new URL('./sql/', import.meta.url), new URL('../../../sql/', import.meta.url)];
  for (const url of candidates) {
    const dir = fileURLToPath(url);
    if (existsSync(dir)) return dir.replace(/[\\/]$/, '');
  }
  throw new SqlFolderNotFoundError(
    'SQL templates not found: expected sql/ beside the bundle or at the repo root.',
    {
      value: candidates.map(String),
    },
  );
}

export function listTemplates(dir: string = sqlDir()): SqlTemplate[] {
  const found: SqlTemplate[] = [];
  const walk = (d: string) => {
    for (const entry of readdirSync(d).sort()) {
      const full = join(d, entry);
      if (statSync(full).isDirectory()) walk(full);
      else if (SQL_EXTENSIONS.some((ext) => entry.endsWith(ext))) found.push(readTemplate(full, dir));
    }
  };
  if (existsSync(dir)) walk(dir);
  return found;
}

export function readTemplate(path: string, dir: string = sqlDir()): SqlTemplate {
  const source = readFileSync(path, 'utf8');
  const rel = relative(dir, path).split('\\').join('/');
  const name = rel.startsWith('..') ? basename(path) : rel.replace(/\.sql(\.njk)?$/, '');
  const params: ParamDeclaration[] = [];
  const description: string[] = [];
  for (const line of source.split('\n')) {
    if (!line.startsWith('--')) break;
    const param = /^--\s*@param\s+(\w+)\s+(\w+)\s*(.*)$/.exec(line);
    if (param) {
      const [, pname, kind, text] = param as unknown as [string, string, string, string];
      if (!isParamKind(kind))
        throw new TemplateParameterError(`${rel}: @param ${pname} has unknown kind ${kind}.`, {
          value: kind,
        });
      params.push({ name: pname, kind, description: text });
    } else description.push(line.replace(/^--\s?/, ''));
  }
  return { name, path, description: description.join(' ').trim(), params, source };
}
