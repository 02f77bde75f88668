// Rendering sql/ templates: one nunjucks environment for every caller. Autoescape is off because the output is
// SQL, not HTML: safety comes from the parameter checks (params.ts) and from quoting trusted data (`sqlstr`).
import nunjucks from 'nunjucks';
import { TemplateParameterError } from './errors';
import { validateParam } from './params';
import { sqlString } from './quoting';
import type { SqlTemplate } from './templates';

let environment: nunjucks.Environment | undefined;
function env(): nunjucks.Environment {
  if (!environment) {
    environment = new nunjucks.Environment(null, { autoescape: false, throwOnUndefined: true });
    environment.addFilter('sqlstr', sqlString);
  }
  return environment;
}

/** A template's whole text rendered with values the caller has already checked (nunjucks' errors pass through). */
export function renderSql(source: string, context: Record<string, unknown>): string {
  return env().renderString(source, context);
}

/**
 * Renders a template with user parameters (validated by their declared kinds; undeclared or missing ones are
 * refused) and trusted data the caller supplies (only reachable through the `sqlstr` filter or loops), split
 * into statements.
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
        {
          value: name,
        },
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
  let sql: string;
  try {
    sql = renderSql(template.source, { ...data, ...values });
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
