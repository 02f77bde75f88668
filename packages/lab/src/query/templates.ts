// The sql/ folder: one statement file (or several statements separated by `;` at line end) per lab step, by
// namespace. `.sql.njk` files are nunjucks templates; their header declares parameters:
//   -- @param snapshot_id snapshot_id  The smoke test's snapshot
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import nunjucks from 'nunjucks';
import { TemplateParameterError, UnknownNameError } from '../errors';
import { didYouMean } from '../cli-support';
import { isParamKind, validateParam, type ParamDeclaration } from './params';

export const SQL_DIR = fileURLToPath(new URL('../../../../sql', import.meta.url));

export interface SqlTemplate {
  /** `namespace/name` (path under sql/ without extension). */
  name: string;
  path: string;
  description: string;
  params: ParamDeclaration[];
  source: string;
}

const EXTENSIONS = ['.sql.njk', '.sql'];

export function listTemplates(dir: string = SQL_DIR): SqlTemplate[] {
  const found: SqlTemplate[] = [];
  const walk = (d: string) => {
    for (const entry of readdirSync(d).sort()) {
      const full = join(d, entry);
      if (statSync(full).isDirectory()) walk(full);
      else if (EXTENSIONS.some((ext) => entry.endsWith(ext))) found.push(readTemplate(full, dir));
    }
  };
  if (existsSync(dir)) walk(dir);
  return found;
}

export function readTemplate(path: string, dir: string = SQL_DIR): SqlTemplate {
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

/** Finds a template by `namespace/name`, bare name (if unique), or file path. */
export function findTemplate(nameOrFile: string, dir: string = SQL_DIR): SqlTemplate {
  const isFile = EXTENSIONS.some((ext) => nameOrFile.endsWith(ext));
  if (isFile && existsSync(nameOrFile)) {
    return readTemplate(resolve(nameOrFile), dir);
  }
  const all = listTemplates(dir);
  const byName = all.find((t) => `${t.name}${EXTENSIONS.find((ext) => t.path.endsWith(ext))}` === nameOrFile);
  if (isFile && byName) return byName;
  if (isFile)
    throw new UnknownNameError(
      `${nameOrFile}: no such file (from ${process.cwd()}). Give the path of a .sql or .sql.njk file, or a query name (\`pnpm query --list\`).`,
      { value: nameOrFile },
    );
  const matches = all.filter((t) => t.name === nameOrFile || t.name.split('/').pop() === nameOrFile);
  if (matches.length === 1) return matches[0] as SqlTemplate;
  const names = all.map((t) => t.name).join(', ');
  if (matches.length > 1) {
    throw new UnknownNameError(
      `Query name ${nameOrFile} is ambiguous: use one of ${matches.map((t) => t.name).join(', ')}.`,
      { value: nameOrFile },
    );
  }
  const suggestion = didYouMean(
    nameOrFile,
    all.flatMap((t) => [t.name, t.name.split('/').pop() as string]),
  );
  throw new UnknownNameError(`No query named ${nameOrFile}${suggestion}. Valid names: ${names}.`, {
    value: nameOrFile,
  });
}

/** Quotes a trusted value (inventory rows the lab supplies) as a SQL string literal. */
function sqlString(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  return `'${String(value).replace(/'/g, "''")}'`;
}

/**
 * Renders a template with user parameters (validated by their declared kinds; undeclared or missing ones are
 * refused) and trusted data the lab supplies (only reachable through the `sqlstr` filter or loops).
 */
export function renderTemplate(
  template: SqlTemplate,
  params: Record<string, string>,
  data: Record<string, unknown> = {},
): string[] {
  const declared = new Map(template.params.map((p) => [p.name, p]));
  for (const name of Object.keys(params)) {
    if (!declared.has(name)) {
      const valid = template.params.map((p) => p.name).join(', ') || 'none';
      throw new TemplateParameterError(
        `${template.name} has no parameter ${name}. Its parameters: ${valid}.`,
        { value: name },
      );
    }
  }
  const values: Record<string, string> = {};
  for (const declaration of template.params) {
    const raw = params[declaration.name];
    if (raw === undefined) {
      throw new TemplateParameterError(
        `${template.name} needs --param ${declaration.name}=<${declaration.kind}> (${declaration.description}).`,
        { value: declaration.name },
      );
    }
    values[declaration.name] = validateParam(declaration, raw);
  }
  const env = new nunjucks.Environment(null, { autoescape: false, throwOnUndefined: true });
  env.addFilter('sqlstr', sqlString);
  let sql: string;
  try {
    sql = env.renderString(template.source, { ...data, ...values });
  } catch (error) {
    // Templates outside the lab's namespaces (e.g. sql/snapshots/) are rendered by their own workflow.
    throw new TemplateParameterError(
      `${template.name} could not be rendered: ${(error as Error).message.split('\n').pop()?.trim()}. ` +
        'It uses a value that is neither a declared @param nor lab data; run it through the workflow that owns it.',
      { value: template.name, cause: error },
    );
  }
  return splitStatements(sql);
}

/**
 * Splits on `;` at end of line and drops whole-line `--` comments (they document the file, not the statement).
 * Our SQL never has `;` at the end of a line inside a literal.
 */
export function splitStatements(sql: string): string[] {
  return sql
    .split(/;[ \t]*(?:\r?\n|$)/)
    .map((s) =>
      s
        .split('\n')
        .filter((line) => !line.trim().startsWith('--'))
        .join('\n')
        .trim(),
    )
    .filter((s) => s !== '');
}
