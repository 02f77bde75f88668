// Preparing part of a buffer, off the commit path: map each record of a segment (about 1 MiB, prepared while the
// buffer still fills) with the table schema last seen (misfits → error output) and, for the raw fast path, stage
// the canonical records as one NDJSON file. Only commits are serialized (delivery.ts), and a commit maps a
// segment again if the table's schema has moved on since.
import type { Schema } from '@loglake/lakehouse';
import type { BufferedRecord } from './delivery';
import type { FailedRecord } from './error-output';
import { RecordMapper } from './records';
import { asJsonLine, rawPathSupports, stageRawRecords, type StagedRecords } from './staging';

/** Records mapped between two yields (about a millisecond of work). */
const SLICE = 256;

export interface PreparedFlush {
  /** The schema the records were mapped with. */
  schema: Schema;
  /** Records that fit the table, in arrival order. */
  delivered: BufferedRecord[];
  failed: FailedRecord[];
  /** The raw path's staged NDJSON file (dispose after the commit); undefined = the rows path. */
  staged?: StagedRecords;
  /** Rows of the delivered records: built while mapping on the rows path, on demand on the raw path. */
  rows(): Record<string, unknown>[];
}

/**
 * `stagingDir` undefined = the rows path. The raw path needs every delivered record canonical and on one
 * line, and each timestamp column in one form across the batch (epoch micros numbers or ISO strings; nulls
 * fit either) so the reader can declare its JSON type; otherwise the whole batch takes the rows path.
 * While `yieldNow()` says so (a commit is running beside it, and each of its steps resumes on the event
 * loop), mapping yields to the loop every SLICE records, holding the commit up by one slice at most rather
 * than by the whole buffer; otherwise it runs in one go.
 */
export async function prepareFlush(
  schema: Schema,
  batch: BufferedRecord[],
  stagingDir: string | undefined,
  yieldNow: () => boolean = () => false,
): Promise<PreparedFlush> {
  const mapper = new RecordMapper(schema);
  const delivered: BufferedRecord[] = [];
  const failed: FailedRecord[] = [];
  // The raw path only needs each record's verdict; rows are built when the batch leaves (or never takes) it.
  let rows: Record<string, unknown>[] | undefined =
    stagingDir !== undefined && rawPathSupports(schema) ? undefined : [];
  const lines: Buffer[] = [];
  const microsColumns = new Set<string>();
  const textColumns = new Set<string>();
  const rowsOf = (records: BufferedRecord[]) =>
    records.map((record) => {
      const outcome = mapper.map(record.data);
      // These records passed once; mapping is deterministic.
      if (!outcome.ok) throw new Error(`Record re-mapping failed: ${outcome.errorMessage}`);
      return outcome.row;
    });
  for (const [index, record] of batch.entries()) {
    if (index > 0 && index % SLICE === 0 && yieldNow()) await new Promise((resolve) => setImmediate(resolve));
    const outcome = mapper.map(record.data, rows !== undefined);
    if (!outcome.ok) {
      failed.push({ ...record, errorCode: outcome.errorCode, errorMessage: outcome.errorMessage });
      continue;
    }
    if (rows === undefined) {
      let oneForm = true;
      for (const column of outcome.microsColumns) {
        microsColumns.add(column);
        if (textColumns.has(column)) oneForm = false;
      }
      for (const column of outcome.textTimestampColumns) {
        textColumns.add(column);
        if (microsColumns.has(column)) oneForm = false;
      }
      const line = outcome.canonical && oneForm ? asJsonLine(record.data) : undefined;
      if (line) {
        lines.push(line);
        delivered.push(record);
        continue;
      }
      // This record leaves the raw path for the whole batch.
      rows = rowsOf([...delivered, record]);
    } else rows.push(outcome.row);
    delivered.push(record);
  }
  const staged =
    rows === undefined && stagingDir !== undefined && lines.length > 0
      ? stageRawRecords(stagingDir, schema, lines, microsColumns)
      : undefined;
  return {
    schema,
    delivered,
    failed,
    staged,
    rows: () => (rows ??= rowsOf(delivered)),
  };
}
