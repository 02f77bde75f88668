// Stages validated JS rows for DuckDB: newline-delimited JSON of canonical texts, read back with explicit
// casts, so every Iceberg type round-trips exactly (longs beyond 2^53, micros, decimals).
import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import type { Schema } from '../contract';
import { sqlIdent, sqlString } from '../duckdb/duckdb-session';
import { duckdbType, parseType } from '../metadata/types';
import { literalToText } from '../metadata/values';
import type { ValidatedRow } from './row-validation';

export interface StagedRows {
  /** A DuckDB query returning the rows with the schema's column names and types. */
  sql: string;
  /** Its column names: every field of the schema, in order. */
  columns: string[];
  dispose(): Promise<void>;
}

export async function stageRows(tempDir: string, schema: Schema, rows: ValidatedRow[]): Promise<StagedRows> {
  await fs.mkdir(tempDir, { recursive: true });
  const path = join(tempDir, `rows-${randomUUID()}.ndjson`);
  const lines = rows.map((row) => {
    const record: Record<string, string | null> = {};
    for (const field of schema.fields) {
      const value = row.get(field.id) ?? null;
      record[`f${field.id}`] = value === null ? null : literalToText(field.type, value);
    }
    return JSON.stringify(record);
  });
  await fs.writeFile(path, lines.join('\n') + '\n');
  const columns = schema.fields.map((f) => `f${f.id}: 'VARCHAR'`).join(', ');
  const select = schema.fields
    .map((f) => {
      const source = `f${f.id}`;
      const value =
        parseType(f.type).kind === 'binary'
          ? `from_base64(${source})`
          : `CAST(${source} AS ${duckdbType(f.type)})`;
      return `${value} AS ${sqlIdent(f.name)}`;
    })
    .join(', ');
  const sql =
    rows.length === 0
      ? `SELECT ${schema.fields.map((f) => `CAST(NULL AS ${duckdbType(f.type)}) AS ${sqlIdent(f.name)}`).join(', ')} WHERE FALSE`
      : `SELECT ${select} FROM read_json(${sqlString(path)}, format='newline_delimited', columns={${columns}})`;
  return { sql, columns: schema.fields.map((f) => f.name), dispose: () => fs.rm(path, { force: true }) };
}
