// NDJSON rows (the contract's NdjsonSource) for DuckDB's JSON reader: the lines are written once to a scratch
// file and every column is read straight as its DuckDB type (metadata/types.ts, the engine's one Iceberg → DuckDB
// map), so DuckDB parses each value once, in its own threads. Timestamps follow Firehose's Iceberg rule: a column
// listed in `microsColumns` holds epoch microseconds (read as BIGINT, turned into a timestamp exactly by
// make_timestamp); the others hold ISO-8601 text. Binary values are base64 text.
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { NdjsonSource, Schema } from '../contract';
import { sqlIdent, sqlString } from '../duckdb/duckdb-session';
import { duckdbType, parseType } from '../metadata/types';

/** The lines joined by newlines in one buffer (one allocation, one copy of each line's bytes). */
export function joinLines(lines: readonly Buffer[]): Buffer {
  let size = lines.length;
  for (const line of lines) size += line.length;
  const out = Buffer.allocUnsafe(size);
  let at = 0;
  for (const line of lines) {
    out.set(line, at);
    at += line.length;
    out[at++] = 0x0a;
  }
  return out;
}

/**
 * Writes the lines as one NDJSON file under `dir` and returns its path. Synchronous on purpose: about a MiB into
 * the page cache costs less than the event-loop turns an async write waits for behind busy request handlers.
 */
export function writeNdjsonFile(dir: string, lines: readonly Buffer[]): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `rows-${randomUUID()}.ndjson`);
  writeFileSync(file, joinLines(lines));
  return file;
}

/** The JSON reader's declared type of a column (what the line holds) and the expression giving the column's value. */
function readColumn(name: string, type: string, micros: boolean): { json: string; value: string } {
  const column = sqlIdent(name);
  if (micros) return { json: 'BIGINT', value: `CAST(make_timestamp(${column}) AS ${duckdbType(type)})` };
  if (parseType(type).kind === 'binary') return { json: 'VARCHAR', value: `from_base64(${column})` };
  return { json: duckdbType(type), value: column };
}

/** One column of a read_json query: its key in the lines, the type the reader reads it as, and its value. */
export interface JsonColumn {
  key: string;
  json: string;
  value: string;
  as: string;
}

/** The engine's one read_json query over NDJSON files (both stagers, row-staging.ts and this one, use it). */
export function readJsonSql(files: readonly string[], columns: readonly JsonColumn[]): string {
  const declared = columns.map((c) => `${sqlIdent(c.key)}: ${sqlString(c.json)}`).join(', ');
  const select = columns.map((c) => `${c.value} AS ${sqlIdent(c.as)}`).join(', ');
  const list = files.map((file) => sqlString(file)).join(', ');
  return `SELECT ${select} FROM read_json([${list}], format = 'newline_delimited', columns = {${declared}})`;
}

/** A query over NDJSON files of the same form returning the schema's columns, by name, in order. */
export function ndjsonReaderSql(
  schema: Schema,
  files: readonly string[],
  microsColumns: NdjsonSource['microsColumns'] = [],
): string {
  const micros = new Set(microsColumns);
  const columns = schema.fields.map((f) => ({
    key: f.name,
    as: f.name,
    ...readColumn(f.name, f.type, micros.has(f.name) && parseType(f.type).kind.startsWith('timestamp')),
  }));
  return readJsonSql(files, columns);
}
