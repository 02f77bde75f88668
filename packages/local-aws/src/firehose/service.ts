// Amazon Data Firehose (awsJson1_1, `Firehose_20150804.<Op>`): Direct PUT streams into Iceberg tables of the
// local table buckets, with PutRecord/PutRecordBatch's real limits and error shapes. A put is answered only once
// its records are durable in the stream's record log; on start, each stream replays what its log still holds.
import { randomBytes } from 'node:crypto';
import { existsSync, renameSync, rmSync } from 'node:fs';
import type { Warehouse } from '@loglake/lakehouse';
import { deliveryStreamArn, LOCAL_ACCOUNT_ID } from '../arn';
import { AwsServiceError } from '../errors';
import type { FaultInjector } from '../faults';
import { InputReader } from '../input';
import { awsJsonService, type ServiceModule } from '../protocol';
import { localDataPath } from '../data-dir';
import type { JsonStore } from '../store';
import { MAX_BUFFER_BYTES, StreamDelivery, type DeliveryAccess, type DeliveryStats } from './delivery';
import { LogWriteError, RecordLog, type LogDamage } from './record-log';
import { describeStream, invalidArgument, parseIcebergStream, type StreamDefinition } from './streams';

export interface FirehoseOptions {
  warehouse: Warehouse;
  store: JsonStore;
  faults: FaultInjector;
  region: string;
  dataDir: string;
  /** Replaces every stream's IntervalInSeconds (tests and benchmarks: no 60 s waits). */
  bufferIntervalOverrideSeconds?: number;
  /** With authorization: Firehose acting with each stream's roles. */
  roles?: FirehoseRoles;
}

/** How Firehose uses a stream's roles when the endpoint enforces authorization. */
export interface FirehoseRoles {
  /** Why CreateDeliveryStream refuses the stream's roles (InvalidArgumentException's message), or undefined. */
  validate(stream: StreamDefinition): string | undefined;
  /** What the stream's role may not do while delivering. */
  access(stream: StreamDefinition): DeliveryAccess;
}

// PutRecordBatch limits (Firehose API reference): 500 records, 1,000 KiB per record, 4 MiB per call.
export const MAX_BATCH_RECORDS = 500;
export const MAX_RECORD_BYTES = 1_024_000;
export const MAX_BATCH_BYTES = 4 * 1024 * 1024;

/** A stream's delivery counters with the records still buffered (the admin API's answer). */
export type LocalStreamStats = DeliveryStats & { pendingRecords: number };

/** What a stream's log held when the endpoint started: replayed records, and damaged tails found. */
export interface StreamRecovery {
  stream: string;
  replayedRecords: number;
  replayedGenerations: number;
  damage: LogDamage[];
}

export interface FirehoseService extends ServiceModule {
  stats(): Record<string, LocalStreamStats>;
  /** Flushes every stream's buffer now and waits for the commits (admin hook and shutdown). */
  flushAll(): Promise<void>;
  /** Streams whose log held records (or damage) at start. */
  readonly recovery: StreamRecovery[];
  /** Starts delivering what the logs held (once the endpoint serves requests). */
  replay(): void;
}

const streamKey = (name: string) => `firehose/streams/${name}`;
/** Where counters were kept before the record log's checkpoint (read once, for data directories from then). */
const legacyStatsKey = (name: string) => `firehose/stats/${name}`;

function validation(message: string): AwsServiceError {
  return new AwsServiceError('ValidationException', 400, `1 validation error detected: ${message}`);
}

function notFound(name: string): AwsServiceError {
  return new AwsServiceError(
    'ResourceNotFoundException',
    400,
    `Firehose ${name} under account ${LOCAL_ACCOUNT_ID} not found.`,
  );
}

export function createFirehoseService(options: FirehoseOptions): FirehoseService {
  const { warehouse, store, faults, region } = options;
  const deliveries = new Map<string, StreamDelivery>();

  const load = (name: string): StreamDefinition => {
    const stream = store.read<StreamDefinition>(streamKey(name));
    if (!stream) throw notFound(name);
    return stream;
  };
  const logDir = (name: string) => localDataPath(options.dataDir, 'firehose', name);
  // Puts take the stream's live delivery (kept until the stream is deleted): no store read per call.
  const deliveryNamed = (name: string): StreamDelivery => deliveries.get(name) ?? deliveryOf(load(name));
  const deliveryOf = (stream: StreamDefinition): StreamDelivery => {
    let delivery = deliveries.get(stream.name);
    if (delivery) return delivery;
    const opened = RecordLog.open<DeliveryStats>(logDir(stream.name));
    const intervalSeconds = options.bufferIntervalOverrideSeconds ?? stream.intervalInSeconds;
    delivery = new StreamDelivery(
      warehouse,
      {
        streamName: stream.name,
        bucket: stream.tableBucket,
        database: stream.database,
        table: stream.table,
        // SizeInMBs is kept and described, but does not cut commits (delivery.ts).
        maxBufferBytes: MAX_BUFFER_BYTES,
        intervalMs: Math.max(0, intervalSeconds * 1000),
        tempDir: localDataPath(options.dataDir, 'tmp', 'firehose'),
        ...(options.roles ? { access: options.roles.access(stream) } : {}),
        errorOutput: {
          s3Root: localDataPath(options.dataDir, 's3'),
          bucket: stream.errorBucket,
          prefix: stream.tableErrorOutputPrefix ?? stream.errorOutputPrefix,
          streamName: stream.name,
          database: stream.database,
          table: stream.table,
          catalogArn: stream.catalogArn,
          region,
        },
      },
      faults,
      opened.log,
      // A data directory from before the record log kept its counters in the store.
      opened.checkpoint?.stats ?? store.read<DeliveryStats>(legacyStatsKey(stream.name)),
    );
    deliveries.set(stream.name, delivery);
    const damage = opened.damage.map(
      (d) => `${d.file} at byte ${d.offset}: ${d.reason}; ${d.bytes} bytes not replayed, kept in ${d.keptAt}`,
    );
    if (damage.length > 0) delivery.stats.logDamage = [...(delivery.stats.logDamage ?? []), ...damage];
    if (opened.recovered.length > 0) replays.push(() => delivery.recover(opened.recovered));
    if (opened.recovered.length > 0 || opened.damage.length > 0)
      recovery.push({
        stream: stream.name,
        replayedRecords: opened.recovered.reduce((n, g) => n + g.records.length, 0),
        replayedGenerations: opened.recovered.length,
        damage: opened.damage,
      });
    return delivery;
  };
  const recovery: StreamRecovery[] = [];
  const replays: (() => void)[] = [];
  // Every stream's log is opened (and what it holds replayed) before the first request.
  for (const name of store.list('firehose/streams')) deliveryOf(load(name));

  const decodeRecords = (records: unknown[]): Buffer[] => {
    const texts = records.map((entry, index) => {
      const data = (entry as { Data?: unknown } | null)?.Data;
      if (typeof data !== 'string')
        throw validation(
          `Value null at 'records.${index + 1}.member.data' failed to satisfy constraint: Member must not be null`,
        );
      return data;
    });
    // One allocation for the call's records (each a view of it), not one per record. byteLength is an upper bound
    // of what decoding writes (at most 3 bytes per 4 characters, less at padding), so no record is cut short.
    let capacity = 0;
    for (const text of texts) capacity += Buffer.byteLength(text, 'base64');
    const bytes = Buffer.allocUnsafe(capacity);
    let offset = 0;
    const decoded = texts.map((text, index) => {
      const length = bytes.write(text, offset, 'base64');
      if (length > MAX_RECORD_BYTES) {
        throw validation(
          `Value 'java.nio.HeapByteBuffer[pos=0 lim=${length} cap=${length}]' at 'records.${index + 1}.member.data' ` +
            `failed to satisfy constraint: Member must have length less than or equal to ${MAX_RECORD_BYTES}`,
        );
      }
      const data = bytes.subarray(offset, offset + length);
      offset += length;
      return data;
    });
    if (offset > MAX_BATCH_BYTES) throw invalidArgument('Records size exceeds 4 MB limit');
    return decoded;
  };
  const throttle = () => {
    if (faults.throttleCall()) throw new AwsServiceError('ServiceUnavailableException', 503, 'Slow down.');
  };
  // A record is accepted once it is written and synced in the stream's log. If that fails (disk full, no
  // permission), the call fails as AWS fails a put on its side: ServiceUnavailableException, a server fault with
  // HTTP 503 in Firehose's API model, which the SDKs retry ("The service is unavailable. Back off and retry the
  // operation."). PutRecordBatch's reference warns that such a retry can duplicate records: none of these was
  // acknowledged, and none is kept in the buffer.
  const accept = async (delivery: StreamDelivery, records: Buffer[]) => {
    try {
      await delivery.accept(records, Date.now());
    } catch (error) {
      if (!(error instanceof LogWriteError)) throw error;
      throw new AwsServiceError(
        'ServiceUnavailableException',
        503,
        `The local endpoint could not make the records durable, so it accepted none of them: ${error.message} ` +
          'Back off and retry the operation.',
        {},
        { cause: error },
      );
    }
  };
  // Record ids are opaque to callers; a random per-process prefix + counter is unique and cheap (no RNG per record).
  const idPrefix = randomBytes(24).toString('base64url');
  let idCounter = 0;
  const recordId = () => `${idPrefix}${(idCounter++).toString(36).padStart(24, '0')}`;

  const service = awsJsonService({
    name: 'Firehose',
    targetPrefix: 'Firehose_20150804',
    messageKey: 'message',
    // Firehose's API has no internal-error code of its own; its SDK treats this one as retryable.
    internalErrorCode: 'ServiceUnavailableException',
    operations: {
      async CreateDeliveryStream(input) {
        const reader = new InputReader(input, invalidArgument);
        const name = reader.requiredString('DeliveryStreamName');
        if (!/^[a-zA-Z0-9_.-]{1,64}$/.test(name)) {
          throw validation(
            `Value '${name}' at 'deliveryStreamName' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+`,
          );
        }
        const type = reader.optionalString('DeliveryStreamType') ?? 'DirectPut';
        if (type !== 'DirectPut')
          throw invalidArgument(
            `DeliveryStreamType ${type} is not supported by the local endpoint: use DirectPut.`,
          );
        const iceberg = reader.optionalObject('IcebergDestinationConfiguration');
        if (!iceberg) {
          throw invalidArgument(
            'The local endpoint supports Iceberg destinations only: give IcebergDestinationConfiguration.',
          );
        }
        if (store.read(streamKey(name))) {
          throw new AwsServiceError(
            'ResourceInUseException',
            400,
            `Firehose ${name} under accountId ${LOCAL_ACCOUNT_ID} already exists`,
          );
        }
        const arn = deliveryStreamArn(region, name);
        const stream: StreamDefinition = { ...parseIcebergStream(name, arn, iceberg), createdAt: Date.now() };
        const refused = options.roles?.validate(stream);
        if (refused) throw invalidArgument(refused);
        // A log left by a stream of this name whose definition is gone is kept aside, never appended to.
        if (existsSync(logDir(name))) renameSync(logDir(name), `${logDir(name)}.orphaned-${Date.now()}`);
        store.delete(legacyStatsKey(name));
        store.write(streamKey(name), stream);
        deliveryOf(stream).warmUp();
        return { DeliveryStreamARN: arn };
      },
      async DescribeDeliveryStream(input) {
        const name = new InputReader(input, invalidArgument).requiredString('DeliveryStreamName');
        return { DeliveryStreamDescription: describeStream(load(name)) };
      },
      async ListDeliveryStreams(input) {
        const reader = new InputReader(input, invalidArgument);
        const limit = reader.optionalInteger('Limit', 1, 10000) ?? 10;
        const after = reader.optionalString('ExclusiveStartDeliveryStreamName');
        const names = store
          .list('firehose/streams')
          .sort()
          .filter((n) => !after || n > after);
        return { DeliveryStreamNames: names.slice(0, limit), HasMoreDeliveryStreams: names.length > limit };
      },
      async DeleteDeliveryStream(input) {
        const name = new InputReader(input, invalidArgument).requiredString('DeliveryStreamName');
        load(name);
        const delivery = deliveries.get(name);
        // Firehose drops undelivered data on delete; flushing first keeps records local users already sent.
        if (delivery) await delivery.close();
        deliveries.delete(name);
        store.delete(streamKey(name));
        store.delete(legacyStatsKey(name));
        rmSync(logDir(name), { recursive: true, force: true });
        return {};
      },
      async PutRecord(input) {
        const reader = new InputReader(input, invalidArgument);
        const delivery = deliveryNamed(reader.requiredString('DeliveryStreamName'));
        const record = reader.optionalObject('Record');
        if (!record)
          throw validation("Value null at 'record' failed to satisfy constraint: Member must not be null");
        const decoded = decodeRecords([record]);
        throttle();
        await accept(delivery, decoded);
        return { RecordId: recordId(), Encrypted: false };
      },
      async PutRecordBatch(input) {
        const reader = new InputReader(input, invalidArgument);
        const delivery = deliveryNamed(reader.requiredString('DeliveryStreamName'));
        const records = reader.optionalArray('Records') ?? [];
        if (records.length === 0)
          throw validation(
            "Value '[]' at 'records' failed to satisfy constraint: Member must have length greater than or equal to 1",
          );
        if (records.length > MAX_BATCH_RECORDS) {
          throw validation(
            `Value '[...${records.length} records]' at 'records' failed to satisfy constraint: Member must have length less than or equal to ${MAX_BATCH_RECORDS}`,
          );
        }
        const decoded = decodeRecords(records);
        throttle();
        const accepted: Buffer[] = [];
        const responses = decoded.map((record) => {
          if (faults.failRecord())
            return { ErrorCode: 'ServiceUnavailableException', ErrorMessage: 'Slow down.' };
          accepted.push(record);
          return { RecordId: recordId() };
        });
        if (accepted.length > 0) await accept(delivery, accepted);
        return {
          FailedPutCount: decoded.length - accepted.length,
          Encrypted: false,
          RequestResponses: responses,
        };
      },
    },
    close: async () => {
      await Promise.all([...deliveries.values()].map((d) => d.close()));
    },
  }) as FirehoseService;

  service.flushAll = async () => {
    await Promise.all([...deliveries.values()].map((d) => d.drain()));
  };
  service.stats = () => {
    const result: Record<string, LocalStreamStats> = {};
    for (const [name, delivery] of deliveries)
      result[name] = { ...delivery.stats, pendingRecords: delivery.pendingRecords };
    return result;
  };
  Object.assign(service, { recovery });
  service.replay = () => {
    for (const replay of replays.splice(0)) replay();
  };
  return service;
}
