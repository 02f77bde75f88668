// Buffering and delivery of one stream: records are buffered until the buffer reaches SizeInMBs of incoming
// bytes or IntervalInSeconds passes since its first record, whichever comes first; each flush is ONE Iceberg
// commit (one engine `append`) of the records that fit the table, and the others go to the error output.
// The next buffer is prepared (records mapped and staged with the schema last seen: flush-prepare.ts) while
// the previous one is inside the engine; the commits themselves run one at a time, in the order buffers were
// cut, each reading the table and its current schema first (and mapping again if the schema moved on).
import type { Schema, TableHandle, TableMetadata, Warehouse } from '@loglake/lakehouse';
import { isNotFound } from '../engine-errors';
import type { FaultInjector } from '../faults';
import { writeErrorOutput, type ErrorOutputTarget, type FailedRecord } from './error-output';
import { prepareFlush, sameSchema, type PreparedFlush } from './flush-prepare';
import { RECORD_ERROR } from './records';

export interface BufferedRecord {
  data: Buffer;
  arrivalMs: number;
}

export interface DeliveryTarget {
  bucket: string;
  database: string;
  table: string;
  sizeBytes: number;
  intervalMs: number;
  errorOutput: ErrorOutputTarget;
  /** Where the raw fast path stages NDJSON for the engine; undefined = always the rows path. */
  stagingDir?: string;
}

export interface DeliveryStats {
  recordsReceived: number;
  recordsDelivered: number;
  recordsFailed: number;
  bytesReceived: number;
  commits: number;
  commitConflicts: number;
  flushes: number;
  /** Flushes committed through the raw NDJSON fast path (the rest went through the rows path). */
  rawPathFlushes?: number;
  /** Wall time of the serialized part of flushes (waiting for its preparation, commit, error output). */
  flushMsTotal?: number;
  /** Wall time of preparations (schema read, mapping, staging), mostly overlapped with earlier commits. */
  prepareMsTotal?: number;
  /** Part of flushMsTotal a flush waited for its own preparation (not overlapped with a commit). */
  prepareWaitMsTotal?: number;
  /** Part of flushMsTotal spent in the engine's append (writing data files and committing, with retries). */
  commitMsTotal?: number;
  lastFlushAt?: string;
  lastError?: string;
  errorOutputFiles: string[];
}

const MAX_COMMIT_ATTEMPTS = 5;

export class StreamDelivery {
  private buffer: BufferedRecord[] = [];
  private bufferedBytes = 0;
  private timer: NodeJS.Timeout | undefined;
  private chain: Promise<void> = Promise.resolve();
  /** Cut buffers not yet flushed, oldest (the one flushing) first. */
  private readonly queue: PendingFlush[] = [];
  /** True while the oldest flush is inside the engine's append. */
  private committing = false;
  /** The table's schema as the last commit (or preparation) read it: what the next preparation maps with. */
  private schema: Schema | undefined;
  private schemaLoad: Promise<Schema> | undefined;
  readonly stats: DeliveryStats;

  constructor(
    private readonly warehouse: Warehouse,
    private readonly target: DeliveryTarget,
    private readonly faults: FaultInjector,
    initialStats: DeliveryStats | undefined,
    private readonly onStats: (stats: DeliveryStats) => void,
  ) {
    this.stats = initialStats ?? {
      recordsReceived: 0,
      recordsDelivered: 0,
      recordsFailed: 0,
      bytesReceived: 0,
      commits: 0,
      commitConflicts: 0,
      flushes: 0,
      errorOutputFiles: [],
    };
  }

  get pendingRecords(): number {
    return this.buffer.length;
  }

  /** Reads the table's schema ahead of the first buffer (a missing table is reported by the first flush). */
  warmUp(): void {
    if (!this.schema) this.knownSchema().catch(() => undefined);
  }

  add(records: BufferedRecord[]): void {
    // Read the schema while the first buffer fills, so its preparation does not wait for it.
    this.warmUp();
    for (const record of records) {
      this.buffer.push(record);
      this.bufferedBytes += record.data.length;
      this.stats.recordsReceived++;
      this.stats.bytesReceived += record.data.length;
      if (this.bufferedBytes >= this.target.sizeBytes) this.cut();
    }
    if (this.buffer.length > 0 && !this.timer) {
      this.timer = setTimeout(() => this.cut(), this.target.intervalMs);
      this.timer.unref();
    }
  }

  /** Flushes whatever is buffered and waits for every flush started so far. */
  async drain(): Promise<void> {
    this.cut();
    await this.chain;
  }

  private cut(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.buffer.length === 0) return;
    const batch = this.buffer;
    this.buffer = [];
    this.bufferedBytes = 0;
    const pending: PendingFlush = { batch };
    this.queue.push(pending);
    this.kick();
    this.chain = this.chain
      .then(() => this.flush(pending))
      .catch((error: unknown) => {
        // flush() routes every failure to the error output; this only keeps later flushes running.
        this.stats.lastError = (error as Error).message;
      })
      .finally(() => this.queue.splice(this.queue.indexOf(pending), 1));
  }

  /**
   * Starts preparing the next flush, and the one after it while the next is inside the engine: preparation
   * (JavaScript) then overlaps a commit (mostly DuckDB and file I/O) instead of competing with PutRecordBatch
   * calls for the event loop, and at most two buffers are staged at a time.
   */
  private kick(): void {
    const ahead = this.committing ? 2 : 1;
    for (const pending of this.queue.slice(0, ahead)) {
      // After the current I/O callbacks: the PutRecordBatch reply that cut the buffer goes out first.
      this.preparation(pending);
    }
  }

  private preparation(pending: PendingFlush): Promise<Prepared> {
    return (pending.prepared ??= new Promise<Prepared>((resolve) =>
      setImmediate(() => resolve(this.prepare(pending.batch))),
    ));
  }

  private async prepare(batch: BufferedRecord[]): Promise<Prepared> {
    const started = performance.now();
    try {
      const schema = await this.knownSchema();
      const flush = await prepareFlush(schema, batch, this.target.stagingDir, () => this.committing);
      return { ok: true, flush };
    } catch (error) {
      return { ok: false, error: error as Error };
    } finally {
      this.stats.prepareMsTotal = round((this.stats.prepareMsTotal ?? 0) + performance.now() - started);
    }
  }

  /** The schema last seen; only a stream's first buffer reads it itself, later ones take what commits read. */
  private knownSchema(): Promise<Schema> {
    if (this.schema) return Promise.resolve(this.schema);
    this.schemaLoad ??= this.loadTable()
      .then(({ metadata }) => (this.schema ??= currentSchema(metadata, this.target)))
      .finally(() => (this.schemaLoad = undefined));
    return this.schemaLoad;
  }

  private async loadTable() {
    const handle = await this.warehouse.loadTable(
      this.target.bucket,
      this.target.database,
      this.target.table,
    );
    return { handle, metadata: await handle.metadata() };
  }

  private async flush(pending: PendingFlush): Promise<void> {
    const started = performance.now();
    const { batch } = pending;
    this.kick();
    let failed: FailedRecord[] = [];
    let staged: PreparedFlush['staged'];
    // Always settled before leaving, so a staged file is never left behind.
    let prepared: Prepared | undefined;
    try {
      await this.faults.slowFlush();
      // The table as it is now (it may have been dropped and created again) and its current schema, read
      // while the preparation finishes (it only matters for a stream's first buffer: later ones are ready).
      const loading = this.loadTable();
      loading.catch(() => undefined);
      const waitStarted = performance.now();
      prepared = await this.preparation(pending);
      staged = prepared.ok ? prepared.flush.staged : undefined;
      this.stats.prepareWaitMsTotal = round(
        (this.stats.prepareWaitMsTotal ?? 0) + performance.now() - waitStarted,
      );
      const { handle, metadata } = await loading;
      const schema = currentSchema(metadata, this.target);
      this.schema = schema;
      let flush: PreparedFlush;
      if (prepared.ok && sameSchema(prepared.flush.schema, schema)) flush = prepared.flush;
      else {
        // Mapped with an older schema (a column added or renamed since), or the preparation failed.
        staged?.dispose();
        staged = undefined;
        flush = await prepareFlush(schema, batch, this.target.stagingDir);
        staged = flush.staged;
      }
      failed = flush.failed;
      if (flush.delivered.length > 0) {
        const commitStarted = performance.now();
        this.committing = true;
        this.kick();
        try {
          const viaRaw = await this.commitFlush(handle, flush);
          this.stats.recordsDelivered += flush.delivered.length;
          if (viaRaw) this.stats.rawPathFlushes = (this.stats.rawPathFlushes ?? 0) + 1;
        } catch (error) {
          failed = [
            ...failed,
            ...asFailed(flush.delivered, RECORD_ERROR.commitFailed, commitFailedMessage(this.target, error)),
          ];
          this.stats.lastError = (error as Error).message;
        } finally {
          this.committing = false;
          this.stats.commitMsTotal = round(
            (this.stats.commitMsTotal ?? 0) + performance.now() - commitStarted,
          );
        }
      }
    } catch (error) {
      const code = isNotFound(error) ? RECORD_ERROR.tableNotFound : RECORD_ERROR.commitFailed;
      const done = new Set(failed.map((f) => f.data));
      failed = [
        ...failed,
        ...asFailed(
          batch.filter((r) => !done.has(r.data)),
          code,
          (error as Error).message,
        ),
      ];
      this.stats.lastError = (error as Error).message;
    } finally {
      if (!prepared) {
        const settled = await this.preparation(pending);
        if (settled.ok) staged = settled.flush.staged;
      }
      staged?.dispose();
    }
    if (failed.length > 0) {
      const file = writeErrorOutput(this.target.errorOutput, failed);
      this.stats.recordsFailed += failed.length;
      if (file) this.stats.errorOutputFiles = [...this.stats.errorOutputFiles, file].slice(-100);
    }
    this.stats.flushes++;
    this.stats.flushMsTotal = round((this.stats.flushMsTotal ?? 0) + performance.now() - started);
    this.stats.lastFlushAt = new Date().toISOString();
    this.onStats(this.stats);
  }

  /** One commit of the prepared records; true when it went through the raw path. */
  private async commitFlush(handle: TableHandle, flush: PreparedFlush): Promise<boolean> {
    let viaRaw = flush.staged !== undefined;
    await this.commit(async () => {
      if (!viaRaw || !flush.staged) return handle.append({ rows: flush.rows() });
      try {
        return await handle.append({ sql: flush.staged.sql, columns: flush.staged.columns });
      } catch (error) {
        // A conflict is retried by commit(); anything else (e.g. bytes DuckDB's reader refuses) falls back
        // to the rows path once, so a record is never lost to the fast path.
        if (error instanceof Error && /Conflict/i.test(error.name)) throw error;
        viaRaw = false;
        return handle.append({ rows: flush.rows() });
      }
    });
    return viaRaw;
  }

  /** One commit; a conflict (injected, or a real CommitConflictError) is retried like Firehose retries. */
  private async commit(append: () => Promise<{ snapshot: unknown }>): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        if (this.faults.conflictCommit()) {
          const conflict = new Error('Injected commit conflict: another writer committed first.');
          conflict.name = 'CommitConflictError';
          throw conflict;
        }
        const result = await append();
        if (result.snapshot) this.stats.commits++;
        return;
      } catch (error) {
        const isConflict = error instanceof Error && /Conflict/i.test(error.name);
        if (!isConflict || attempt >= MAX_COMMIT_ATTEMPTS) throw error;
        this.stats.commitConflicts++;
        await new Promise((resolve) => setTimeout(resolve, 10 * attempt));
      }
    }
  }
}

interface PendingFlush {
  batch: BufferedRecord[];
  prepared?: Promise<Prepared>;
}

type Prepared = { ok: true; flush: PreparedFlush } | { ok: false; error: Error };

const round = (ms: number) => Math.round(ms);

function asFailed(records: BufferedRecord[], errorCode: string, errorMessage: string): FailedRecord[] {
  return records.map((r) => ({ ...r, errorCode, errorMessage }));
}

function commitFailedMessage(target: DeliveryTarget, error: unknown): string {
  return `Commit to ${target.database}.${target.table} failed: ${(error as Error).message}`;
}

function currentSchema(metadata: TableMetadata, target: DeliveryTarget): Schema {
  const schema =
    metadata.schemas.find((s) => s['schema-id'] === metadata['current-schema-id']) ?? metadata.schemas[0];
  if (!schema) throw new Error(`Table ${target.database}.${target.table} has no schema.`);
  return schema;
}
