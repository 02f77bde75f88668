// Firehose's error output, read back: the objects under the stream's error prefix, each holding one JSON document
// per failed record (Firehose developer guide: `attemptsMade`, `arrivalTimestamp`, the error code and message,
// `rawData` base64, …). Objects may be GZIP-compressed (the firehose stack's S3Configuration compresses); the
// documents are newline-separated or simply concatenated, and the code/message keys appear as `errorCode` /
// `ErrorCode` / `lastErrorCode` depending on the destination, so all are accepted.
import { gunzipSync } from 'node:zlib';
import { GetObjectCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';

export interface FailedRecordDocument {
  errorCode: string;
  errorMessage: string;
  /** The record's bytes as sent, decoded from `rawData`. */
  raw: Buffer;
  /** The object the document was read from. */
  key: string;
}

/** Every top-level JSON object in `text`, whether separated by newlines or not. */
export function jsonDocuments(text: string): unknown[] {
  const out: unknown[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{') {
      if (depth === 0) start = i;
      depth++;
    } else if (c === '}') {
      depth--;
      if (depth === 0 && start >= 0) {
        out.push(JSON.parse(text.slice(start, i + 1)));
        start = -1;
      }
    }
  }
  return out;
}

export function failedRecordOf(doc: unknown, key: string): FailedRecordDocument | undefined {
  if (!doc || typeof doc !== 'object') return undefined;
  const d = doc as Record<string, unknown>;
  const text = (k: string[]) =>
    k.map((name) => d[name]).find((v): v is string => typeof v === 'string') ?? '';
  if (typeof d.rawData !== 'string') return undefined;
  return {
    errorCode: text(['errorCode', 'ErrorCode', 'lastErrorCode']),
    errorMessage: text(['errorMessage', 'ErrorMessage', 'lastErrorMessage']),
    raw: Buffer.from(d.rawData, 'base64'),
    key,
  };
}

const GZIP_MAGIC = [0x1f, 0x8b];

/** The failed-record documents of the objects under `prefix` modified at or after `since`. */
export async function readErrorOutput(
  s3: S3Client,
  bucket: string,
  prefix: string,
  since: Date,
): Promise<FailedRecordDocument[]> {
  const out: FailedRecordDocument[] = [];
  let token: string | undefined;
  do {
    const page = await s3.send(
      new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }),
    );
    for (const object of page.Contents ?? []) {
      if (!object.Key || (object.LastModified && object.LastModified.getTime() < since.getTime())) continue;
      const body = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: object.Key }));
      let bytes = Buffer.from((await body.Body?.transformToByteArray()) ?? []);
      if (bytes[0] === GZIP_MAGIC[0] && bytes[1] === GZIP_MAGIC[1]) bytes = gunzipSync(bytes);
      for (const doc of jsonDocuments(bytes.toString('utf8'))) {
        const failed = failedRecordOf(doc, object.Key);
        if (failed) out.push(failed);
      }
    }
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return out;
}
