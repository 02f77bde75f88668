// Amazon Data Firehose (awsJson1_1, `Firehose_20150804.<Op>`): Direct PUT streams into Iceberg tables of the
// local table buckets, with PutRecord/PutRecordBatch's real limits and error shapes. A put is answered only once
// its records are durable in the stream's record log; on start, each stream replays what its log still holds.
import { randomBytes } from 'node:crypto';
import type {
  CreateDeliveryStreamInput,
  CreateDeliveryStreamOutput,
  DeleteDeliveryStreamInput,
  DeleteDeliveryStreamOutput,
  DescribeDeliveryStreamInput,
  DescribeDeliveryStreamOutput,
  ListDeliveryStreamsInput,
  ListDeliveryStreamsOutput,
  PutRecordBatchInput,
  PutRecordBatchOutput,
  PutRecordInput,
  PutRecordOutput,
  ListTagsForDeliveryStreamInput,
  ListTagsForDeliveryStreamOutput,
  TagDeliveryStreamInput,
  TagDeliveryStreamOutput,
  UntagDeliveryStreamInput,
  UntagDeliveryStreamOutput,
  UpdateDestinationInput,
  UpdateDestinationOutput,
  IcebergDestinationConfiguration,
  _Record as FirehoseRecord,
} from '@aws-sdk/client-firehose';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { namedPath, type Warehouse } from '@loglake/lakehouse';
import { deliveryStreamArn, LOCAL_ACCOUNT_ID } from '../arn';
import type { AwsServiceError } from '../errors';
import type { FaultInjector } from '../faults';
import { serviceApi, type Wire } from '../model/api';
import { awsJsonService, type ServiceModule, type WireOperation } from '../protocol';
import { localDataPath } from '../data-dir';
import type { JsonStore } from '../store';
import { MAX_BUFFER_BYTES, StreamDelivery, type DeliveryAccess, type DeliveryStats } from './delivery';
import { putMetrics, type FirehoseMetricSink } from './metrics';
import { LogWriteError, RecordLog, type LogDamage } from './record-log';
import type { ErrorOutputObjects } from './error-output';
import {
  describeStream,
  DESTINATION_ID,
  invalidArgument,
  parseIcebergStream,
  type StreamDefinition,
} from './streams';
import { tagList, tagsFromList, withoutTags, withTags } from '../tags';
import { wireError } from '../model/wire-errors';

export interface FirehoseOptions {
  warehouse: Warehouse;
  store: JsonStore;
  faults: FaultInjector;
  region: string;
  dataDir: string;
  /** The local S3, where the error output goes (the error bucket's objects). */
  objects: ErrorOutputObjects;
  /** Replaces every stream's IntervalInSeconds (tests and benchmarks: no 60 s waits). */
  bufferIntervalOverrideSeconds?: number;
  /** Where the streams' documented CloudWatch metrics go (the endpoint's CloudWatch). */
  metrics?: FirehoseMetricSink;
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

export interface FirehoseService extends ServiceModule {
  stats(): Record<string, LocalStreamStats>;
  /** Flushes every stream's buffer now and waits for the commits (admin hook and shutdown). */
  flushAll(): Promise<void>;
  /** Streams whose log held records (or damage) at start. */
  readonly recovery: StreamRecovery[];
  /** Starts delivering what the logs held (once the endpoint serves requests). */
  replay(): void;
}

const streamKey = (name: string) => ['firehose', 'streams', name];
/** Where counters were kept before the record log's checkpoint (read once, for data directories from then). */
const legacyStatsKey = (name: string) => ['firehose', 'stats', name];

// Firehose answers a request that breaks its model's constraints with ValidationException ("1 validation error
// detected: …"), and one whose JSON does not fit the model's types with SerializationException; its own
// InvalidArgumentException is for values the model allows but the service refuses (API reference, Common Errors
// and each operation's Errors section).
export const FIREHOSE_API = serviceApi('firehose', {
  invalid: (message) => wireError('firehose', 'ValidationException', message),
  malformed: (message) => wireError('firehose', 'SerializationException', message),
});

/** Operations of Firehose's model the local endpoint does not serve, and why. */
export const FIREHOSE_NOT_SERVED: Record<string, string> = {
  StartDeliveryStreamEncryption: 'server-side encryption of the stream buffer has no local meaning',
  StopDeliveryStreamEncryption: 'server-side encryption of the stream buffer has no local meaning',
};

/** Firehose's tag rules: more than 50 is LimitExceededException ("up to 50 tags"), an `aws:` key InvalidArgument. */
const tagRefusal = (message: string, rule: 'reserved' | 'limit') =>
  rule === 'limit' ? wireError('firehose', 'LimitExceededException', message) : invalidArgument(message);

interface FirehoseOperations {
  [operation: string]: WireOperation<never, unknown>;
  CreateDeliveryStream: WireOperation<CreateDeliveryStreamInput, CreateDeliveryStreamOutput>;
  DescribeDeliveryStream: WireOperation<DescribeDeliveryStreamInput, DescribeDeliveryStreamOutput>;
  ListDeliveryStreams: WireOperation<ListDeliveryStreamsInput, ListDeliveryStreamsOutput>;
  DeleteDeliveryStream: WireOperation<DeleteDeliveryStreamInput, DeleteDeliveryStreamOutput>;
  PutRecord: WireOperation<PutRecordInput, PutRecordOutput>;
  PutRecordBatch: WireOperation<PutRecordBatchInput, PutRecordBatchOutput>;
  UpdateDestination: WireOperation<UpdateDestinationInput, UpdateDestinationOutput>;
  ListTagsForDeliveryStream: WireOperation<ListTagsForDeliveryStreamInput, ListTagsForDeliveryStreamOutput>;
  TagDeliveryStream: WireOperation<TagDeliveryStreamInput, TagDeliveryStreamOutput>;
  UntagDeliveryStream: WireOperation<UntagDeliveryStreamInput, UntagDeliveryStreamOutput>;
}

function notFound(name: string): AwsServiceError {
  return wireError(
    'firehose',
    'ResourceNotFoundException',
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
  // A stream's name is one path component (the one name → path mapping): `..` or `.` are names, not steps.
  const logDir = (name: string) => namedPath(localDataPath(options.dataDir, 'firehose'), [name]);
  const orphanedDir = (name: string) =>
    namedPath(localDataPath(options.dataDir, 'firehose'), ['.orphaned', `${name}-${Date.now()}`]);
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
  for (const name of store.list(['firehose', 'streams'])) deliveryOf(load(name));

  // The model has checked every record's Data (present, at most 1,000 KiB decoded); what is left is the call's
  // 4 MiB total, which the model does not express.
  const decodeRecords = (records: Wire<FirehoseRecord>[]): Buffer[] => {
    // One allocation for the call's records (each a view of it), not one per record. byteLength is an upper bound
    // of what decoding writes (at most 3 bytes per 4 characters, less at padding), so no record is cut short.
    let capacity = 0;
    for (const record of records) capacity += Buffer.byteLength(record.Data ?? '', 'base64');
    const bytes = Buffer.allocUnsafe(capacity);
    let offset = 0;
    const decoded = records.map((record) => {
      const length = bytes.write(record.Data ?? '', offset, 'base64');
      const data = bytes.subarray(offset, offset + length);
      offset += length;
      return data;
    });
    if (offset > MAX_BATCH_BYTES) throw invalidArgument('Records size exceeds 4 MB limit');
    return decoded;
  };
  const throttle = () => {
    if (faults.throttleCall()) throw wireError('firehose', 'ServiceUnavailableException', 'Slow down.');
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
      throw wireError(
        'firehose',
        'ServiceUnavailableException',
        `The local endpoint could not make the records durable, so it accepted none of them: ${error.message} ` +
          'Back off and retry the operation.',
        { cause: error },
      );
    }
  };
  // Record ids are opaque to callers; a random per-process prefix + counter is unique and cheap (no RNG per record).
  const idPrefix = randomBytes(24).toString('base64url');
  let idCounter = 0;
  const recordId = () => `${idPrefix}${(idCounter++).toString(36).padStart(24, '0')}`;

  const operations: FirehoseOperations = {
    async CreateDeliveryStream(input) {
      const name = input.DeliveryStreamName as string;
      const type = input.DeliveryStreamType ?? 'DirectPut';
      if (type !== 'DirectPut')
        throw invalidArgument(
          `DeliveryStreamType ${type} is not supported by the local endpoint: use DirectPut.`,
        );
      const iceberg = input.IcebergDestinationConfiguration;
      if (!iceberg) {
        throw invalidArgument(
          'The local endpoint supports Iceberg destinations only: give IcebergDestinationConfiguration.',
        );
      }
      if (store.read(streamKey(name))) {
        throw wireError(
          'firehose',
          'ResourceInUseException',
          `Firehose ${name} under accountId ${LOCAL_ACCOUNT_ID} already exists`,
        );
      }
      const arn = deliveryStreamArn(region, name);
      const tags = withTags({}, tagsFromList(input.Tags), tagRefusal);
      const stream: StreamDefinition = {
        ...parseIcebergStream(name, arn, iceberg),
        createdAt: Date.now(),
        ...(Object.keys(tags).length > 0 ? { tags } : {}),
      };
      const refused = options.roles?.validate(stream);
      if (refused) throw invalidArgument(refused);
      // A log left by a stream of this name whose definition is gone is kept aside, never appended to.
      if (existsSync(logDir(name))) {
        mkdirSync(dirname(orphanedDir(name)), { recursive: true });
        renameSync(logDir(name), orphanedDir(name));
      }
      store.delete(legacyStatsKey(name));
      store.write(streamKey(name), stream);
      deliveryOf(stream).warmUp();
      return { DeliveryStreamARN: arn };
    },
    async DescribeDeliveryStream(input) {
      return { DeliveryStreamDescription: describeStream(load(input.DeliveryStreamName as string)) };
    },
    async ListDeliveryStreams(input) {
      const limit = input.Limit ?? 10;
      const after = input.ExclusiveStartDeliveryStreamName;
      const names = store
        .list(['firehose', 'streams'])
        .sort()
        .filter((n) => !after || n > after);
      return { DeliveryStreamNames: names.slice(0, limit), HasMoreDeliveryStreams: names.length > limit };
    },
    async DeleteDeliveryStream(input) {
      const name = input.DeliveryStreamName as string;
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
    async UpdateDestination(input) {
      const name = input.DeliveryStreamName as string;
      const stream = load(name);
      const version = String(stream.versionId ?? 1);
      if (input.CurrentDeliveryStreamVersionId !== version)
        throw wireError(
          'firehose',
          'ConcurrentModificationException',
          `Firehose ${name} is at version ${version}, not ${input.CurrentDeliveryStreamVersionId}: describe it again and retry with its VersionId.`,
        );
      if (input.DestinationId !== DESTINATION_ID)
        throw invalidArgument(
          `Firehose ${name} has no destination ${input.DestinationId} (its one destination is ${DESTINATION_ID}).`,
        );
      const update = input.IcebergDestinationUpdate;
      if (!update)
        throw invalidArgument(
          'The local endpoint supports Iceberg destinations only: give IcebergDestinationUpdate.',
        );
      // "UpdateDestination … merges the parameters you specify with the destination configuration that already
      // exists": the members given replace theirs, the others are kept.
      const merged = { ...stream.icebergConfiguration } as Record<string, unknown>;
      for (const [key, value] of Object.entries(update))
        if (value !== undefined && value !== null) merged[key] = value;
      const updated: StreamDefinition = {
        ...parseIcebergStream(name, stream.arn, merged as Wire<IcebergDestinationConfiguration>),
        createdAt: stream.createdAt,
        versionId: (stream.versionId ?? 1) + 1,
        ...(stream.tags ? { tags: stream.tags } : {}),
      };
      const refused = options.roles?.validate(updated);
      if (refused) throw invalidArgument(refused);
      // What was buffered is delivered where it was headed; later records follow the new settings.
      const delivery = deliveries.get(name);
      if (delivery) await delivery.close();
      deliveries.delete(name);
      store.write(streamKey(name), updated);
      deliveryOf(updated).warmUp();
      return {};
    },
    async ListTagsForDeliveryStream(input) {
      const stream = load(input.DeliveryStreamName as string);
      const limit = input.Limit ?? 50;
      const all = tagList(stream.tags)
        .sort((a, b) => (a.Key < b.Key ? -1 : a.Key > b.Key ? 1 : 0))
        .filter((t) => input.ExclusiveStartTagKey === undefined || t.Key > input.ExclusiveStartTagKey);
      return { Tags: all.slice(0, limit), HasMoreTags: all.length > limit };
    },
    async TagDeliveryStream(input) {
      const stream = load(input.DeliveryStreamName as string);
      store.write(streamKey(stream.name), {
        ...stream,
        tags: withTags(stream.tags, tagsFromList(input.Tags), tagRefusal),
      });
      return {};
    },
    async UntagDeliveryStream(input) {
      const stream = load(input.DeliveryStreamName as string);
      store.write(streamKey(stream.name), { ...stream, tags: withoutTags(stream.tags, input.TagKeys ?? []) });
      return {};
    },
    async PutRecord(input) {
      const delivery = deliveryNamed(input.DeliveryStreamName as string);
      const decoded = decodeRecords([input.Record as Wire<FirehoseRecord>]);
      throttle();
      await accept(delivery, decoded);
      options.metrics?.(delivery.streamName, putMetrics('PutRecord', 1, decoded[0]?.length ?? 0));
      return { RecordId: recordId(), Encrypted: false };
    },
    async PutRecordBatch(input) {
      const delivery = deliveryNamed(input.DeliveryStreamName as string);
      const decoded = decodeRecords(input.Records ?? []);
      throttle();
      const accepted: Buffer[] = [];
      const responses = decoded.map((record) => {
        if (faults.failRecord())
          return { ErrorCode: 'ServiceUnavailableException', ErrorMessage: 'Slow down.' };
        accepted.push(record);
        return { RecordId: recordId() };
      });
      if (accepted.length > 0) await accept(delivery, accepted);
      let bytes = 0;
      for (const record of accepted) bytes += record.length;
      options.metrics?.(delivery.streamName, putMetrics('PutRecordBatch', accepted.length, bytes));
      return {
        FailedPutCount: decoded.length - accepted.length,
        Encrypted: false,
        RequestResponses: responses,
      };
    },
  };

  const service = awsJsonService({
    name: 'Firehose',
    api: FIREHOSE_API,
    messageKey: 'message',
    // Firehose's API has no internal-error code of its own; its SDK treats this one as retryable.
    internalErrorCode: 'ServiceUnavailableException',
    operations,
    notServed: (operation) => FIREHOSE_NOT_SERVED[operation] ?? 'not implemented locally',
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
      result[name] = {
        ...delivery.stats,
        pendingRecords: delivery.pendingRecords,
        intervalSeconds: delivery.intervalSeconds,
        ...(delivery.bufferDueAt ? { bufferDueAt: delivery.bufferDueAt.toISOString() } : {}),
      };
    return result;
  };
  Object.assign(service, { recovery });
  service.replay = () => {
    for (const replay of replays.splice(0)) replay();
  };
  return service;
}
