// Turns the contract's RowSource into a DuckDB query: SQL passes through; NDJSON lines are staged as one file
// and read column by column (ndjson-source.ts); JS rows are validated strictly (any rejected row fails the whole
// append, naming the rows and reasons) and staged.
import type { RowSource, Schema } from '../contract';
import { SchemaMismatchError } from '../errors';
import { removeUris } from '../io/file-io';
import { ndjsonReaderSql, writeNdjsonFile } from './ndjson-source';
import { validateRows } from './row-validation';
import { stageRows } from './row-staging';

export interface ResolvedSource {
  sql: string;
  /** The query's column names when known (staged rows, or given by the caller). */
  columns?: string[];
  dispose(): Promise<void>;
}

export async function resolveRowSource(
  source: RowSource,
  schema: Schema,
  tempDir: string,
  table: string,
): Promise<ResolvedSource> {
  if ('sql' in source) {
    return {
      sql: source.sql,
      ...(source.columns ? { columns: source.columns } : {}),
      dispose: async () => undefined,
    };
  }
  if ('ndjson' in source) {
    if (source.ndjson.length === 0) return stageRows(tempDir, schema, []);
    const file = writeNdjsonFile(tempDir, source.ndjson);
    return {
      sql: ndjsonReaderSql(schema, [file], source.microsColumns),
      columns: schema.fields.map((f) => f.name),
      dispose: () => removeUris([file]),
    };
  }
  if (!Array.isArray(source.rows)) {
    throw new SchemaMismatchError(`Rows for ${table} must be an array of objects.`, { value: source.rows });
  }
  const { values, rejected } = validateRows(schema, source.rows);
  if (rejected.length > 0) {
    const shown = rejected
      .slice(0, 3)
      .map((r) => `row ${r.index}: ${r.reason}`)
      .join('; ');
    throw new SchemaMismatchError(
      `${rejected.length} of ${source.rows.length} rows do not fit ${table} (nothing was written): ${shown}. ` +
        `Fix those rows, or use validateRows() to split accepted from rejected rows.`,
      { value: rejected },
    );
  }
  return stageRows(tempDir, schema, values);
}
