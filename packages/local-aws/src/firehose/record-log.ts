// A stream's durable record log: what makes "accepted" mean "survives kill -9". A PutRecord/PutRecordBatch call is
// acknowledged only once its frame is written and fdatasync'd; calls that arrive in the same event-loop turn, or
// while a sync is on disk, share the next write and sync (group commit), so a busy stream pays well under one
// sync per call. Appends go to the
// current GENERATION (one buffer = one flush); sealing a generation sends new appends to the next one. After a
// flush has committed a generation, a checkpoint (delivery counters, the last generation delivered) is written
// durably and the generation's files are removed. Opening the log replays what is left: every generation not yet
// delivered, with any damaged tail cut off, kept aside and reported where it starts.
import { randomUUID } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fsyncSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  truncateSync,
  writeFileSync,
  writeSync,
  writevSync,
} from 'node:fs';
import { join } from 'node:path';
import { FirehoseLogError, LocalAwsError } from '../errors';
import { syncFile, SyncError, type SyncOutcome } from './log-writer';
import {
  encodeFrame,
  encodeHeader,
  parseSegmentName,
  isCutShortHeader,
  readSegment,
  segmentName,
  type DamagedTail,
} from './log-format';

const CHECKPOINT = 'checkpoint.json';
const CHECKPOINT_FORMAT = 1;

/** A record as the log hands it back: its bytes, when it arrived, and its sequence number in the log. */
export interface LoggedRecord {
  data: Buffer;
  arrivalMs: number;
  seq: number;
}

export interface RecoveredGeneration {
  generation: number;
  records: LoggedRecord[];
}

/** A damaged tail found on open: the bytes from `offset` were not replayed and were moved to `keptAt`. */
export interface LogDamage extends DamagedTail {
  file: string;
  keptAt: string;
}

/** What durability cost: the log's own counters. */
export interface LogStats {
  /** Appends (one per accepted call). */
  appends: number;
  /** Group writes: each is one writev and one fdatasync for every append waiting at the time. */
  writes: number;
  /** fsync/fdatasync calls of every kind (frames, new parts, the folder, checkpoints). */
  fsyncs: number;
  /** Wall time spent in them, in ms. */
  fsyncMsTotal: number;
  /** Wall time spent in writev, in ms. */
  writeMsTotal: number;
  bytesWritten: number;
  failedWrites: number;
}

export interface Checkpoint<S> {
  format: number;
  logId: string;
  /** Every generation up to this one is delivered (committed or in the error output). */
  deliveredGeneration: number;
  /** No record of this log has a sequence number at or above this one yet. */
  nextSeq: number;
  stats: S;
}

export interface OpenedLog<S> {
  log: RecordLog<S>;
  checkpoint: Checkpoint<S> | undefined;
  /** Generations accepted and not yet delivered, oldest first. */
  recovered: RecoveredGeneration[];
  damage: LogDamage[];
}

/** A log write that failed: the call is answered with a retryable service error, never acknowledged. */
export class LogWriteError extends LocalAwsError {
  override name = 'LogWriteError';
}

interface PendingAppend {
  generation: number;
  firstSeq: number;
  records: readonly Buffer[];
  arrivalMs: number;
  onDurable: (firstSeq: number) => void;
  resolve: () => void;
  reject: (error: Error) => void;
}

interface OpenPart {
  generation: number;
  fd: number;
  /** Bytes known to be in the file (the size to cut back to after a failed write). */
  size: number;
  /** Until its first sync: the folder's entry for the file is synced with it. */
  isNew: boolean;
}

export class RecordLog<S> {
  private queue: PendingAppend[] = [];
  private writing = false;
  private current: OpenPart | undefined;
  /** The next part number of each generation (a failed write ends a part). */
  private readonly nextPart = new Map<number, number>();
  /** Appends not yet written or failed, per generation, and who waits for none to be left. */
  private readonly inFlight = new Map<number, { count: number; drained: (() => void)[] }>();
  readonly stats: LogStats = {
    appends: 0,
    writes: 0,
    fsyncs: 0,
    fsyncMsTotal: 0,
    writeMsTotal: 0,
    bytesWritten: 0,
    failedWrites: 0,
  };

  private constructor(
    readonly dir: string,
    readonly logId: string,
    private generationNow: number,
    private nextSeq: number,
  ) {}

  /** The generation new appends go to. */
  get generation(): number {
    return this.generationNow;
  }

  static open<S>(dir: string): OpenedLog<S> {
    mkdirSync(dir, { recursive: true });
    const checkpoint = readCheckpoint<S>(dir);
    const files = readdirSync(dir)
      .map((name) => ({ name, id: parseSegmentName(name) }))
      .filter((f): f is { name: string; id: { generation: number; part: number } } => f.id !== undefined)
      .sort((a, b) => a.id.generation - b.id.generation || a.id.part - b.id.part);
    let logId = checkpoint?.logId;
    let nextSeq = checkpoint?.nextSeq ?? 0;
    let lastGeneration = checkpoint?.deliveredGeneration ?? 0;
    const byGeneration = new Map<number, LoggedRecord[]>();
    const damage: LogDamage[] = [];
    for (const { name, id } of files) {
      const file = join(dir, name);
      lastGeneration = Math.max(lastGeneration, id.generation);
      if (checkpoint && id.generation <= checkpoint.deliveredGeneration) {
        // Delivered, but the crash came before its files were removed.
        rmSync(file, { force: true });
        continue;
      }
      const bytes = readFileSync(file);
      if (isCutShortHeader(bytes)) {
        // No record was ever acknowledged from a file whose header is not whole: report it, keep it aside.
        damage.push(
          keepDamagedTail(dir, name, 0, {
            offset: 0,
            bytes: bytes.length,
            reason: 'a segment header cut short (an unfinished write)',
          }),
        );
        rmSync(file, { force: true });
        continue;
      }
      const read = readSegment(file, bytes);
      logId ??= read.header.logId;
      if (read.header.logId !== logId)
        throw new FirehoseLogError(
          `${file} belongs to another log (${read.header.logId}) than the rest of ${dir} (${logId}). Move the ` +
            'folder aside to start the endpoint; its records are not replayed.',
          { value: file },
        );
      nextSeq = Math.max(nextSeq, read.header.firstSeq);
      const records = byGeneration.get(id.generation) ?? [];
      for (const frame of read.frames) {
        frame.records.forEach((data, i) =>
          records.push({ data, arrivalMs: frame.arrivalMs, seq: frame.firstSeq + i }),
        );
        nextSeq = Math.max(nextSeq, frame.firstSeq + frame.records.length);
      }
      byGeneration.set(id.generation, records);
      if (read.damaged) damage.push(keepDamagedTail(dir, name, read.validBytes, read.damaged));
    }
    const log = new RecordLog<S>(dir, logId ?? randomUUID(), lastGeneration + 1, nextSeq);
    const recovered = [...byGeneration.entries()]
      .filter(([, records]) => records.length > 0)
      .map(([generation, records]) => ({ generation, records }));
    // Generations with nothing readable in them are done: nothing to deliver.
    const empty = new Set([...byGeneration].filter(([, records]) => records.length === 0).map(([g]) => g));
    log.removeGenerations((g) => empty.has(g));
    return { log, checkpoint, recovered, damage };
  }

  /**
   * Appends one call's records to the current generation. Resolves once they are on disk; `onDurable` runs first,
   * synchronously, with the first record's sequence number (the caller buffers them there, so a generation's
   * records are all buffered before seal() resolves). Rejects with LogWriteError when the write or sync failed.
   */
  append(
    records: readonly Buffer[],
    arrivalMs: number,
    onDurable: (firstSeq: number) => void,
  ): Promise<void> {
    const generation = this.generationNow;
    const firstSeq = this.nextSeq;
    this.nextSeq += records.length;
    this.stats.appends++;
    const waiting = this.inFlight.get(generation) ?? { count: 0, drained: [] };
    waiting.count++;
    this.inFlight.set(generation, waiting);
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ generation, firstSeq, records, arrivalMs, onDurable, resolve, reject });
      if (!this.writing) {
        // After this turn's I/O callbacks: calls whose bodies arrived together share the first write and sync.
        this.writing = true;
        setImmediate(() => void this.writeGroups());
      }
    });
  }

  /**
   * Ends the current generation: appends from now on go to the next one. Resolves with the sealed generation's
   * number once every append made to it is written or failed.
   */
  seal(): Promise<number> {
    const sealed = this.generationNow++;
    const waiting = this.inFlight.get(sealed);
    if (!waiting) return Promise.resolve(sealed);
    return new Promise((resolve) => waiting.drained.push(() => resolve(sealed)));
  }

  /**
   * Records that every generation up to `generation` is delivered (the checkpoint, with `stats`, made durable
   * first), then removes their files.
   */
  settle(generation: number, stats: S): void {
    const checkpoint: Checkpoint<S> = {
      format: CHECKPOINT_FORMAT,
      logId: this.logId,
      deliveredGeneration: generation,
      nextSeq: this.nextSeq,
      stats,
    };
    const temp = join(this.dir, `.${CHECKPOINT}.tmp`);
    const fd = openSync(temp, 'w');
    try {
      writeFileSync(fd, JSON.stringify(checkpoint));
      this.sync(() => fsyncSync(fd));
    } finally {
      closeSync(fd);
    }
    renameSync(temp, join(this.dir, CHECKPOINT));
    this.syncDir();
    this.removeGenerations((g) => g <= generation);
  }

  /** Closes the open part (after the last append is written). */
  async close(): Promise<void> {
    await this.seal();
    if (this.current) closeSync(this.current.fd);
    this.current = undefined;
  }

  private removeGenerations(which: (generation: number) => boolean): void {
    for (const name of readdirSync(this.dir)) {
      const id = parseSegmentName(name);
      if (id && which(id.generation)) rmSync(join(this.dir, name), { force: true });
    }
  }

  /** Writes what is queued, one group per generation at a time, until the queue is empty. */
  private async writeGroups(): Promise<void> {
    this.writing = true;
    while (this.queue.length > 0) {
      const generation = (this.queue[0] as PendingAppend).generation;
      let end = 0;
      while (end < this.queue.length && (this.queue[end] as PendingAppend).generation === generation) end++;
      const group = this.queue.splice(0, end);
      try {
        await this.writeGroup(generation, group);
        for (const append of group) append.onDurable(append.firstSeq);
        for (const append of group) append.resolve();
      } catch (error) {
        this.stats.failedWrites++;
        const failure = new LogWriteError(
          `The record log of this stream could not be written (${(error as Error).message}).`,
          { value: this.dir, cause: error },
        );
        for (const append of group) append.reject(failure);
      } finally {
        this.settleInFlight(generation, group.length);
      }
    }
    this.writing = false;
  }

  /**
   * One group: written here (into the page cache, microseconds), synced on the log's own thread (log-writer.ts),
   * so the event loop keeps serving while the disk works.
   */
  private async writeGroup(generation: number, group: PendingAppend[]): Promise<void> {
    const part = this.partFor(generation, (group[0] as PendingAppend).firstSeq);
    const before = part.size;
    try {
      const chunks = group.flatMap((a) => encodeFrame(a.records, a.arrivalMs, a.firstSeq));
      const started = performance.now();
      part.size += writeAll(part.fd, chunks);
      this.stats.writeMsTotal += performance.now() - started;
      const synced = syncFile(part.fd, part.isNew ? this.dir : undefined);
      this.count(
        await synced.catch((error: unknown) => {
          if (error instanceof SyncError) this.count(error.outcome);
          throw error;
        }),
      );
      part.isNew = false;
      this.stats.writes++;
      this.stats.bytesWritten += part.size - before;
    } catch (error) {
      // A failed write ends the part: cut off whatever half-frame it left, and go on in a new one.
      this.current = undefined;
      try {
        ftruncateSync(part.fd, before);
      } catch {
        // A device such as /dev/full cannot be cut back: nothing was written to it anyway.
      }
      closeSync(part.fd);
      throw error;
    }
  }

  /** The open part of `generation`, or a new one with its header written (synced with its first frames). */
  private partFor(generation: number, firstSeq: number): OpenPart {
    if (this.current?.generation === generation) return this.current;
    if (this.current) closeSync(this.current.fd);
    this.current = undefined;
    const part = this.nextPart.get(generation) ?? 0;
    this.nextPart.set(generation, part + 1);
    const header = encodeHeader({ logId: this.logId, generation, firstSeq });
    // 'a' follows a symbolic link where a part is expected (the disk-full test points one at /dev/full).
    const fd = openSync(join(this.dir, segmentName(generation, part)), 'a');
    try {
      writeAll(fd, [header]);
    } catch (error) {
      closeSync(fd);
      // A file without its whole header holds nothing; leaving it would only be reported again on the next start.
      rmSync(join(this.dir, segmentName(generation, part)), { force: true });
      throw error;
    }
    this.current = { generation, fd, size: header.length, isNew: true };
    return this.current;
  }

  private count(outcome: SyncOutcome): void {
    this.stats.fsyncs += outcome.fsyncs;
    this.stats.fsyncMsTotal += outcome.fsyncMs;
  }

  private settleInFlight(generation: number, count: number): void {
    const waiting = this.inFlight.get(generation);
    if (!waiting) return;
    waiting.count -= count;
    if (waiting.count > 0) return;
    this.inFlight.delete(generation);
    for (const done of waiting.drained) done();
  }

  private sync(run: () => void): void {
    const started = performance.now();
    run();
    this.stats.fsyncs++;
    this.stats.fsyncMsTotal += performance.now() - started;
  }

  /** Makes new and renamed entries of the folder durable. */
  private syncDir(): void {
    const fd = openSync(this.dir, 'r');
    try {
      this.sync(() => fsyncSync(fd));
    } finally {
      closeSync(fd);
    }
  }
}

/** Writes every byte of the buffers (a write may take fewer than asked); returns how many. */
function writeAll(fd: number, buffers: readonly Buffer[]): number {
  let total = 0;
  for (let i = 0; i < buffers.length; i += 512) {
    const slice = buffers.slice(i, i + 512);
    const want = slice.reduce((n, b) => n + b.length, 0);
    let done = writevSync(fd, slice);
    if (done < want) {
      const rest = Buffer.concat(slice).subarray(done);
      for (let at = 0; at < rest.length;) at += writeSync(fd, rest, at);
      done = want;
    }
    total += done;
  }
  return total;
}

function readCheckpoint<S>(dir: string): Checkpoint<S> | undefined {
  const file = join(dir, CHECKPOINT);
  if (!existsSync(file)) return undefined;
  let checkpoint: Checkpoint<S>;
  try {
    checkpoint = JSON.parse(readFileSync(file, 'utf8')) as Checkpoint<S>;
  } catch (error) {
    throw new FirehoseLogError(
      `${file} is not a readable checkpoint (${(error as Error).message}). Move the stream log folder aside to ` +
        'start the endpoint; the records in it are not replayed.',
      { value: file, cause: error },
    );
  }
  if (checkpoint.format !== CHECKPOINT_FORMAT)
    throw new FirehoseLogError(
      `${file} was written in checkpoint format ${checkpoint.format}; this endpoint reads format ${CHECKPOINT_FORMAT}. ` +
        'Start the loglake version that wrote it and stop it with Ctrl-C (a clean stop commits every buffered ' +
        'record and empties the log), then start this one; or move the stream log folder aside.',
      { value: checkpoint.format },
    );
  return checkpoint;
}

/** Moves a damaged tail out of the segment (into `damaged/`), so replay and removal never touch those bytes. */
function keepDamagedTail(dir: string, name: string, validBytes: number, damaged: DamagedTail): LogDamage {
  const file = join(dir, name);
  const keptDir = join(dir, 'damaged');
  mkdirSync(keptDir, { recursive: true });
  const keptAt = join(keptDir, `${name}.at-${damaged.offset}`);
  writeFileSync(keptAt, readFileSync(file).subarray(validBytes));
  truncateSync(file, validBytes);
  return { ...damaged, file, keptAt };
}
