// Renders a sql/ template and runs each of its statements in the lab workgroup, in order.
import {
  renderTemplate,
  runQuery,
  type AthenaTarget,
  type QueryResult,
  type SqlTemplate,
} from '@loglake/athena-sql';
import { labTemplateData } from './lab-data';
import { findTemplate } from './find-template';

export interface NamedQueryRun {
  template: SqlTemplate;
  statements: { sql: string; result: QueryResult }[];
  dataScannedInBytes: number;
}

export async function runNamedQuery(
  athena: AthenaTarget,
  nameOrFile: string,
  params: Record<string, string> = {},
): Promise<NamedQueryRun> {
  const template = findTemplate(nameOrFile);
  const statements = renderTemplate(template, params, labTemplateData());
  const results: NamedQueryRun['statements'] = [];
  for (const sql of statements) results.push({ sql, result: await runQuery(athena, sql) });
  return {
    template,
    statements: results,
    dataScannedInBytes: results.reduce((n, s) => n + s.result.dataScannedInBytes, 0),
  };
}
