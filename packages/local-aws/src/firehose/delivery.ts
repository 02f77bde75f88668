// Buffering and delivery of one stream, as the articles saw Firehose deliver to Iceberg: a buffer is cut when
// IntervalInSeconds has passed since its first record, and each cut is ONE Iceberg commit (one engine `append`)
// of the records that fit the table, the others going to the error output. SizeInMBs does not cut commits: the
// article's stream, with 1 MB / 60 s hints, committed 15.1 MiB of JSON in 3 commits, "each minute's worth as one
// Iceberg snapshot" (BufferingHints are hints, says the API reference). A buffer is cut early only at 128 MiB,
// the largest SizeInMBs, which bounds what is held.
// While a buffer fills, every SEGMENT_BYTES of it is prepared (records mapped and staged with the schema last
// seen: flush-prepare.ts) in the background, so a cut only prepares its tail. Commits run one at a time, in the
// order buffers were cut, each reading the table and its current schema first (and mapping a segment again if
// the schema moved on since).
import { currentSchema, type Schema, type TableHandle, type Warehouse } from '@loglake/lakehouse';
import { isNotFound } from '../engine-errors';
import type { FaultInjector } from '../faults';
import { writeErrorOutput, type ErrorOutputTarget, type FailedRecord } from './error-output';
import { prepareFlush, type PreparedFlush } from './flush-prepare';
import { RECORD_ERROR } from './records';
import { combineStaged, sameSchema, StagedTable, type StagedRecords } from './staging';

export interface BufferedRecord {
  data: Buffer;
  arrivalMs: number;
}

export interface DeliveryTarget {
  bucket: string;
  database: string;
  table: string;
  /** A buffer is cut at this many bytes of incoming records even before its interval ends. */
  maxBufferBytes: number;
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

/** The largest SizeInMBs Firehose accepts: the local buffer's cap, whatever the stream's hint. */
export const MAX_BUFFER_BYTES = 128 * 1024 * 1024;

/** Incoming bytes prepared together while a buffer fills (about 3,600 flow records). */
const SEGMENT_BYTES = 1024 * 1024;

export class StreamDelivery {
  /** Records of the current buffer not yet in a segment. */
  private open: BufferedRecord[] = [];
  private openBytes = 0;
  /** Segments of the current buffer, each being prepared. */
  private segments: Segment[] = [];
  /** The current buffer's DuckDB table its staged segments are read into as they are prepared. */
  private table: StagedTable | undefined;
  private bufferedBytes = 0;
  private timer: NodeJS.Timeout | undefined;
  private chain: Promise<void> = Promise.resolve();
  /** True while a flush is inside the engine's append. */
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
    return this.open.length + this.segments.reduce((n, segment) => n + segment.batch.length, 0);
  }

  /** Reads the table's schema ahead of the first buffer (a missing table is reported by the first flush). */
  warmUp(): void {
    if (!this.schema) this.knownSchema().catch(() => undefined);
  }

  add(records: BufferedRecord[]): void {
    // Read the schema while the first buffer fills, so its preparation does not wait for it.
    this.warmUp();
    for (const record of records) {
      this.open.push(record);
      this.openBytes += record.data.length;
      this.bufferedBytes += record.data.length;
      this.stats.recordsReceived++;
      this.stats.bytesReceived += record.data.length;
      if (this.bufferedBytes >= this.target.maxBufferBytes) this.cut();
      else if (this.openBytes >= SEGMENT_BYTES) this.closeSegment();
    }
    if (this.open.length + this.segments.length > 0 && !this.timer) {
      this.timer = setTimeout(() => this.cut(), this.target.intervalMs);
      this.timer.unref();
    }
  }

  /** Flushes whatever is buffered and waits for every flush started so far. */
  async drain(): Promise<void> {
    this.cut();
    await this.chain;
  }

  /** Starts preparing the records received since the last segment. */
  private closeSegment(): void {
    if (this.open.length === 0) return;
    const table = (this.table ??= new StagedTable(async (sql) => this.warehouse.connection.run(sql)));
    const batch = this.open;
    this.open = [];
    this.openBytes = 0;
    // After the current I/O callbacks: the PutRecordBatch reply that closed the segment goes out first.
    const prepared = new Promise<Prepared>((resolve) =>
      setImmediate(() => resolve(this.prepare(batch, table))),
    );
    this.segments.push({ batch, prepared });
  }

  private cut(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    this.closeSegment();
    if (this.segments.length === 0) return;
    const segments = this.segments;
    const table = this.table as StagedTable;
    this.segments = [];
    this.table = undefined;
    this.bufferedBytes = 0;
    this.chain = this.chain
      .then(() => this.flush(segments, table))
      .catch((error: unknown) => {
        // flush() routes every failure to the error output; this only keeps later flushes running.
        this.stats.lastError = (error as Error).message;
      });
  }

  private async prepare(batch: BufferedRecord[], table: StagedTable): Promise<Prepared> {
    const started = performance.now();
    try {
      const schema = await this.knownSchema();
      const flush = await prepareFlush(schema, batch, this.target.stagingDir, () => this.committing);
      if (flush.staged) table.load(flush.staged);
      else if (flush.delivered.length > 0) table.invalidate();
      return { ok: true, flush };
    } catch (error) {
      table.invalidate();
      return { ok: false, error: error as Error };
    } finally {
      this.stats.prepareMsTotal = round((this.stats.prepareMsTotal ?? 0) + performance.now() - started);
    }
  }

  /** The schema last seen; only a stream's first buffer reads it itself, later ones take what commits read. */
  private knownSchema(): Promise<Schema> {
    if (this.schema) return Promise.resolve(this.schema);
    this.schemaLoad ??= this.loadTable()
      .then(({ metadata }) => (this.schema ??= currentSchema(metadata)))
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

  private async flush(segments: Segment[], table: StagedTable): Promise<void> {
    const started = performance.now();
    let failed: FailedRecord[] = [];
    const preparedAll = Promise.all(segments.map((segment) => segment.prepared));
    // Staged again at commit (the schema moved on); the preparations' own files are removed from preparedAll.
    const restaged: StagedRecords[] = [];
    try {
      await this.faults.slowFlush();
      // The table as it is now (it may have been dropped and created again) and its current schema, read
      // while the tail segment is prepared.
      const loading = this.loadTable();
      loading.catch(() => undefined);
      const waitStarted = performance.now();
      const prepared = await preparedAll;
      this.stats.prepareWaitMsTotal = round(
        (this.stats.prepareWaitMsTotal ?? 0) + performance.now() - waitStarted,
      );
      const { handle, metadata } = await loading;
      const schema = currentSchema(metadata);
      this.schema = schema;
      const flushes: PreparedFlush[] = [];
      for (const [i, p] of prepared.entries()) {
        if (p.ok && sameSchema(p.flush.schema, schema)) {
          flushes.push(p.flush);
          continue;
        }
        // Mapped with an older schema (a column added or renamed since), or the preparation failed.
        const again = await prepareFlush(schema, (segments[i] as Segment).batch, this.target.stagingDir);
        if (again.staged) restaged.push(again.staged);
        flushes.push(again);
      }
      failed = flushes.flatMap((flush) => flush.failed);
      const delivered = flushes.reduce((n, flush) => n + flush.delivered.length, 0);
      if (delivered > 0) {
        const commitStarted = performance.now();
        this.committing = true;
        try {
          const viaRaw = await this.commitFlush(handle, flushes, table);
          this.stats.recordsDelivered += delivered;
          if (viaRaw) this.stats.rawPathFlushes = (this.stats.rawPathFlushes ?? 0) + 1;
        } catch (error) {
          failed = [
            ...failed,
            ...asFailed(
              flushes.flatMap((flush) => flush.delivered),
              RECORD_ERROR.commitFailed,
              commitFailedMessage(this.target, error),
            ),
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
          segments.flatMap((segment) => segment.batch).filter((r) => !done.has(r.data)),
          code,
          (error as Error).message,
        ),
      ];
      this.stats.lastError = (error as Error).message;
    } finally {
      // Never leave a staged file behind (disposing one twice is harmless).
      for (const p of await preparedAll) if (p.ok) p.flush.staged?.dispose();
      for (const file of restaged) file.dispose();
      void table.drop();
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

  /**
   * One commit of the prepared segments; true when it went through the raw path (every segment with records
   * staged as NDJSON: one query reads them all). Otherwise every record goes through the rows path.
   */
  private async commitFlush(
    handle: TableHandle,
    flushes: PreparedFlush[],
    table: StagedTable | undefined,
  ): Promise<boolean> {
    const withRecords = flushes.filter((flush) => flush.delivered.length > 0);
    const staged = withRecords.map((flush) => flush.staged);
    const allStaged = staged.every((s) => s !== undefined);
    const query = allStaged
      ? ((await table?.query(staged as StagedRecords[])) ?? combineStaged(staged as StagedRecords[]))
      : undefined;
    const rows = () => withRecords.flatMap((flush) => flush.rows());
    let viaRaw = query !== undefined;
    await this.commit(async () => {
      if (!viaRaw || !query) return handle.append({ rows: rows() });
      try {
        return await handle.append(query);
      } catch (error) {
        // A conflict is retried by commit(); anything else (e.g. bytes DuckDB's reader refuses) falls back
        // to the rows path once, so a record is never lost to the fast path.
        if (error instanceof Error && /Conflict/i.test(error.name)) throw error;
        viaRaw = false;
        return handle.append({ rows: rows() });
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

interface Segment {
  batch: BufferedRecord[];
  /** Started when the segment closes; never rejects (prepare() catches). */
  prepared: Promise<Prepared>;
}

type Prepared = { ok: true; flush: PreparedFlush } | { ok: false; error: Error };

const round = (ms: number) => Math.round(ms);

function asFailed(records: BufferedRecord[], errorCode: string, errorMessage: string): FailedRecord[] {
  return records.map((r) => ({ ...r, errorCode, errorMessage }));
}

function commitFailedMessage(target: DeliveryTarget, error: unknown): string {
  return `Commit to ${target.database}.${target.table} failed: ${(error as Error).message}`;
}
