// Stages validated JS rows for DuckDB: newline-delimited JSON of canonical texts, read back with explicit
// casts, so every Iceberg type round-trips exactly (longs beyond 2^53, micros, decimals). The file and the
// read_json query are ndjson-source.ts's, the engine's one NDJSON stager; only the text-and-cast columns are here.
import { promises as fs } from 'node:fs';
import type { Schema } from '../contract';
import { sqlIdent } from '../duckdb/duckdb-session';
import { duckdbType, parseType } from '../metadata/types';
import { literalToText } from '../metadata/values';
import { readJsonSql, writeNdjsonFile } from './ndjson-source';
import type { ValidatedRow } from './row-validation';

export interface StagedRows {
  /** A DuckDB query returning the rows with the schema's column names and types. */
  sql: string;
  /** Its column names: every field of the schema, in order. */
  columns: string[];
  dispose(): Promise<void>;
}

export async function stageRows(tempDir: string, schema: Schema, rows: ValidatedRow[]): Promise<StagedRows> {
  const empty = `SELECT ${schema.fields.map((f) => `CAST(NULL AS ${duckdbType(f.type)}) AS ${sqlIdent(f.name)}`).join(', ')} WHERE FALSE`;
  const columns = schema.fields.map((f) => f.name);
  if (rows.length === 0) return { sql: empty, columns, dispose: async () => {} };
  const lines = rows.map((row) => {
    const record: Record<string, string | null> = {};
    for (const field of schema.fields) {
      const value = row.get(field.id) ?? null;
      record[`f${field.id}`] = value === null ? null : literalToText(field.type, value);
    }
    return Buffer.from(JSON.stringify(record));
  });
  const path = writeNdjsonFile(tempDir, lines);
  const sql = readJsonSql(
    [path],
    schema.fields.map((f) => {
      const key = `f${f.id}`;
      const value =
        parseType(f.type).kind === 'binary'
          ? `from_base64(${sqlIdent(key)})`
          : `CAST(${sqlIdent(key)} AS ${duckdbType(f.type)})`;
      return { key, json: 'VARCHAR', value, as: f.name };
    }),
  );
  return { sql, columns, dispose: () => fs.rm(path, { force: true }) };
}
