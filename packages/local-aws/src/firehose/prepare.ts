// Preparing part of a buffer, off the commit path: each record of a part (about 1 MiB, prepared while the buffer
// still fills) is checked against the table's schema (misfits → error output) and becomes one NDJSON line for the
// engine: its own bytes when they are canonical, else a canonical line (records.ts). Within a part a timestamp
// column keeps one form (epoch micros or text), that of the first record giving it; a record in the other form is
// written canonically in the part's form.
import type { Schema } from '@loglake/lakehouse/iceberg';
import {
  asJsonLine,
  RecordMapper,
  type BufferedRecord,
  type RejectedRecord,
  type TimestampForms,
} from './records';

/** Records mapped between two yields (about a millisecond of work). */
const SLICE = 256;

export interface PreparedPart {
  /** The schema the records were checked with. */
  schema: Schema;
  /** Records that fit, in arrival order, and their lines. */
  delivered: BufferedRecord[];
  lines: Buffer[];
  /** Timestamp columns the lines give as epoch microseconds. */
  microsColumns: string[];
  failed: RejectedRecord[];
}

/**
 * `canonicalOnly`: every line is built from the record's values, none is the record's own bytes (for bytes the
 * engine's reader refused although JSON.parse took them, e.g. an object with a duplicate key).
 * While `yieldNow()` says so (a commit runs beside it, and each of its steps resumes on the event loop), mapping
 * yields to the loop every SLICE records, holding the commit up by one slice at most rather than by the whole part.
 */
export async function preparePart(
  schema: Schema,
  records: readonly BufferedRecord[],
  options: { yieldNow?: () => boolean; canonicalOnly?: boolean } = {},
): Promise<PreparedPart> {
  const { yieldNow = () => false, canonicalOnly = false } = options;
  const mapper = new RecordMapper(schema);
  const forms: TimestampForms = new Map();
  const part: PreparedPart = { schema, delivered: [], lines: [], microsColumns: [], failed: [] };
  for (const [index, record] of records.entries()) {
    if (index > 0 && index % SLICE === 0 && yieldNow()) await new Promise((resolve) => setImmediate(resolve));
    const outcome = mapper.map(record.data);
    if (!outcome.ok) {
      part.failed.push({ ...record, errorCode: outcome.errorCode, errorMessage: outcome.errorMessage });
      continue;
    }
    let sameForms = true;
    for (const column of outcome.microsColumns) sameForms = keepForm(forms, column, 'micros') && sameForms;
    for (const column of outcome.textTimestampColumns)
      sameForms = keepForm(forms, column, 'text') && sameForms;
    const line = outcome.canonical && sameForms && !canonicalOnly ? asJsonLine(record.data) : undefined;
    part.lines.push(line ?? mapper.canonicalLine(outcome.record ?? record.data, forms));
    part.delivered.push(record);
  }
  part.microsColumns = [...forms].filter(([, form]) => form === 'micros').map(([column]) => column);
  return part;
}

/** Records the column's form if it has none yet; false when the part already gives it in the other form. */
function keepForm(forms: TimestampForms, column: string, form: 'micros' | 'text'): boolean {
  const known = forms.get(column);
  if (known === undefined) forms.set(column, form);
  return known === undefined || known === form;
}

/** Same columns, ids, types and required flags (a table dropped and created again restarts at schema id 0). */
export function sameSchema(a: Schema, b: Schema): boolean {
  return (
    a === b || (a['schema-id'] === b['schema-id'] && JSON.stringify(a.fields) === JSON.stringify(b.fields))
  );
}
