// Turns a metadata table into a parenthesised DuckDB relation (a typed VALUES list), so the SQL front end can
// bind `"t$snapshots"` exactly like a table scan: `FROM <relation> AS alias`.
import { sqlIdent as quoteIdent, sqlString as quoteString } from '../duckdb/sql-text';
import type { MetadataTable, MetadataValue } from './types';

export { quoteIdent };

/** A DuckDB literal for a value; the caller casts it to the column type. */
export function sqlLiteral(value: MetadataValue): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (typeof value === 'number') {
    if (Number.isNaN(value)) return "'NaN'::DOUBLE";
    if (!Number.isFinite(value)) return value > 0 ? "'Infinity'::DOUBLE" : "'-Infinity'::DOUBLE";
    return String(value);
  }
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'string') return quoteString(value);
  if (value instanceof Date) return `${quoteString(value.toISOString())}::TIMESTAMPTZ`;
  if (value instanceof Uint8Array) return `unhex(${quoteString(Buffer.from(value).toString('hex'))})`;
  if (Array.isArray(value)) return `[${value.map(sqlLiteral).join(', ')}]`;
  if (value instanceof Map) {
    const entries = [...value.entries()].map(([k, v]) => `${sqlLiteral(k)}: ${sqlLiteral(v)}`);
    return `MAP {${entries.join(', ')}}`;
  }
  const fields = Object.entries(value).map(([k, v]) => `${quoteString(k)}: ${sqlLiteral(v)}`);
  return `{${fields.join(', ')}}`;
}

export function toRelationSql(table: MetadataTable): string {
  const { columns, rows } = table;
  if (rows.length === 0) {
    const nulls = columns.map((c) => `CAST(NULL AS ${c.duckdbType}) AS ${quoteIdent(c.name)}`);
    return `(SELECT ${nulls.join(', ')} WHERE false)`;
  }
  const values = rows.map(
    (row) =>
      `(${columns.map((c, i) => `CAST(${sqlLiteral(row[i] ?? null)} AS ${c.duckdbType})`).join(', ')})`,
  );
  const names = columns.map((c) => quoteIdent(c.name)).join(', ');
  return `(SELECT * FROM (VALUES ${values.join(',\n')}) AS v(${names}))`;
}
