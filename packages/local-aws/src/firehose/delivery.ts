// Buffering and delivery of one stream: records are buffered until the buffer reaches SizeInMBs of incoming
// bytes or IntervalInSeconds passes since its first record, whichever comes first; each flush is ONE Iceberg
// commit (one engine `append`) of the records that fit the table, and the others go to the error output.
// Flushes of a stream run one at a time, in arrival order.
import type { Warehouse } from '@loglake/lakehouse';
import { isNotFound } from '../engine-errors';
import type { FaultInjector } from '../faults';
import { writeErrorOutput, type ErrorOutputTarget, type FailedRecord } from './error-output';
import { RECORD_ERROR, RecordMapper } from './records';
import { asJsonLine, rawPathSupports, stageRawRecords } from './staging';

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
  /** Wall time spent in flushes (mapping, commit, error output), for tuning and the benchmark. */
  flushMsTotal?: number;
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

  add(records: BufferedRecord[]): void {
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
    this.chain = this.chain.then(() => this.flush(batch));
  }

  private async flush(batch: BufferedRecord[]): Promise<void> {
    const started = performance.now();
    const failed: FailedRecord[] = [];
    const fail = (records: BufferedRecord[], errorCode: string, errorMessage: string) =>
      failed.push(...records.map((r) => ({ ...r, errorCode, errorMessage })));
    try {
      await this.faults.slowFlush();
      const handle = await this.warehouse.loadTable(
        this.target.bucket,
        this.target.database,
        this.target.table,
      );
      const metadata = await handle.metadata();
      const schema =
        metadata.schemas.find((s) => s['schema-id'] === metadata['current-schema-id']) ?? metadata.schemas[0];
      if (!schema) throw new Error(`Table ${this.target.database}.${this.target.table} has no schema.`);
      const mapper = new RecordMapper(schema);
      const rows: Record<string, unknown>[] = [];
      const delivered: BufferedRecord[] = [];
      // The raw path needs every delivered record canonical and on one line (see staging.ts).
      const lines: Buffer[] | undefined = this.target.stagingDir && rawPathSupports(schema) ? [] : undefined;
      let raw = lines !== undefined;
      // A timestamp column must come in one form across the batch (epoch micros numbers or ISO strings; nulls fit
      // either) for the raw path to declare its JSON type.
      const microsColumns = new Set<string>();
      const isoColumns = new Set<string>();
      const timestampColumns = schema.fields
        .filter((f) => f.type === 'timestamp' || f.type === 'timestamptz')
        .map((f) => f.name);
      for (const record of batch) {
        const outcome = mapper.map(record.data);
        if (outcome.ok) {
          rows.push(outcome.row);
          delivered.push(record);
          if (raw) {
            const line = outcome.canonical ? asJsonLine(record.data) : undefined;
            if (line) lines?.push(line);
            else raw = false;
            for (const column of timestampColumns) {
              if (outcome.row[column] === null) continue;
              const micros = outcome.microsColumns.includes(column);
              (micros ? microsColumns : isoColumns).add(column);
              if (microsColumns.has(column) && isoColumns.has(column)) raw = false;
            }
          }
        } else failed.push({ ...record, errorCode: outcome.errorCode, errorMessage: outcome.errorMessage });
      }
      if (rows.length > 0) {
        try {
          await this.commit(async () => {
            if (!raw || !lines || !this.target.stagingDir) return handle.append({ rows });
            const staged = stageRawRecords(this.target.stagingDir, schema, lines, microsColumns);
            try {
              return await handle.append({ sql: staged.sql });
            } catch (error) {
              // A conflict is retried by commit(); anything else (e.g. bytes DuckDB's reader refuses) falls back
              // to the rows path once, so a record is never lost to the fast path.
              if (error instanceof Error && /Conflict/i.test(error.name)) throw error;
              raw = false;
              return handle.append({ rows });
            } finally {
              staged.dispose();
            }
          });
          this.stats.recordsDelivered += rows.length;
          if (raw) this.stats.rawPathFlushes = (this.stats.rawPathFlushes ?? 0) + 1;
        } catch (error) {
          fail(
            delivered,
            RECORD_ERROR.commitFailed,
            `Commit to ${this.target.database}.${this.target.table} failed: ${(error as Error).message}`,
          );
          this.stats.lastError = (error as Error).message;
        }
      }
    } catch (error) {
      const code = isNotFound(error) ? RECORD_ERROR.tableNotFound : RECORD_ERROR.commitFailed;
      const done = new Set(failed.map((f) => f.data));
      fail(
        batch.filter((r) => !done.has(r.data)),
        code,
        (error as Error).message,
      );
      this.stats.lastError = (error as Error).message;
    }
    if (failed.length > 0) {
      const file = writeErrorOutput(this.target.errorOutput, failed);
      this.stats.recordsFailed += failed.length;
      if (file) this.stats.errorOutputFiles = [...this.stats.errorOutputFiles, file].slice(-100);
    }
    this.stats.flushes++;
    this.stats.flushMsTotal = Math.round((this.stats.flushMsTotal ?? 0) + performance.now() - started);
    this.stats.lastFlushAt = new Date().toISOString();
    this.onStats(this.stats);
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
