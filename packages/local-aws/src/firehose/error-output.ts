// The error output: a local folder standing in for the stream's S3 error bucket
// (`<dataDir>/s3/<bucket>/<prefix>...`). One file per flush, one JSON document per line, in the shape Firehose
// documents for failed records (ErrorCode, ErrorMessage, rawData base64, timestamps, destination table). A file is
// named after the log generation it comes from and placed by the arrival time of that generation's oldest record
// (Firehose evaluates prefix timestamps that way), so a flush replayed after a crash finds the file it already
// wrote instead of writing its records twice; it appears whole (written aside, synced, renamed into place).
import { createHash, randomUUID } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface FailedRecord {
  data: Buffer;
  arrivalMs: number;
  errorCode: string;
  errorMessage: string;
}

export interface ErrorOutputTarget {
  s3Root: string;
  bucket: string;
  /** ErrorOutputPrefix (table-specific S3ErrorOutputPrefix wins), possibly with !{...} expressions. */
  prefix: string | undefined;
  streamName: string;
  database: string;
  table: string;
  catalogArn: string;
  region: string;
}

/** Which flush a file holds: a stable id (the stream's log and generation) and its oldest record's arrival. */
export interface ErrorBatch {
  id: string;
  oldestArrivalMs: number;
}

/** The error output file of a batch (the same path every time the batch is flushed). */
export function errorOutputFile(target: ErrorOutputTarget, batch: ErrorBatch): string {
  const digest = createHash('sha256').update(batch.id).digest('hex');
  const at = new Date(batch.oldestArrivalMs);
  const prefix = expandPrefix(target.prefix ?? '!{firehose:error-output-type}/', at, digest.slice(0, 11));
  const id = `${digest.slice(0, 8)}-${digest.slice(8, 12)}-${digest.slice(12, 16)}-${digest.slice(16, 20)}-${digest.slice(20, 32)}`;
  const name = `${target.streamName}-1-${stamp(at, '-')}-${id}`;
  return join(target.s3Root, target.bucket, ...`${prefix}${name}`.split('/').filter(Boolean));
}

/**
 * Writes the batch's failed records unless its file is already there (a replayed flush); returns the file, or
 * undefined when there is nothing to write. `tempDir` is on the same file system (the rename is the commit).
 */
export function writeErrorOutput(
  target: ErrorOutputTarget,
  records: FailedRecord[],
  batch: ErrorBatch,
  tempDir: string,
  now = new Date(),
): string | undefined {
  if (records.length === 0) return undefined;
  const file = errorOutputFile(target, batch);
  if (existsSync(file)) return file;
  mkdirSync(dirname(file), { recursive: true });
  const lines = records.map((record) =>
    JSON.stringify({
      attemptsMade: 1,
      arrivalTimestamp: record.arrivalMs,
      errorCode: record.errorCode,
      errorMessage: record.errorMessage,
      attemptEndingTimestamp: now.getTime(),
      rawData: record.data.toString('base64'),
      destinationDatabase: target.database,
      destinationTable: target.table,
      catalogArn: target.catalogArn,
      region: target.region,
    }),
  );
  mkdirSync(tempDir, { recursive: true });
  const temp = join(tempDir, `error-output-${randomUUID()}.tmp`);
  const fd = openSync(temp, 'w');
  try {
    writeFileSync(fd, `${lines.join('\n')}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, file);
  const dir = openSync(dirname(file), 'r');
  try {
    fsyncSync(dir);
  } finally {
    closeSync(dir);
  }
  return file;
}

/** Firehose prefix expressions: !{firehose:error-output-type}, !{firehose:random-string}, !{timestamp:<fmt>};
 * without a timestamp expression Firehose appends `yyyy/MM/dd/HH/`. The "random" string is the batch's own, so a
 * replayed batch lands where it did the first time. */
function expandPrefix(prefix: string, now: Date, randomString = randomUUID().slice(0, 11)): string {
  let hasTimestamp = false;
  let expanded = prefix.replace(/!\{([^}]+)\}/g, (_match, expression: string) => {
    if (expression === 'firehose:error-output-type') return 'iceberg-failed';
    if (expression === 'firehose:random-string') return randomString;
    if (expression.startsWith('timestamp:')) {
      hasTimestamp = true;
      return formatTimestamp(expression.slice('timestamp:'.length), now);
    }
    return expression;
  });
  if (!hasTimestamp) {
    if (expanded && !expanded.endsWith('/')) expanded += '/';
    expanded += `${formatTimestamp('yyyy/MM/dd/HH', now)}/`;
  }
  return expanded;
}

function formatTimestamp(format: string, now: Date): string {
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  return format
    .replace(/yyyy/g, String(now.getUTCFullYear()))
    .replace(/MM/g, pad(now.getUTCMonth() + 1))
    .replace(/dd/g, pad(now.getUTCDate()))
    .replace(/HH/g, pad(now.getUTCHours()))
    .replace(/mm/g, pad(now.getUTCMinutes()))
    .replace(/ss/g, pad(now.getUTCSeconds()));
}

function stamp(now: Date, sep: string): string {
  return formatTimestamp(`yyyy${sep}MM${sep}dd${sep}HH${sep}mm${sep}ss`, now);
}
