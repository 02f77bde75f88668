// The error output: objects in the stream's S3 error bucket of the local S3 (`<prefix>...` keys, stored as the local
// S3 stores every key: the prefix is part of an opaque key, so `../` in it goes nowhere). One file per flush, one JSON document per line, in the shape Firehose
// documents for failed records (ErrorCode, ErrorMessage, rawData base64, timestamps, destination table). A file is
// named after the log generation it comes from and placed by the arrival time of that generation's oldest record
// (Firehose evaluates prefix timestamps that way), so a flush replayed after a crash finds the file it already
// wrote instead of writing its records twice; it appears whole (written aside, synced, renamed into place).
import { createHash, randomUUID } from 'node:crypto';
import { closeSync, fsyncSync, mkdirSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where error output objects go: the local S3's buckets. */
export interface ErrorOutputObjects {
  exists(bucket: string, key: string): boolean;
  read(bucket: string, key: string): Buffer | undefined;
  placeFile(
    bucket: string,
    key: string,
    source: string,
    options: { durable?: boolean; createBucket?: boolean },
  ): void;
}

export interface FailedRecord {
  data: Buffer;
  arrivalMs: number;
  errorCode: string;
  errorMessage: string;
}

export interface ErrorOutputTarget {
  objects: ErrorOutputObjects;
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

/** The error output object's key of a batch (the same key every time the batch is flushed). */
export function errorOutputKey(target: ErrorOutputTarget, batch: ErrorBatch): string {
  const digest = createHash('sha256').update(batch.id).digest('hex');
  const at = new Date(batch.oldestArrivalMs);
  const prefix = expandPrefix(target.prefix ?? '!{firehose:error-output-type}/', at, digest.slice(0, 11));
  const id = `${digest.slice(0, 8)}-${digest.slice(8, 12)}-${digest.slice(12, 16)}-${digest.slice(16, 20)}-${digest.slice(20, 32)}`;
  const name = `${target.streamName}-1-${stamp(at, '-')}-${id}`;
  return `${prefix}${name}`;
}

/**
 * Writes the batch's failed records unless its object is already there (a replayed flush); returns the object's
 * `s3://` URI, or undefined when there is nothing to write. `tempDir` is on the same file system (the rename is the
 * commit).
 */
export function writeErrorOutput(
  target: ErrorOutputTarget,
  records: FailedRecord[],
  batch: ErrorBatch,
  tempDir: string,
  now = new Date(),
): string | undefined {
  if (records.length === 0) return undefined;
  const key = errorOutputKey(target, batch);
  const uri = `s3://${target.bucket}/${key}`;
  if (target.objects.exists(target.bucket, key)) return uri;
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
  try {
    target.objects.placeFile(target.bucket, key, temp, { durable: true, createBucket: true });
  } finally {
    rmSync(temp, { force: true });
  }
  return uri;
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
