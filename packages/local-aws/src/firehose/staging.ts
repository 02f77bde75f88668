// The fast path of a flush: when every record of the batch is canonical (see records.ts), the raw record bytes
// are written as newline-delimited JSON and the table reads them with DuckDB's JSON reader — one engine append
// from a query, without re-encoding every value in JavaScript. Anything else takes the rows path.
import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sqlIdent as ident, sqlString as text, type RowSource, type Schema } from '@loglake/lakehouse';

const DUCKDB_TYPES: Record<string, string> = {
  string: 'VARCHAR',
  int: 'INTEGER',
  long: 'BIGINT',
  float: 'FLOAT',
  double: 'DOUBLE',
  boolean: 'BOOLEAN',
  timestamp: 'TIMESTAMP',
  timestamptz: 'TIMESTAMPTZ',
};

/** True when every column has a type the raw path reads exactly. */
export function rawPathSupports(schema: Schema): boolean {
  return schema.fields.length > 0 && schema.fields.every((field) => field.type in DUCKDB_TYPES);
}

/** Record bytes as one NDJSON line, or undefined when the record spans lines (pretty-printed JSON). */
export function asJsonLine(data: Buffer): Buffer | undefined {
  let end = data.length;
  while (end > 0 && (data[end - 1] === 0x0a || data[end - 1] === 0x0d)) end--;
  const line = end === data.length ? data : data.subarray(0, end);
  return line.includes(0x0a) || line.includes(0x0d) ? undefined : line;
}

export interface StagedRecords {
  /** The NDJSON file. */
  file: string;
  schema: Schema;
  /** Timestamp columns given as epoch microseconds in this file (read as BIGINT). */
  microsColumns: ReadonlySet<string>;
  /** Removes the staged file (synchronously: an unlink, cheaper than an event-loop round trip behind busy requests). */
  dispose(): void;
}

/** What the engine appends: a query and its column names (the schema's fields, so it need not DESCRIBE it). */
type StagedQuery = Extract<RowSource, { sql: string }>;

/** The lines joined by newlines in one buffer (one allocation, one copy of each record's bytes). */
export function joinLines(lines: Buffer[]): Buffer {
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
 * `microsColumns`: timestamp columns whose values in these lines are epoch microseconds (numbers, as Firehose's
 * Iceberg destination takes them); they are read as BIGINT and turned into timestamps exactly by make_timestamp.
 */
export function stageRawRecords(
  stagingDir: string,
  schema: Schema,
  lines: Buffer[],
  microsColumns: ReadonlySet<string> = new Set(),
): StagedRecords {
  // Synchronous on purpose: about 1 MiB into the page cache costs less than the event-loop turns an async
  // write waits for while PutRecordBatch calls keep the loop busy.
  mkdirSync(stagingDir, { recursive: true });
  const file = join(stagingDir, `firehose-${randomUUID()}.ndjson`);
  writeFileSync(file, joinLines(lines));
  return { file, schema, microsColumns, dispose: () => rmSync(file, { force: true }) };
}

/** One reader over staged files whose timestamp columns take the same form (`micros`: epoch microseconds). */
function readerSql(schema: Schema, files: readonly string[], micros: ReadonlySet<string>): string {
  const columns = schema.fields
    .map((f) => `${ident(f.name)}: ${text(micros.has(f.name) ? 'BIGINT' : (DUCKDB_TYPES[f.type] as string))}`)
    .join(', ');
  const select = schema.fields
    .map((f) =>
      micros.has(f.name)
        ? `CAST(make_timestamp(${ident(f.name)}) AS ${DUCKDB_TYPES[f.type]}) AS ${ident(f.name)}`
        : ident(f.name),
    )
    .join(', ');
  const list = files.map((file) => text(file)).join(', ');
  return `SELECT ${select} FROM read_json([${list}], format = 'newline_delimited', columns = {${columns}})`;
}

/**
 * One query over staged files of the same schema, in order: one reader over every file whose timestamp columns
 * take the same form, so a buffer of many segments is read as one (the usual case: one group).
 */
export function combineStaged(staged: readonly StagedRecords[]): StagedQuery {
  const first = staged[0];
  if (!first) throw new Error('combineStaged needs at least one staged file.');
  const { schema } = first;
  const groups = new Map<string, StagedRecords[]>();
  for (const s of staged) {
    const key = [...s.microsColumns].sort().join(',');
    groups.set(key, [...(groups.get(key) ?? []), s]);
  }
  const selects = [...groups.values()].map((group) =>
    readerSql(
      schema,
      group.map((s) => s.file),
      (group[0] as StagedRecords).microsColumns,
    ),
  );
  return { sql: selects.join(' UNION ALL '), columns: schema.fields.map((f) => f.name) };
}

/** Runs a statement for its effect. */
type StatementRunner = (sql: string) => Promise<unknown>;

/**
 * A buffer's staged parts read into one DuckDB table as they are staged, while PutRecordBatch calls keep the
 * event loop busy and DuckDB's threads are free: the commit then writes its Parquet from the table instead of
 * parsing every part's JSON on the commit path. Loads run one at a time, in the order parts were staged. Any
 * failure, or a part mapped with another schema, makes the table unusable and the commit reads the staged files.
 */
export class StagedTable {
  readonly name = `firehose_buffer_${randomUUID().replaceAll('-', '')}`;
  private schema: Schema | undefined;
  private loads: Promise<boolean> = Promise.resolve(true);
  private readonly loaded = new Set<string>();

  constructor(private readonly run: StatementRunner) {}

  /** Queues the load of one staged part (mapped with `staged.schema`). */
  load(staged: StagedRecords): void {
    const first = this.schema === undefined;
    this.schema ??= staged.schema;
    if (!sameSchema(staged.schema, this.schema)) {
      this.invalidate();
      return;
    }
    const columns = staged.schema.fields
      .map((f) => `${ident(f.name)} ${DUCKDB_TYPES[f.type] as string}`)
      .join(', ');
    const insert = `INSERT INTO ${ident(this.name)} ${readerSql(staged.schema, [staged.file], staged.microsColumns)}`;
    this.loads = this.loads.then(async (ok) => {
      if (!ok) return false;
      try {
        if (first) await this.run(`CREATE TABLE ${ident(this.name)} (${columns})`);
        await this.run(insert);
        this.loaded.add(staged.file);
        return true;
      } catch {
        return false;
      }
    });
  }

  /** A part that could not be loaded (the rows path, or a failed preparation): the table will not be used. */
  invalidate(): void {
    this.loads = this.loads.then(() => false);
  }

  /**
   * The table's query once every queued load is done, or undefined when it does not hold exactly the parts
   * `staged` (all loaded, none other).
   */
  async query(staged: readonly StagedRecords[]): Promise<StagedQuery | undefined> {
    const ok = await this.loads;
    const schema = this.schema;
    if (!ok || !schema || this.loaded.size !== staged.length || !staged.every((s) => this.loaded.has(s.file)))
      return undefined;
    return { sql: `SELECT * FROM ${ident(this.name)}`, columns: schema.fields.map((f) => f.name) };
  }

  /** Drops the table (after the loads queued so far). */
  async drop(): Promise<void> {
    await this.loads;
    if (this.schema === undefined) return;
    await this.run(`DROP TABLE IF EXISTS ${ident(this.name)}`).catch(() => undefined);
  }
}

/** Same columns, ids, types and required flags (a table dropped and created again restarts at schema id 0). */
export function sameSchema(a: Schema, b: Schema): boolean {
  return (
    a === b || (a['schema-id'] === b['schema-id'] && JSON.stringify(a.fields) === JSON.stringify(b.fields))
  );
}
