// The conformance corpus's unit: one statement taken from public documentation (Trino's function and SELECT
// pages, Athena's Iceberg and S3 Tables pages), the result or error the page gives, and where it comes from.
// Expected rows are written in Athena's GetQueryResults encoding (every value a string, NULL as an absent value,
// `[a, b]` arrays, `{k=v}` maps and rows, no header row): the documented values, spelled as Athena returns them.
// Where the local engine cannot match, `gap` names the NOT_SUPPORTED error it gives instead and why; gaps are
// listed in lakehouse/src/sql/README.md and count as failures in the pass rate. An expectation no page gives is
// marked `ours`, saying where it comes from.

export type Family =
  | 'date-time'
  | 'decimal'
  | 'json'
  | 'url'
  | 'aggregate'
  | 'window'
  | 'string-regex'
  | 'ip-address'
  | 'array-map'
  | 'conditional-comparison'
  | 'conversion'
  | 'select-clauses'
  | 'iceberg-ddl-dml';

export interface CorpusCase {
  /** Unique, stable: `<family>/<what>`. */
  id: string;
  family: Family;
  /** The public page the statement and its result come from. */
  source: string;
  sql: string;
  /** Expected rows, without the header row. */
  rows?: (string | null)[][];
  /** Expected result column types (Athena's ColumnInfo Type). */
  types?: string[];
  /** Rows may come in any order (the page's query has no ORDER BY). */
  unordered?: boolean;
  /** Map entries may come in any order (Trino does not order a map's entries). */
  unorderedMaps?: boolean;
  /** The query must fail with this StateChangeReason (exact text, or a pattern). */
  error?: string | RegExp;
  /**
   * StartQueryExecution itself refuses the statement (InvalidRequestException, no query execution), with `error`
   * as its message.
   */
  refusedAtSubmission?: boolean;
  /** Runs in corpus order after every independent case (it reads or changes what earlier ones created). */
  sequential?: boolean;
  /** Why the expectation differs from the page's text, when it does (a stale example, a session zone). */
  note?: string;
  /**
   * The expectation is ours, not the page's: what the page does not give (a result it does not show, an error's
   * exact name or text) and where it comes from instead (Trino's source, the function's stated definition).
   * Listed in lakehouse/src/sql/README.md.
   */
  ours?: string;
  /** The local engine does not match Athena here: the query fails with this NOT_SUPPORTED error instead. */
  gap?: { error: RegExp; reason: string };
}

type Rows = (string | null)[][];

/** A family's cases from one page: `c(id, sql, rows, extra)`. */
export function pageCases(family: Family, source: string) {
  return (id: string, sql: string, rows: Rows, extra: Partial<CorpusCase> = {}): CorpusCase => ({
    id: `${family}/${id}`,
    family,
    source,
    sql,
    rows,
    ...extra,
  });
}

/** A family's cases from several pages: `c(id, source, sql, rows, extra)`. */
export function familyCases(family: Family) {
  return (id: string, source: string, sql: string, rows: Rows, extra: Partial<CorpusCase> = {}): CorpusCase =>
    pageCases(family, source)(id, sql, rows, extra);
}

/** What the local Athena answered, read through the AWS SDK. */
export interface CaseOutcome {
  /** The query's final state, or REFUSED when StartQueryExecution refused it (InvalidRequestException). */
  state: string;
  reason?: string;
  columns: { name: string; type: string }[];
  rows: (string | null)[][];
}

export type Verdict =
  /** The documented result (or error). */
  | { kind: 'pass' }
  /** A listed gap, failing with its NOT_SUPPORTED error as it should. */
  | { kind: 'gap' }
  /** Anything else: the description says what differed. */
  | { kind: 'fail'; detail: string };

/** `{a=1, b=2}` with its top-level entries sorted, for comparing maps whose entry order is not defined. */
function sortMapEntries(value: string | null): string | null {
  if (value === null || !value.startsWith('{') || !value.endsWith('}')) return value;
  const entries: string[] = [];
  let depth = 0;
  let start = 1;
  for (let i = 1; i < value.length - 1; i++) {
    const c = value[i];
    if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
    else if (c === ',' && depth === 0 && value[i + 1] === ' ') {
      entries.push(value.slice(start, i));
      start = i + 2;
    }
  }
  entries.push(value.slice(start, value.length - 1));
  return `{${entries.sort().join(', ')}}`;
}

const matches = (text: string | undefined, expected: string | RegExp): boolean =>
  text !== undefined && (typeof expected === 'string' ? text === expected : expected.test(text));

/** Judges one outcome against its case: pass, a confirmed gap, or a failure saying what differed. */
export function judge(c: CorpusCase, outcome: CaseOutcome): Verdict {
  const failed = outcome.state === 'FAILED' || outcome.state === 'CANCELLED';
  if (c.gap) {
    if (failed && matches(outcome.reason, c.gap.error)) return { kind: 'gap' };
    return {
      kind: 'fail',
      detail: failed
        ? `listed gap failed differently: ${outcome.reason}`
        : `listed gap no longer fails (state ${outcome.state}): check the result and remove the gap`,
    };
  }
  if (c.refusedAtSubmission) {
    if (outcome.state === 'REFUSED' && c.error !== undefined && matches(outcome.reason, c.error))
      return { kind: 'pass' };
    return {
      kind: 'fail',
      detail: `${outcome.state} (${outcome.reason}), expected StartQueryExecution to refuse it with ${String(c.error)}`,
    };
  }
  if (c.error !== undefined) {
    if (failed && matches(outcome.reason, c.error)) return { kind: 'pass' };
    return {
      kind: 'fail',
      detail: failed
        ? `failed with ${outcome.reason}`
        : `${outcome.state === 'REFUSED' ? `refused at submission: ${outcome.reason}` : 'succeeded'} (expected the error ${String(c.error)})`,
    };
  }
  if (outcome.state !== 'SUCCEEDED') return { kind: 'fail', detail: `${outcome.state}: ${outcome.reason}` };
  if (c.types) {
    const types = outcome.columns.map((col) => col.type);
    if (JSON.stringify(types) !== JSON.stringify(c.types))
      return { kind: 'fail', detail: `types ${JSON.stringify(types)}, expected ${JSON.stringify(c.types)}` };
  }
  if (c.rows) {
    const normal = (rows: (string | null)[][]): string[] => {
      const texts = rows.map((r) => JSON.stringify(c.unorderedMaps ? r.map(sortMapEntries) : r));
      return c.unordered ? texts.sort() : texts;
    };
    const got = normal(outcome.rows);
    const want = normal(c.rows);
    if (JSON.stringify(got) !== JSON.stringify(want))
      return {
        kind: 'fail',
        detail: `rows ${JSON.stringify(outcome.rows)}, expected ${JSON.stringify(c.rows)}`,
      };
  }
  return { kind: 'pass' };
}
