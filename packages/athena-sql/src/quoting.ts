// SQL quoting for Athena text. A string literal is single-quoted with its single quotes doubled (Trino's varchar
// literal, trino.io/docs/current/language/types.html); a quoted identifier is double-quoted with its double
// quotes doubled, as Athena's SELECT statements take names (docs.aws.amazon.com/athena/latest/ug/reserved-words.html).
// Callers that take values from outside check them first: quoting only keeps a trusted value inside its quotes.

/** A value as a SQL string literal; null and undefined become NULL. */
export function sqlString(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  return `'${String(value).replace(/'/g, "''")}'`;
}

/** A name as a quoted SQL identifier. */
export function sqlIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
