import { afterEach, beforeEach, describe, expect, test } from '@jest/globals';
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FirehoseLogError } from '../errors';
import { segmentName } from './log-format';
import { LogWriteError, RecordLog } from './record-log';

const records = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => Buffer.from(JSON.stringify({ n: from + i })));
const texts = (list: { data: Buffer }[]) => list.map((r) => r.data.toString());

describe('the Firehose record log', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'record-log-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** Three calls in generation 1, one in generation 2, left as a crash leaves them (nothing settled). */
  async function writeTwoGenerations(): Promise<number[]> {
    const { log } = RecordLog.open<object>(dir);
    const durableAt: number[] = [];
    await log.append(records(0, 2), 1000, (seq) => durableAt.push(seq));
    await log.append(records(2, 3), 1001, (seq) => durableAt.push(seq));
    await log.append(records(5, 1), 1002, (seq) => durableAt.push(seq));
    await log.seal();
    await log.append(records(6, 2), 2000, (seq) => durableAt.push(seq));
    return durableAt;
  }

  test('an acknowledged call is on disk: reopening replays every record, by generation, in order', async () => {
    // Act
    const durableAt = await writeTwoGenerations();
    const reopened = RecordLog.open<object>(dir);

    // Assess
    expect(durableAt).toEqual([0, 2, 5, 6]);
    expect(reopened.recovered.map((g) => g.generation)).toEqual([1, 2]);
    expect(texts(reopened.recovered[0]?.records ?? [])).toEqual(
      texts(records(0, 6).map((data) => ({ data }))),
    );
    expect(reopened.recovered[0]?.records.map((r) => [r.seq, r.arrivalMs])).toEqual([
      [0, 1000],
      [1, 1000],
      [2, 1001],
      [3, 1001],
      [4, 1001],
      [5, 1002],
    ]);
    expect(reopened.recovered[1]?.records.map((r) => r.seq)).toEqual([6, 7]);
    expect(reopened.damage).toEqual([]);
    // New appends go to a new generation, numbered after what is in the log.
    expect(reopened.log.generation).toBe(3);
  });

  test('calls that arrive while a write is on disk share the next write and sync (group commit)', async () => {
    // Prepare
    const { log } = RecordLog.open<object>(dir);

    // Act: 40 calls at once.
    await Promise.all(
      Array.from({ length: 40 }, (_, i) => log.append(records(i * 10, 10), 0, () => undefined)),
    );

    // Assess: every record is there, and fewer writes than calls were made, each synced.
    expect(log.stats.appends).toBe(40);
    expect(log.stats.writes).toBeLessThan(40);
    expect(log.stats.fsyncs).toBeGreaterThanOrEqual(log.stats.writes);
    expect(log.stats.fsyncMsTotal).toBeGreaterThan(0);
    expect(RecordLog.open<object>(dir).recovered[0]?.records).toHaveLength(400);
  });

  test('a torn tail is cut off, kept aside and reported with its byte offset; everything before it replays', async () => {
    // Prepare: the last frame of generation 2 loses its last 5 bytes, as a write cut short by kill -9.
    await writeTwoGenerations();
    const file = join(dir, segmentName(2, 0));
    const size = statSync(file).size;
    truncateSync(file, size - 5);
    const frameStart = 48;

    // Act
    const { recovered, damage } = RecordLog.open<object>(dir);

    // Assess
    expect(recovered.map((g) => g.records.length)).toEqual([6]);
    expect(damage).toHaveLength(1);
    expect(damage[0]).toMatchObject({ file, offset: frameStart, bytes: size - 5 - frameStart });
    expect(damage[0]?.reason).toMatch(/cut short/);
    expect(readFileSync(damage[0]?.keptAt as string)).toHaveLength(size - 5 - frameStart);
    // Nothing of generation 2 was readable: its file goes (the damaged bytes are kept aside).
    expect(existsSync(file)).toBe(false);
  });

  test('a segment whose header was cut short (empty, or part of a header) is reported and kept aside, not a refusal to start', async () => {
    // Prepare: generation 1 acknowledged; then two parts that a full disk or a crash left without a whole header.
    await writeTwoGenerations();
    const empty = join(dir, segmentName(3, 0));
    const partial = join(dir, segmentName(3, 1));
    writeFileSync(empty, Buffer.alloc(0));
    writeFileSync(partial, readFileSync(join(dir, segmentName(1, 0))).subarray(0, 20));

    // Act
    const { recovered, damage } = RecordLog.open<object>(dir);

    // Assess: every acknowledged record replays; both files are reported at offset 0 and moved aside
    expect(recovered.map((g) => g.records.length)).toEqual([6, 2]);
    expect(damage.map((d) => [d.file, d.offset, d.bytes])).toEqual([
      [empty, 0, 0],
      [partial, 0, 20],
    ]);
    expect(damage[0]?.reason).toMatch(/header cut short/);
    expect(existsSync(empty) || existsSync(partial)).toBe(false);
    // A file that does not start like a segment at all is still refused (it is not ours to discard).
    writeFileSync(join(dir, segmentName(9, 0)), Buffer.from('not a log'));
    expect(() => RecordLog.open<object>(dir)).toThrow(FirehoseLogError);
  });

  test('a damaged frame in the middle stops the read there and reports what after it was not replayed', async () => {
    // Prepare: flip one byte inside the second frame of generation 1 (three frames).
    await writeTwoGenerations();
    const file = join(dir, segmentName(1, 0));
    const bytes = readFileSync(file);
    const secondFrame = 48 + 8 + bytes.readUInt32LE(48);
    bytes[secondFrame + 30] = (bytes[secondFrame + 30] as number) ^ 0xff;
    writeFileSync(file, bytes);

    // Act
    const { recovered, damage } = RecordLog.open<object>(dir);

    // Assess: the first call's two records replay; the second and third frames are reported, not skipped silently.
    expect(recovered.map((g) => [g.generation, g.records.length])).toEqual([
      [1, 2],
      [2, 2],
    ]);
    expect(damage[0]).toMatchObject({ offset: secondFrame, bytes: bytes.length - secondFrame });
    expect(damage[0]?.reason).toMatch(/checksum/);
  });

  test('a log written in another format version is refused with what to do', async () => {
    // Prepare
    await writeTwoGenerations();
    const file = join(dir, segmentName(1, 0));
    const bytes = readFileSync(file);
    bytes.writeUInt32LE(2, 8);
    writeFileSync(file, bytes);

    // Act
    const outcome = (() => {
      try {
        return RecordLog.open<object>(dir);
      } catch (error) {
        return error;
      }
    })();

    // Assess
    expect(outcome).toBeInstanceOf(FirehoseLogError);
    expect((outcome as Error).message).toMatch(/format 2; this endpoint reads format 1/);
    expect((outcome as Error).message).toMatch(/stop it with Ctrl-C .* or move the stream log folder aside/);
  });

  test('settling writes the checkpoint, then removes the files; a crash between the two is finished on open', async () => {
    // Prepare
    await writeTwoGenerations();
    const { log } = RecordLog.open<{ delivered: number }>(dir);
    const leftover = readFileSync(join(dir, segmentName(1, 0)));

    // Act
    log.settle(1, { delivered: 6 });
    const afterSettle = readdirSync(dir).sort();
    writeFileSync(join(dir, segmentName(1, 0)), leftover);
    const reopened = RecordLog.open<{ delivered: number }>(dir);

    // Assess
    expect(afterSettle).toEqual([segmentName(2, 0), 'checkpoint.json']);
    expect(reopened.checkpoint).toMatchObject({ deliveredGeneration: 1, stats: { delivered: 6 } });
    expect(reopened.recovered.map((g) => g.generation)).toEqual([2]);
    expect(existsSync(join(dir, segmentName(1, 0)))).toBe(false);
  });

  test('a write that fails (the disk is full) is not acknowledged, and the log goes on in a new part', async () => {
    // Prepare: the first part of the next generation is /dev/full, where every write fails with ENOSPC.
    const { log } = RecordLog.open<object>(dir);
    symlinkSync('/dev/full', join(dir, segmentName(log.generation, 0)));
    let acknowledged = 0;

    // Act
    const failed = await log.append(records(0, 3), 0, () => acknowledged++).catch((error: unknown) => error);
    await log.append(records(3, 2), 0, () => acknowledged++);

    // Assess
    expect(failed).toBeInstanceOf(LogWriteError);
    expect((failed as Error).message).toMatch(/ENOSPC/);
    expect(acknowledged).toBe(1);
    expect(log.stats.failedWrites).toBe(1);
    // The part whose header could not be written is gone: a restart reads what was acknowledged, nothing refused.
    expect(existsSync(join(dir, segmentName(1, 0)))).toBe(false);
    const reopened = RecordLog.open<object>(dir);
    expect(texts(reopened.recovered[0]?.records ?? [])).toEqual(['{"n":3}', '{"n":4}']);
    expect(reopened.damage).toEqual([]);
  });
});
