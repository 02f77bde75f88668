// The error output: a local folder standing in for the stream's S3 error bucket
// (`<dataDir>/s3/<bucket>/<prefix>...`). One file per flush, one JSON document per line, in the shape Firehose
// documents for failed records (ErrorCode, ErrorMessage, rawData base64, timestamps, destination table).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { randomUUID } from 'node:crypto';

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

export function writeErrorOutput(
  target: ErrorOutputTarget,
  records: FailedRecord[],
  now = new Date(),
): string | undefined {
  if (records.length === 0) return undefined;
  const prefix = expandPrefix(target.prefix ?? '!{firehose:error-output-type}/', now);
  const name = `${target.streamName}-1-${stamp(now, '-')}-${randomUUID()}`;
  const file = join(target.s3Root, target.bucket, ...`${prefix}${name}`.split('/').filter(Boolean));
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
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

/** Firehose prefix expressions: !{firehose:error-output-type}, !{firehose:random-string}, !{timestamp:<fmt>};
 * without a timestamp expression Firehose appends `yyyy/MM/dd/HH/`. */
export function expandPrefix(prefix: string, now: Date): string {
  let hasTimestamp = false;
  let expanded = prefix.replace(/!\{([^}]+)\}/g, (_match, expression: string) => {
    if (expression === 'firehose:error-output-type') return 'iceberg-failed';
    if (expression === 'firehose:random-string') return randomUUID().slice(0, 11);
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
