// Buffering and delivery of one stream, as the articles saw Firehose deliver to Iceberg: a buffer is cut when
// IntervalInSeconds has passed since its first record, and each cut is ONE Iceberg commit (one engine append) of
// the records that fit the table, the others going to the error output. SizeInMBs does not cut commits: the
// article's stream, with 1 MB / 60 s hints, committed 15.1 MiB of JSON in 3 commits, "each minute's worth as one
// Iceberg snapshot" (BufferingHints are hints, says the API reference). A buffer is cut early only at 128 MiB,
// the largest SizeInMBs, which bounds what is held.
// A record is accepted only once it is in the stream's record log (record-log.ts): a buffer is one GENERATION of
// that log. While it fills, every PART_BYTES of it is prepared in the background (prepare.ts) and staged by the
// engine (a PendingAppend), so a cut only prepares its tail. Flushes run one at a time, in order: the commit's
// snapshot summary names the log generation it covers (log-commits.ts), then the misfits go to the error output
// (a file named after the generation), then a checkpoint settles the generation and its log files are removed.
// Settling, and what a generation replayed after a crash skips (recovery.ts: its error output already written, or
// its snapshot already in the table), are the GenerationLedger's; this module buffers, cuts and commits.
import {
  CommitConflictError,
  UnreadableRowsError,
  NoSuchNamespaceError,
  NoSuchTableBucketError,
  NoSuchTableError,
  type PendingAppend,
  type TableHandle,
  type Warehouse,
} from '@loglake/lakehouse';
import { currentSchema, type Schema } from '@loglake/lakehouse/iceberg';
import { crashPoint } from '../crash-points';
import { LocalAwsError } from '../errors';
import type { FaultInjector } from '../faults';
import { errorOutputKey, writeErrorOutput, type ErrorBatch, type ErrorOutputTarget } from './error-output';
import { EMPTY_STATS, type DeliveryStats } from './delivery-stats';
import { commitSummary } from './log-commits';
import { deliveryMetrics, type FirehoseDatum } from './metrics';
import { preparePart, sameSchema, type PreparedPart } from './prepare';
import type { RecordLog, RecoveredGeneration } from './record-log';
import { RECORD_ERROR, type BufferedRecord, type RejectedRecord } from './records';
import { GenerationLedger } from './recovery';

export interface DeliveryTarget {
  streamName: string;
  bucket: string;
  database: string;
  table: string;
  /** A buffer is cut at this many bytes of incoming records even before its interval ends. */
  maxBufferBytes: number;
  intervalMs: number;
  errorOutput: ErrorOutputTarget;
  /** Scratch folder on the data directory's file system (error output files are written there first). */
  tempDir: string;
  /** Receives the stream's DeliveryToIceberg.* metrics after each delivery (the endpoint's CloudWatch). */
  metrics?: (data: readonly FirehoseDatum[]) => void;
  /** With authorization: what the stream's role may not do to deliver (see DeliveryAccess). */
  access?: DeliveryAccess;
}

/**
 * What the stream's role may not do, checked as Firehose acts with it: deliver to the table (records then go to the
 * error output, refused), write the error output (the generation then stays in the log, as Firehose "effectively
 * pauses stream delivery" when it can neither deliver nor back up). Each answers AWS's denial message, or undefined.
 */
export interface DeliveryAccess {
  deliveryDenied(): string | undefined;
  errorOutputDenied(key: string): string | undefined;
}

/** The role may not deliver to the table: its records go to the error output with the denial. */
export class DeliveryDeniedError extends LocalAwsError {
  override name = 'DeliveryDeniedError';
}

/** The largest SizeInMBs Firehose accepts: the local buffer's cap, whatever the stream's hint. */
export const MAX_BUFFER_BYTES = 128 * 1024 * 1024;

/** Incoming bytes prepared together while a buffer fills (about 3,600 flow records). */
const PART_BYTES = 1024 * 1024;

export class StreamDelivery {
  private buffer: Generation;
  private timer: NodeJS.Timeout | undefined;
  /** When the open buffer's interval ends (epoch ms), while one is open. */
  private dueAt: number | undefined;
  private chain: Promise<void> = Promise.resolve();
  /** True while a flush is inside the engine's commit. */
  private committing = false;
  /** The table as the last flush (or preparation) read it: what the next preparation maps with. */
  private known: Promise<KnownTable> | undefined;
  /** The log's generations from first durable record to checkpoint: pending counts, replay's checks, settling. */
  private readonly ledger: GenerationLedger;
  readonly stats: DeliveryStats;

  constructor(
    private readonly warehouse: Warehouse,
    private readonly target: DeliveryTarget,
    private readonly faults: FaultInjector,
    private readonly log: RecordLog<DeliveryStats>,
    settled: DeliveryStats | undefined,
  ) {
    this.stats = { ...(settled ?? EMPTY_STATS), durability: log.stats };
    this.buffer = new Generation(log.generation);
    this.ledger = new GenerationLedger(log, this.stats, target.errorOutput);
  }

  get pendingRecords(): number {
    return this.ledger.pendingRecords;
  }

  /** When the open buffer's interval ends and it is delivered, if a buffer is open (for a client's countdown). */
  get bufferDueAt(): Date | undefined {
    return this.dueAt === undefined ? undefined : new Date(this.dueAt);
  }

  /** The buffer interval in effect (the stream's, or the endpoint's override). */
  get intervalSeconds(): number {
    return this.target.intervalMs / 1000;
  }

  get streamName(): string {
    return this.target.streamName;
  }

  /** Reads the table ahead of the first buffer (a missing table is reported by the first flush). */
  warmUp(): void {
    this.knownTable().catch(() => undefined);
  }

  /**
   * Accepts one call's records: resolves once they are in the log (and the buffer); rejects with the log's
   * LogWriteError, and then none of them was accepted.
   */
  accept(records: readonly Buffer[], arrivalMs: number): Promise<void> {
    this.warmUp();
    const buffer = this.buffer;
    let bytes = 0;
    for (const record of records) bytes += record.length;
    buffer.acceptedBytes += bytes;
    const durable = this.log.append(records, arrivalMs, (firstSeq) => {
      const added = records.map((data, i) => ({ data, arrivalMs, seq: firstSeq + i }));
      this.ledger.received(added.length, bytes);
      if (buffer.add(added)) this.startPart(buffer);
    });
    if (buffer.acceptedBytes >= this.target.maxBufferBytes) this.cut();
    else if (!this.timer) {
      this.dueAt = Date.now() + this.target.intervalMs;
      this.timer = setTimeout(() => this.cut(), this.target.intervalMs);
      this.timer.unref();
    }
    return durable;
  }

  /** Queues the delivery of generations replayed from the log (before anything accepted since the start). */
  recover(generations: readonly RecoveredGeneration[]): void {
    for (const { generation, records } of generations) {
      const replayed = new Generation(generation);
      replayed.add(records);
      this.ledger.replayed(records);
      this.enqueue(replayed, () => this.flush(replayed, Promise.resolve(generation), true));
    }
  }

  /** Flushes whatever is buffered and waits for every flush started so far. */
  async drain(): Promise<void> {
    this.cut();
    await this.chain;
  }

  /** Drains, then closes the log (the stream is deleted, or the endpoint stops). */
  async close(): Promise<void> {
    await this.drain();
    await this.log.close();
  }

  private cut(): void {
    this.dueAt = undefined;
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    const buffer = this.buffer;
    if (buffer.acceptedBytes === 0 && buffer.records.length === 0) return;
    const sealed = this.log.seal();
    this.buffer = new Generation(this.log.generation);
    this.enqueue(buffer, () => this.flush(buffer, sealed, false));
  }

  /** Flushes run one at a time, in order. */
  private enqueue(buffer: Generation, flush: () => Promise<void>): void {
    this.chain = this.chain.then(flush).catch((error: unknown) => {
      // flush() routes records' failures to the error output; this is a failure to write it (e.g. the disk is
      // full): the generation stays in the log, to be delivered again on the next start, and later flushes run.
      this.ledger.keepInLog(buffer.number);
      this.stats.lastError = (error as Error).message;
    });
  }

  /** Starts preparing the buffer's records not yet in a part. */
  private startPart(buffer: Generation): void {
    const records = buffer.closePart();
    if (records.length === 0) return;
    // After the current I/O callbacks: the PutRecordBatch reply that closed the part goes out first.
    buffer.parts.push(
      new Promise<Prepared>((resolve) => setImmediate(() => resolve(this.prepare(buffer, records)))),
    );
  }

  private async prepare(buffer: Generation, records: BufferedRecord[]): Promise<Prepared> {
    const started = performance.now();
    try {
      const table = await this.knownTable();
      const part = await preparePart(table.schema, records, { yieldNow: () => this.committing });
      if (part.lines.length > 0) {
        buffer.append ??= { table: table.uuid, pending: table.handle.newAppend(table.schema) };
        if (buffer.append.table === table.uuid && sameSchema(buffer.append.pending.schema, table.schema)) {
          buffer.append.pending.add({ ndjson: part.lines, microsColumns: part.microsColumns });
          return { records, part, staged: true };
        }
      }
      return { records, part, staged: part.lines.length === 0 };
    } catch {
      return { records, staged: false };
    } finally {
      this.stats.prepareMsTotal = round((this.stats.prepareMsTotal ?? 0) + performance.now() - started);
    }
  }

  /** The table as last seen; only a stream's first buffer reads it itself, later ones take what flushes read. */
  private knownTable(): Promise<KnownTable> {
    this.known ??= this.loadTable().catch((error: unknown) => {
      this.known = undefined;
      throw error;
    });
    return this.known;
  }

  private async loadTable(): Promise<KnownTable> {
    const { bucket, database, table } = this.target;
    const handle = await this.warehouse.loadTable(bucket, database, table);
    const metadata = await handle.metadata();
    return { handle, metadata, schema: currentSchema(metadata), uuid: metadata['table-uuid'] };
  }

  private async flush(buffer: Generation, sealed: Promise<number>, replayed: boolean): Promise<void> {
    const started = performance.now();
    await sealed;
    const commitsBefore = this.stats.commits;
    let failed: RejectedRecord[] = [];
    try {
      if (buffer.records.length > 0) {
        if (replayed && this.ledger.concludedBeforeCrash(buffer, this.errorOutputKey(buffer))) return;
        await this.faults.slowFlush();
        // The table as it is now (it may have been dropped and created again), read while the tail is prepared.
        const loading = this.loadTable();
        loading.catch(() => undefined);
        if (!replayed) this.startPart(buffer);
        const table = await loading;
        this.known = Promise.resolve(table);
        const landed = replayed ? this.ledger.landedBeforeCrash(buffer, table) : undefined;
        if (landed) {
          failed = await landed;
        } else {
          // As the stream's role (authorization on); a generation that landed before a crash needs no new commit.
          const denied = this.target.access?.deliveryDenied();
          if (denied) throw new DeliveryDeniedError(denied);
          if (replayed) this.startPart(buffer);
          const waitStarted = performance.now();
          const prepared = await Promise.all(buffer.parts);
          this.stats.prepareWaitMsTotal = round(
            (this.stats.prepareWaitMsTotal ?? 0) + performance.now() - waitStarted,
          );
          failed = await this.commit(buffer, prepared, table);
        }
        crashPoint('firehose-after-commit');
      }
    } catch (error) {
      const notFound =
        error instanceof NoSuchTableError ||
        error instanceof NoSuchNamespaceError ||
        error instanceof NoSuchTableBucketError;
      const denied = error instanceof DeliveryDeniedError;
      const done = new Set(failed.map((f) => f.seq));
      const rest = buffer.records.filter((r) => !done.has(r.seq));
      failed = [
        ...failed,
        ...asFailed(
          rest,
          denied
            ? RECORD_ERROR.accessDenied
            : notFound
              ? RECORD_ERROR.tableNotFound
              : RECORD_ERROR.commitFailed,
          (error as Error).message,
        ),
      ];
      if (denied) {
        this.stats.recordsDenied = (this.stats.recordsDenied ?? 0) + rest.length;
        this.stats.lastDenial = (error as Error).message;
      }
      this.stats.lastError = (error as Error).message;
      await buffer.append?.pending.discard().catch(() => undefined);
    }
    if (failed.length > 0) {
      const denied = this.target.access?.errorOutputDenied(this.errorOutputKey(buffer));
      if (denied) {
        // Neither delivered nor backed up: the generation stays in the log (enqueue's catch leaves it unsettled).
        this.stats.lastDenial = denied;
        throw new DeliveryDeniedError(denied);
      }
      const file = writeErrorOutput(
        this.target.errorOutput,
        failed,
        this.errorBatch(buffer),
        this.target.tempDir,
      );
      this.stats.recordsFailed += failed.length;
      if (file) this.stats.errorOutputFiles = [...this.stats.errorOutputFiles, file].slice(-100);
    }
    this.emitMetrics(buffer, failed, this.stats.commits - commitsBefore);
    crashPoint('firehose-before-settle');
    this.ledger.settle(buffer, started);
  }

  /** The delivery's DeliveryToIceberg.* metrics (a replayed flush that had concluded before a crash emits none). */
  private emitMetrics(buffer: Generation, failed: readonly RejectedRecord[], commits: number): void {
    if (!this.target.metrics || buffer.records.length === 0) return;
    const failedSeqs = new Set(failed.map((f) => f.seq));
    let deliveredBytes = 0;
    for (const r of buffer.records) if (!failedSeqs.has(r.seq)) deliveredBytes += r.data.length;
    const oldest = buffer.records[0]?.arrivalMs ?? Date.now();
    this.target.metrics(
      deliveryMetrics({
        attempted: buffer.records.length,
        delivered: buffer.records.length - failedSeqs.size,
        failed: failedSeqs.size,
        deliveredBytes,
        commits,
        oldestAgeSeconds: Math.max(0, (Date.now() - oldest) / 1000),
      }),
    );
  }

  /** The S3 key of a generation's error output file in the error bucket. */
  private errorOutputKey(buffer: Generation): string {
    return errorOutputKey(this.target.errorOutput, this.errorBatch(buffer));
  }

  /** The error output batch of a generation (the same file whenever the generation is flushed). */
  private errorBatch(buffer: Generation): ErrorBatch {
    return { id: `${this.log.logId}/${buffer.number}`, oldestArrivalMs: buffer.records[0]?.arrivalMs ?? 0 };
  }

  /** One commit of the buffer's records that fit; returns the records for the error output. */
  private async commit(
    buffer: Generation,
    prepared: Prepared[],
    table: KnownTable,
  ): Promise<RejectedRecord[]> {
    let append = buffer.append;
    const current = (p: Prepared) =>
      p.part !== undefined && sameSchema(p.part.schema, table.schema) && p.staged;
    let parts = prepared.map((p) => p.part);
    const stageAgain = async (canonicalOnly: boolean) => {
      await append?.pending.discard();
      const pending = table.handle.newAppend(table.schema);
      parts = [];
      for (const p of prepared) {
        const part = await preparePart(table.schema, p.records, { canonicalOnly });
        pending.add({ ndjson: part.lines, microsColumns: part.microsColumns });
        parts.push(part);
      }
      return { table: table.uuid, pending };
    };
    // Prepared with an older schema (a column added or renamed since), for a table dropped and created again,
    // or a preparation failed: map every part again, as if its records had arrived now.
    if (!append || append.table !== table.uuid || !prepared.every(current)) append = await stageAgain(false);
    const failed = parts.flatMap((part) => part?.failed ?? []);
    const delivered = parts.flatMap((part) => part?.delivered ?? []);
    if (delivered.length === 0) {
      await append.pending.discard();
      return failed;
    }
    const commitStarted = performance.now();
    this.committing = true;
    const options = {
      summary: commitSummary(this.target.streamName, this.log.logId, buffer.number, buffer.records),
      simulateConflict: () => this.faults.conflictCommit(),
    };
    try {
      const result = await append.pending.commit(options).catch(async (error: unknown) => {
        // Bytes the reader refused although JSON.parse took them (a duplicate key): every record as its
        // canonical line, once. Nothing was committed, and the verdicts do not change.
        if (!(error instanceof UnreadableRowsError)) throw error;
        append = await stageAgain(true);
        return append.pending.commit(options);
      });
      this.stats.recordsDelivered += delivered.length;
      if (result.snapshot) this.stats.commits++;
      this.stats.commitConflicts += (result.attempts ?? 1) - 1;
      return failed;
    } catch (error) {
      // The engine's commit loop already retried lost races (CommitConflictError is what it gives up with).
      const reason = error instanceof CommitConflictError ? 'lost every commit race' : 'failed';
      this.stats.lastError = (error as Error).message;
      return [
        ...failed,
        ...asFailed(
          delivered,
          RECORD_ERROR.commitFailed,
          `Commit to ${this.target.database}.${this.target.table} ${reason}: ${(error as Error).message}`,
        ),
      ];
    } finally {
      this.committing = false;
      this.stats.commitMsTotal = round((this.stats.commitMsTotal ?? 0) + performance.now() - commitStarted);
    }
  }
}

/** One buffer: a generation of the log, its records once durable, and its parts as they are prepared. */
class Generation {
  readonly records: BufferedRecord[] = [];
  /** Bytes of calls accepted into it, durable or not yet (what the size cap counts). */
  acceptedBytes = 0;
  readonly parts: Promise<Prepared>[] = [];
  append: { table: string; pending: PendingAppend } | undefined;
  private partStart = 0;
  private openBytes = 0;

  constructor(readonly number: number) {}

  /** Adds durable records; true when a part's worth of them is waiting to be prepared. */
  add(records: readonly BufferedRecord[]): boolean {
    for (const record of records) {
      this.records.push(record);
      this.openBytes += record.data.length;
    }
    return this.openBytes >= PART_BYTES;
  }

  /** The records not yet in a part, now one. */
  closePart(): BufferedRecord[] {
    const records = this.records.slice(this.partStart);
    this.partStart = this.records.length;
    this.openBytes = 0;
    return records;
  }
}

interface KnownTable {
  handle: TableHandle;
  metadata: Awaited<ReturnType<TableHandle['metadata']>>;
  schema: Schema;
  uuid: string;
}

/** A part after preparation: `staged` when its lines are in the generation's append (or it had none). */
interface Prepared {
  records: BufferedRecord[];
  part?: PreparedPart;
  staged: boolean;
}

const round = (ms: number) => Math.round(ms);

function asFailed(records: BufferedRecord[], errorCode: string, errorMessage: string): RejectedRecord[] {
  return records.map((r) => ({ ...r, errorCode, errorMessage }));
}
