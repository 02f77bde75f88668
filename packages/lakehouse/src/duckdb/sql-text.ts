// The engine's one way to quote text into the SQL it writes for DuckDB: a string literal ('…', quotes doubled) and
// an identifier ("…", quotes doubled). DuckDB's rules, which are also Trino's for these two.

/** A SQL string literal. */
export function sqlString(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

/** A quoted SQL identifier. */
export function sqlIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
