// S3's `aws-chunked` content encoding (SigV4 streaming uploads: "Signature Calculations for the Authorization Header:
// Transferring Payload in Multiple Chunks", and the unsigned variant with trailing checksums): the body is a series
// of `<hex size>[;chunk-signature=…]\r\n<bytes>\r\n` chunks ending with a zero-size chunk and optional trailers.
// The object is the chunks' bytes; signatures are not checked locally (as elsewhere), trailers are dropped.
import type { LocalRequest } from '../protocol';
import { wireError } from '../model/wire-errors';

export function isAwsChunked(request: Pick<LocalRequest, 'headers'>): boolean {
  const encoding = String(request.headers['content-encoding'] ?? '');
  const sha = String(request.headers['x-amz-content-sha256'] ?? '');
  return encoding.split(',').some((e) => e.trim() === 'aws-chunked') || sha.startsWith('STREAMING-');
}

export function decodeAwsChunked(body: Buffer): Buffer {
  const chunks: Buffer[] = [];
  let offset = 0;
  for (;;) {
    const lineEnd = body.indexOf('\r\n', offset);
    if (lineEnd < 0) throw incomplete();
    const header = body.subarray(offset, lineEnd).toString('latin1');
    const size = Number.parseInt(header.split(';')[0] ?? '', 16);
    if (!Number.isInteger(size) || size < 0) throw incomplete();
    offset = lineEnd + 2;
    if (size === 0) return Buffer.concat(chunks);
    if (offset + size > body.length) throw incomplete();
    chunks.push(body.subarray(offset, offset + size));
    offset += size + 2;
  }
}

const incomplete = () =>
  wireError('s3', 'IncompleteBody', 'The request body is not a complete aws-chunked stream.');
