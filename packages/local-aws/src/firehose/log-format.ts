// The on-disk form of a stream's record log: segment files named `<generation>.<part>.log` (a generation is one
// buffer, i.e. one flush; a part is one file of it: a failed write ends a part), each a fixed header followed by
// frames, one frame per accepted PutRecord/PutRecordBatch call. A frame carries its length and a CRC32 of its
// body, so a frame cut short by a crash, or damaged since, is detected where it starts.
//
//   header  (48 bytes)  magic "LLFHLOG\n" · u32 format version · u32 header length · 16-byte log id (a UUID)
//                       · u64 generation · u64 sequence number the part starts at
//   frame               u32 body length · u32 CRC32 of the body · body
//   body                f64 arrival (epoch ms) · u32 record count n · u64 first sequence number
//                       · n × u32 record length · the records' bytes, back to back
import { crc32 } from 'node:zlib';
import { FirehoseLogError } from '../errors';

export const LOG_FORMAT_VERSION = 1;
const MAGIC = Buffer.from('LLFHLOG\n', 'latin1');
export const HEADER_BYTES = 48;
const FRAME_HEAD = 8;
const BODY_HEAD = 20;

export interface SegmentHeader {
  logId: string;
  generation: number;
  firstSeq: number;
}

/** One call's records as the log holds them. */
export interface LoggedFrame {
  arrivalMs: number;
  firstSeq: number;
  records: Buffer[];
}

/** Where a segment stops being readable, and why. */
export interface DamagedTail {
  /** Byte offset of the first frame that could not be read. */
  offset: number;
  /** Bytes from that offset to the end of the file, not replayed. */
  bytes: number;
  reason: string;
}

export interface ReadSegment {
  header: SegmentHeader;
  frames: LoggedFrame[];
  /** Bytes of the readable part (header and whole frames). */
  validBytes: number;
  damaged?: DamagedTail;
}

export function segmentName(generation: number, part: number): string {
  return `${String(generation).padStart(12, '0')}.${String(part).padStart(4, '0')}.log`;
}

/** `<generation>.<part>` of a segment file name, or undefined for other files. */
export function parseSegmentName(name: string): { generation: number; part: number } | undefined {
  const match = /^(\d{12})\.(\d{4})\.log$/.exec(name);
  return match ? { generation: Number(match[1]), part: Number(match[2]) } : undefined;
}

export function encodeHeader(header: SegmentHeader): Buffer {
  const out = Buffer.alloc(HEADER_BYTES);
  MAGIC.copy(out, 0);
  out.writeUInt32LE(LOG_FORMAT_VERSION, 8);
  out.writeUInt32LE(HEADER_BYTES, 12);
  Buffer.from(header.logId.replaceAll('-', ''), 'hex').copy(out, 16);
  out.writeBigUInt64LE(BigInt(header.generation), 32);
  out.writeBigUInt64LE(BigInt(header.firstSeq), 40);
  return out;
}

/**
 * A frame as buffers to write (no copy of the records' bytes: neighbours that are views of one buffer, as a
 * decoded PutRecordBatch's records are, go out as one piece).
 */
export function encodeFrame(records: readonly Buffer[], arrivalMs: number, firstSeq: number): Buffer[] {
  const head = Buffer.allocUnsafe(FRAME_HEAD + BODY_HEAD + 4 * records.length);
  head.writeDoubleLE(arrivalMs, FRAME_HEAD);
  head.writeUInt32LE(records.length, FRAME_HEAD + 8);
  head.writeBigUInt64LE(BigInt(firstSeq), FRAME_HEAD + 12);
  let bodyBytes = head.length - FRAME_HEAD;
  for (const [i, record] of records.entries()) {
    head.writeUInt32LE(record.length, FRAME_HEAD + BODY_HEAD + 4 * i);
    bodyBytes += record.length;
  }
  const pieces = [head, ...coalesce(records)];
  let crc = crc32(head.subarray(FRAME_HEAD));
  for (const piece of pieces.slice(1)) crc = crc32(piece, crc);
  head.writeUInt32LE(bodyBytes, 0);
  head.writeUInt32LE(crc, 4);
  return pieces;
}

/** Adjacent views of one underlying buffer merged into one view. */
function coalesce(records: readonly Buffer[]): Buffer[] {
  const out: Buffer[] = [];
  for (const record of records) {
    const last = out.at(-1);
    if (last && last.buffer === record.buffer && last.byteOffset + last.length === record.byteOffset)
      out[out.length - 1] = Buffer.from(last.buffer, last.byteOffset, last.length + record.length);
    else if (record.length > 0) out.push(record);
  }
  return out;
}

/**
 * A segment shorter than its header whose bytes begin as a header does (an empty file included): the header write
 * was cut short (a full disk, a crash or power loss right after the file was created). It holds no record.
 */
export function isCutShortHeader(bytes: Buffer): boolean {
  if (bytes.length >= HEADER_BYTES) return false;
  const n = Math.min(bytes.length, MAGIC.length);
  return bytes.subarray(0, n).equals(MAGIC.subarray(0, n));
}

/**
 * Reads a whole segment file's bytes. A header of another format version is refused (FirehoseLogError saying what
 * to do); frames are read until the first one that is cut short, fails its checksum or does not follow its
 * predecessor, which is reported as the damaged tail with its offset: nothing after it is read.
 */
export function readSegment(file: string, bytes: Buffer): ReadSegment {
  const header = decodeHeader(file, bytes);
  const frames: LoggedFrame[] = [];
  let at = HEADER_BYTES;
  let nextSeq = header.firstSeq;
  const damaged = (reason: string): ReadSegment => ({
    header,
    frames,
    validBytes: at,
    damaged: { offset: at, bytes: bytes.length - at, reason },
  });
  while (at < bytes.length) {
    if (bytes.length - at < FRAME_HEAD) return damaged('a frame header cut short (an unfinished write)');
    const length = bytes.readUInt32LE(at);
    const body = bytes.subarray(at + FRAME_HEAD, at + FRAME_HEAD + length);
    if (body.length < length) return damaged(`a frame of ${length} bytes cut short (an unfinished write)`);
    if (crc32(body) !== bytes.readUInt32LE(at + 4)) return damaged('a frame whose checksum does not match');
    const frame = decodeBody(body);
    if (!frame || frame.firstSeq < nextSeq) return damaged('a frame whose contents do not add up');
    frames.push(frame);
    nextSeq = frame.firstSeq + frame.records.length;
    at += FRAME_HEAD + length;
  }
  return { header, frames, validBytes: at };
}

function decodeHeader(file: string, bytes: Buffer): SegmentHeader {
  if (bytes.length < HEADER_BYTES || !bytes.subarray(0, 8).equals(MAGIC)) {
    throw new FirehoseLogError(
      `${file} is not a Firehose record log segment (its header is missing or damaged). Move it out of the ` +
        'stream log folder to start the endpoint; the records in it, if any, are not replayed.',
      { value: file },
    );
  }
  const version = bytes.readUInt32LE(8);
  if (version !== LOG_FORMAT_VERSION) {
    throw new FirehoseLogError(
      `${file} was written in Firehose log format ${version}; this endpoint reads format ${LOG_FORMAT_VERSION}. ` +
        'Start the loglake version that wrote it and stop it with Ctrl-C (a clean stop commits every buffered ' +
        'record and empties the log), then start this one; or move the stream log folder aside to discard ' +
        'those records.',
      { value: version },
    );
  }
  const id = bytes.subarray(16, 32).toString('hex');
  return {
    logId: `${id.slice(0, 8)}-${id.slice(8, 12)}-${id.slice(12, 16)}-${id.slice(16, 20)}-${id.slice(20)}`,
    generation: Number(bytes.readBigUInt64LE(32)),
    firstSeq: Number(bytes.readBigUInt64LE(40)),
  };
}

function decodeBody(body: Buffer): LoggedFrame | undefined {
  if (body.length < BODY_HEAD) return undefined;
  const count = body.readUInt32LE(8);
  if (BODY_HEAD + 4 * count > body.length) return undefined;
  const records: Buffer[] = [];
  let at = BODY_HEAD + 4 * count;
  for (let i = 0; i < count; i++) {
    const length = body.readUInt32LE(BODY_HEAD + 4 * i);
    if (at + length > body.length) return undefined;
    records.push(body.subarray(at, at + length));
    at += length;
  }
  if (at !== body.length) return undefined;
  return {
    arrivalMs: body.readDoubleLE(0),
    firstSeq: Number(body.readBigUInt64LE(12)),
    records,
  };
}
