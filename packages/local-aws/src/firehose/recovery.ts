// Recovery and settling of one stream's log generations: what makes an acknowledged record land exactly once across
// a crash. Every generation from its first durable record to its checkpoint is counted here as pending. A flush ends
// by settling its generation: a checkpoint of the counters (of settled generations only) is made durable and the
// generation's log files go. After a crash the log replays every generation not settled, and replay asks two
// questions before delivering one again, in the order a flush concludes: is its error output file already written
// (it concluded, only the settle was lost), and is its commit already in the table (log-commits.ts: only what did
// not fit is left to write). delivery.ts does the buffering, cuts and commits, and calls in here.
import type { Schema, TableMetadata } from '@loglake/lakehouse/iceberg';
import type { DeliveryStats } from './delivery-stats';
import type { ErrorOutputTarget } from './error-output';
import { committedGeneration } from './log-commits';
import { preparePart } from './prepare';
import type { LoggedRecord, RecordLog } from './record-log';
import type { BufferedRecord, RejectedRecord } from './records';

/** A generation as a flush delivers it: its number in the log and its durable records. */
export interface GenerationRecords {
  readonly number: number;
  readonly records: readonly BufferedRecord[];
}

/** The generations of one stream's log between their first durable record and their checkpoint. */
export class GenerationLedger {
  /** The first generation that could not be settled, if any (see settle()). */
  private unsettled: number | undefined;
  /** Records and bytes of generations not yet settled (received, not yet delivered or failed). */
  private readonly pending = { records: 0, bytes: 0 };

  constructor(
    private readonly log: RecordLog<DeliveryStats>,
    /** The stream's counters (delivery's own object: both count into it). */
    private readonly stats: DeliveryStats,
    private readonly errorOutput: Pick<ErrorOutputTarget, 'objects' | 'bucket'>,
  ) {}

  get pendingRecords(): number {
    return this.pending.records;
  }

  /** Records now durable in the open generation: received, and pending until their generation settles. */
  received(records: number, bytes: number): void {
    this.stats.recordsReceived += records;
    this.stats.bytesReceived += bytes;
    this.pending.records += records;
    this.pending.bytes += bytes;
  }

  /** A generation replayed from the log: received again (the checkpoint's counters are of settled ones only). */
  replayed(records: readonly LoggedRecord[]): void {
    let bytes = 0;
    for (const record of records) bytes += record.data.length;
    this.received(records.length, bytes);
    this.stats.recordsReplayed = (this.stats.recordsReplayed ?? 0) + records.length;
  }

  /**
   * A generation neither delivered nor backed up (its error output could not be written): it stays in the log, to
   * be delivered again on the next start, and no later generation settles past it.
   */
  keepInLog(generation: number): void {
    this.unsettled ??= generation;
  }

  /**
   * A replayed generation whose error output is already written concluded before the crash (the file comes after
   * the commit attempt): what is not in the file is in the table. Counted, then settled.
   */
  concludedBeforeCrash(generation: GenerationRecords, errorOutputKey: string): boolean {
    const { objects, bucket } = this.errorOutput;
    const written = objects.read(bucket, errorOutputKey);
    if (written === undefined) return false;
    const failed = written.toString('utf8').split('\n').filter(Boolean).length;
    this.stats.recordsFailed += failed;
    this.stats.recordsDelivered += generation.records.length - failed;
    if (failed < generation.records.length) this.stats.commits++;
    this.settle(generation, performance.now());
    return true;
  }

  /**
   * A replayed generation committed before the crash needs no new commit: only what did not fit is left to write,
   * checked as that commit checked (under its schema when the table still has it). Undefined when the table has no
   * commit of it; otherwise the records for the error output, once counted.
   */
  landedBeforeCrash(
    generation: GenerationRecords,
    table: { metadata: TableMetadata; schema: Schema },
  ): Promise<RejectedRecord[]> | undefined {
    const landed = committedGeneration(table.metadata, this.log.logId, generation.number);
    if (!landed) return undefined;
    const schema = table.metadata.schemas.find((s) => s['schema-id'] === landed.schemaId);
    return preparePart(schema ?? table.schema, generation.records).then((part) => {
      this.stats.recordsDelivered += part.delivered.length;
      this.stats.commits++;
      return part.failed;
    });
  }

  /**
   * Counters, then the checkpoint that settles the generation (its log files go). After a failure to settle (the
   * disk is full), no later generation settles either: the checkpoint would cover the one left in the log. They
   * are still committed; the next start replays them all and finds their commits.
   */
  settle(generation: GenerationRecords, started: number): void {
    this.pending.records -= generation.records.length;
    for (const record of generation.records) this.pending.bytes -= record.data.length;
    this.stats.flushes++;
    this.stats.flushMsTotal = Math.round((this.stats.flushMsTotal ?? 0) + performance.now() - started);
    this.stats.lastFlushAt = new Date().toISOString();
    if (this.unsettled) return;
    // Persisted counts are of settled generations only: replay adds the ones still in the log.
    const { durability: _durability, ...persisted } = this.stats;
    try {
      this.log.settle(generation.number, {
        ...persisted,
        recordsReceived: this.stats.recordsReceived - this.pending.records,
        bytesReceived: this.stats.bytesReceived - this.pending.bytes,
      });
    } catch (error) {
      this.unsettled = generation.number;
      this.stats.lastError =
        `Generation ${generation.number} was delivered but could not be settled in the log ` +
        `(${(error as Error).message}); it and later ones are delivered once more, exactly once, on the next start.`;
    }
  }
}
