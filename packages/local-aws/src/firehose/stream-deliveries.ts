// The live delivery of every Firehose stream and its record log on disk, `<dataDir>/firehose/<stream>/`: opened
// when the endpoint starts (or the stream is created) with what the log still holds queued for replay, replaced
// when the destination changes, closed and removed with the stream. The API handlers are service.ts's.
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { namedPath } from '@loglake/lakehouse';
import { localDataPath } from '../data-dir';
import { MAX_BUFFER_BYTES, StreamDelivery } from './delivery';
import type { DeliveryStats } from './delivery-stats';
import { RecordLog, type LogDamage } from './record-log';
import type { FirehoseOptions } from './service';
import type { StreamDefinition } from './streams';

/** A stream's delivery counters with the records still buffered (the admin API's answer). */
export type LocalStreamStats = DeliveryStats & {
  pendingRecords: number;
  /** The buffer interval in effect, seconds (the stream's, or the endpoint's --buffer-interval). */
  intervalSeconds?: number;
  /** When the open buffer's interval ends (ISO time), while one is open. */
  bufferDueAt?: string;
};

/** What a stream's log held when the endpoint started: replayed records, and damaged tails found. */
export interface StreamRecovery {
  stream: string;
  replayedRecords: number;
  replayedGenerations: number;
  damage: LogDamage[];
}

/**
 * Where counters were kept before the record log's checkpoint (66c87de, 2026-12-01): read once, for data
 * directories from then, and removed with their stream. Retire it once no such data directory is left to start.
 */
const legacyStatsKey = (name: string) => ['firehose', 'stats', name];

export class StreamDeliveries {
  /** Streams whose log held records (or damage) when it was opened. */
  readonly recovery: StreamRecovery[] = [];
  /** Each stream's live delivery, kept until the stream is deleted (puts read no store per call). */
  private readonly live = new Map<string, StreamDelivery>();
  private readonly replays: (() => void)[] = [];

  constructor(private readonly options: FirehoseOptions) {}

  /** The stream's live delivery, if it has one open. */
  get(name: string): StreamDelivery | undefined {
    return this.live.get(name);
  }

  /** The stream's live delivery, its log opened first if it has none (what the log holds is queued for replay). */
  open(stream: StreamDefinition): StreamDelivery {
    const { options } = this;
    let delivery = this.live.get(stream.name);
    if (delivery) return delivery;
    const opened = RecordLog.open<DeliveryStats>(this.logDir(stream.name));
    const intervalSeconds = options.bufferIntervalOverrideSeconds ?? stream.intervalInSeconds;
    delivery = new StreamDelivery(
      options.warehouse,
      {
        streamName: stream.name,
        bucket: stream.tableBucket,
        database: stream.database,
        table: stream.table,
        // SizeInMBs is kept and described, but does not cut commits (delivery.ts).
        maxBufferBytes: MAX_BUFFER_BYTES,
        intervalMs: Math.max(0, intervalSeconds * 1000),
        tempDir: localDataPath(options.dataDir, 'tmp', 'firehose'),
        ...(options.metrics ? { metrics: (data) => options.metrics?.(stream.name, data) } : {}),
        ...(options.roles ? { access: options.roles.access(stream) } : {}),
        errorOutput: {
          objects: options.objects,
          bucket: stream.errorBucket,
          prefix: stream.tableErrorOutputPrefix ?? stream.errorOutputPrefix,
          streamName: stream.name,
          database: stream.database,
          table: stream.table,
          catalogArn: stream.catalogArn,
          region: options.region,
        },
      },
      options.faults,
      opened.log,
      // A data directory from before the record log kept its counters in the store.
      opened.checkpoint?.stats ?? options.store.read<DeliveryStats>(legacyStatsKey(stream.name)),
    );
    this.live.set(stream.name, delivery);
    const damage = opened.damage.map(
      (d) => `${d.file} at byte ${d.offset}: ${d.reason}; ${d.bytes} bytes not replayed, kept in ${d.keptAt}`,
    );
    if (damage.length > 0) delivery.stats.logDamage = [...(delivery.stats.logDamage ?? []), ...damage];
    if (opened.recovered.length > 0) this.replays.push(() => delivery.recover(opened.recovered));
    if (opened.recovered.length > 0 || opened.damage.length > 0)
      this.recovery.push({
        stream: stream.name,
        replayedRecords: opened.recovered.reduce((n, g) => n + g.records.length, 0),
        replayedGenerations: opened.recovered.length,
        damage: opened.damage,
      });
    return delivery;
  }

  /** Starts delivering what the logs held when they were opened. */
  replay(): void {
    for (const replay of this.replays.splice(0)) replay();
  }

  /** Delivers what the stream's delivery buffered and closes its log (its files stay, see removeLog). */
  async close(name: string): Promise<void> {
    const delivery = this.live.get(name);
    if (delivery) await delivery.close();
    this.live.delete(name);
  }

  /** A log left by a stream of this name whose definition is gone is kept aside, never appended to. */
  setAsideLog(name: string): void {
    if (existsSync(this.logDir(name))) {
      mkdirSync(dirname(this.orphanedDir(name)), { recursive: true });
      renameSync(this.logDir(name), this.orphanedDir(name));
    }
    this.options.store.delete(legacyStatsKey(name));
  }

  /** Removes a deleted stream's log (and counters kept from before the log). */
  removeLog(name: string): void {
    this.options.store.delete(legacyStatsKey(name));
    rmSync(this.logDir(name), { recursive: true, force: true });
  }

  /** Flushes every stream's buffer now and waits for the commits. */
  async flushAll(): Promise<void> {
    await Promise.all([...this.live.values()].map((d) => d.drain()));
  }

  /** Delivers what every stream buffered and closes the logs (the endpoint stops). */
  async closeAll(): Promise<void> {
    await Promise.all([...this.live.values()].map((d) => d.close()));
  }

  stats(): Record<string, LocalStreamStats> {
    const result: Record<string, LocalStreamStats> = {};
    for (const [name, delivery] of this.live)
      result[name] = {
        ...delivery.stats,
        pendingRecords: delivery.pendingRecords,
        intervalSeconds: delivery.intervalSeconds,
        ...(delivery.bufferDueAt ? { bufferDueAt: delivery.bufferDueAt.toISOString() } : {}),
      };
    return result;
  }

  // A stream's name is one path component (the one name → path mapping): `..` or `.` are names, not steps.
  private logDir(name: string): string {
    return namedPath(localDataPath(this.options.dataDir, 'firehose'), [name]);
  }

  private orphanedDir(name: string): string {
    return namedPath(localDataPath(this.options.dataDir, 'firehose'), ['.orphaned', `${name}-${Date.now()}`]);
  }
}
