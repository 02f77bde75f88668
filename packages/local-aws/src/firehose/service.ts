// Amazon Data Firehose (awsJson1_1, `Firehose_20150804.<Op>`): Direct PUT streams into Iceberg tables of the
// local table buckets, with PutRecord/PutRecordBatch's real limits and error shapes. A put is answered only once
// its records are durable in the stream's record log; on start, each stream replays what its log still holds.
// FirehoseService is the API, one method per operation, over the streams' definitions in the store; each stream's
// live delivery and log are stream-deliveries.ts's.
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
import type { Warehouse } from '@loglake/lakehouse';
import { deliveryStreamArn, LOCAL_ACCOUNT_ID } from '../arn';
import type { AwsServiceError } from '../errors';
import type { FaultInjector } from '../faults';
import { serviceApi, type ServiceApi, type Wire } from '../model/api';
import { awsJsonService, type ErrorStyle, type ServiceModule, type WireOperation } from '../protocol';
import type { JsonStore } from '../store';
import type { DeliveryAccess, StreamDelivery } from './delivery';
import { putMetrics, type FirehoseMetricSink } from './metrics';
import { LogWriteError } from './record-log';
import type { ErrorOutputObjects } from './error-output';
import { StreamDeliveries, type LocalStreamStats, type StreamRecovery } from './stream-deliveries';
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

export type { LocalStreamStats, StreamRecovery } from './stream-deliveries';

const streamKey = (name: string) => ['firehose', 'streams', name];

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

/** An operation's input and reply as its handler has them (the SDK's shapes, on the wire). */
type Input<K extends keyof FirehoseOperations> = Parameters<FirehoseOperations[K]>[0];
type Reply<K extends keyof FirehoseOperations> = ReturnType<FirehoseOperations[K]>;

function notFound(name: string): AwsServiceError {
  return wireError(
    'firehose',
    'ResourceNotFoundException',
    `Firehose ${name} under account ${LOCAL_ACCOUNT_ID} not found.`,
  );
}

/**
 * The model has checked every record's Data (present, at most 1,000 KiB decoded); what is left is the call's 4 MiB
 * total, which the model does not express.
 */
function decodeRecords(records: Wire<FirehoseRecord>[]): Buffer[] {
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
}

/**
 * The Firehose API of the endpoint. Its wire members (name, model, error style, claims, operationOf, handle) are
 * the ones awsJsonService builds (the model's checks, the errors, the protocol); what is Firehose's own (close,
 * stats, flushAll, replay, recovery) is declared here.
 */
export class FirehoseService implements ServiceModule {
  readonly name: string;
  readonly api: ServiceApi | undefined;
  readonly served: readonly string[] | undefined;
  readonly errorStyle: ErrorStyle;
  readonly errorStyleFor: ServiceModule['errorStyleFor'];
  readonly internalErrorCode: string;
  readonly claims: ServiceModule['claims'];
  readonly operationOf: ServiceModule['operationOf'];
  readonly handle: ServiceModule['handle'];
  /** Streams whose log held records (or damage) at start. */
  readonly recovery: StreamRecovery[];
  private readonly streams: StreamDeliveries;
  // Record ids are opaque to callers; a random per-process prefix + counter is unique and cheap (no RNG per record).
  private readonly idPrefix: string;
  private idCounter = 0;

  constructor(private readonly options: FirehoseOptions) {
    this.streams = new StreamDeliveries(options);
    this.recovery = this.streams.recovery;
    // Every stream's log is opened (and what it holds queued for replay) before the first request.
    for (const name of options.store.list(['firehose', 'streams'])) this.streams.open(this.load(name));
    this.idPrefix = randomBytes(24).toString('base64url');
    const wire = awsJsonService({
      name: 'Firehose',
      api: FIREHOSE_API,
      messageKey: 'message',
      // Firehose's API has no internal-error code of its own; its SDK treats this one as retryable.
      internalErrorCode: 'ServiceUnavailableException',
      operations: this.operations(),
      notServed: (operation) => FIREHOSE_NOT_SERVED[operation] ?? 'not implemented locally',
    });
    this.name = wire.name;
    this.api = wire.api;
    this.served = wire.served;
    this.errorStyle = wire.errorStyle;
    this.errorStyleFor = wire.errorStyleFor;
    this.internalErrorCode = wire.internalErrorCode;
    this.claims = wire.claims;
    this.operationOf = wire.operationOf;
    this.handle = wire.handle;
  }

  /** Delivers what every stream buffered and closes the logs (on stop, before the engine closes). */
  async close(): Promise<void> {
    await this.streams.closeAll();
  }

  stats(): Record<string, LocalStreamStats> {
    return this.streams.stats();
  }

  /** Flushes every stream's buffer now and waits for the commits (admin hook and shutdown). */
  flushAll(): Promise<void> {
    return this.streams.flushAll();
  }

  /** Starts delivering what the logs held (once the endpoint serves requests). */
  replay(): void {
    this.streams.replay();
  }

  /** The handlers by operation (this order is the served list's). */
  private operations(): FirehoseOperations {
    return {
      CreateDeliveryStream: (input) => this.createDeliveryStream(input),
      DescribeDeliveryStream: (input) => this.describeDeliveryStream(input),
      ListDeliveryStreams: (input) => this.listDeliveryStreams(input),
      DeleteDeliveryStream: (input) => this.deleteDeliveryStream(input),
      UpdateDestination: (input) => this.updateDestination(input),
      ListTagsForDeliveryStream: (input) => this.listTagsForDeliveryStream(input),
      TagDeliveryStream: (input) => this.tagDeliveryStream(input),
      UntagDeliveryStream: (input) => this.untagDeliveryStream(input),
      PutRecord: (input) => this.putRecord(input),
      PutRecordBatch: (input) => this.putRecordBatch(input),
    };
  }

  private async createDeliveryStream(input: Input<'CreateDeliveryStream'>): Reply<'CreateDeliveryStream'> {
    const { store, region } = this.options;
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
    const refused = this.options.roles?.validate(stream);
    if (refused) throw invalidArgument(refused);
    this.streams.setAsideLog(name);
    store.write(streamKey(name), stream);
    this.streams.open(stream).warmUp();
    return { DeliveryStreamARN: arn };
  }

  private async describeDeliveryStream(
    input: Input<'DescribeDeliveryStream'>,
  ): Reply<'DescribeDeliveryStream'> {
    return { DeliveryStreamDescription: describeStream(this.load(input.DeliveryStreamName as string)) };
  }

  private async listDeliveryStreams(input: Input<'ListDeliveryStreams'>): Reply<'ListDeliveryStreams'> {
    const limit = input.Limit ?? 10;
    const after = input.ExclusiveStartDeliveryStreamName;
    const names = this.options.store
      .list(['firehose', 'streams'])
      .sort()
      .filter((n) => !after || n > after);
    return { DeliveryStreamNames: names.slice(0, limit), HasMoreDeliveryStreams: names.length > limit };
  }

  private async deleteDeliveryStream(input: Input<'DeleteDeliveryStream'>): Reply<'DeleteDeliveryStream'> {
    const name = input.DeliveryStreamName as string;
    this.load(name);
    // Firehose drops undelivered data on delete; flushing first keeps records local users already sent.
    await this.streams.close(name);
    this.options.store.delete(streamKey(name));
    this.streams.removeLog(name);
    return {};
  }

  private async updateDestination(input: Input<'UpdateDestination'>): Reply<'UpdateDestination'> {
    const name = input.DeliveryStreamName as string;
    const stream = this.load(name);
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
    const refused = this.options.roles?.validate(updated);
    if (refused) throw invalidArgument(refused);
    // What was buffered is delivered where it was headed; later records follow the new settings.
    await this.streams.close(name);
    this.options.store.write(streamKey(name), updated);
    this.streams.open(updated).warmUp();
    return {};
  }

  private async listTagsForDeliveryStream(
    input: Input<'ListTagsForDeliveryStream'>,
  ): Reply<'ListTagsForDeliveryStream'> {
    const stream = this.load(input.DeliveryStreamName as string);
    const limit = input.Limit ?? 50;
    const all = tagList(stream.tags)
      .sort((a, b) => (a.Key < b.Key ? -1 : a.Key > b.Key ? 1 : 0))
      .filter((t) => input.ExclusiveStartTagKey === undefined || t.Key > input.ExclusiveStartTagKey);
    return { Tags: all.slice(0, limit), HasMoreTags: all.length > limit };
  }

  private async tagDeliveryStream(input: Input<'TagDeliveryStream'>): Reply<'TagDeliveryStream'> {
    const stream = this.load(input.DeliveryStreamName as string);
    this.options.store.write(streamKey(stream.name), {
      ...stream,
      tags: withTags(stream.tags, tagsFromList(input.Tags), tagRefusal),
    });
    return {};
  }

  private async untagDeliveryStream(input: Input<'UntagDeliveryStream'>): Reply<'UntagDeliveryStream'> {
    const stream = this.load(input.DeliveryStreamName as string);
    this.options.store.write(streamKey(stream.name), {
      ...stream,
      tags: withoutTags(stream.tags, input.TagKeys ?? []),
    });
    return {};
  }

  private async putRecord(input: Input<'PutRecord'>): Reply<'PutRecord'> {
    const delivery = this.deliveryNamed(input.DeliveryStreamName as string);
    const decoded = decodeRecords([input.Record as Wire<FirehoseRecord>]);
    this.throttle();
    await this.accept(delivery, decoded);
    this.options.metrics?.(delivery.streamName, putMetrics('PutRecord', 1, decoded[0]?.length ?? 0));
    return { RecordId: this.recordId(), Encrypted: false };
  }

  private async putRecordBatch(input: Input<'PutRecordBatch'>): Reply<'PutRecordBatch'> {
    const delivery = this.deliveryNamed(input.DeliveryStreamName as string);
    const decoded = decodeRecords(input.Records ?? []);
    this.throttle();
    const accepted: Buffer[] = [];
    const responses = decoded.map((record) => {
      if (this.options.faults.failRecord())
        return { ErrorCode: 'ServiceUnavailableException', ErrorMessage: 'Slow down.' };
      accepted.push(record);
      return { RecordId: this.recordId() };
    });
    if (accepted.length > 0) await this.accept(delivery, accepted);
    let bytes = 0;
    for (const record of accepted) bytes += record.length;
    this.options.metrics?.(delivery.streamName, putMetrics('PutRecordBatch', accepted.length, bytes));
    return {
      FailedPutCount: decoded.length - accepted.length,
      Encrypted: false,
      RequestResponses: responses,
    };
  }

  private load(name: string): StreamDefinition {
    const stream = this.options.store.read<StreamDefinition>(streamKey(name));
    if (!stream) throw notFound(name);
    return stream;
  }

  /** Puts take the stream's live delivery (kept until the stream is deleted): no store read per call. */
  private deliveryNamed(name: string): StreamDelivery {
    return this.streams.get(name) ?? this.streams.open(this.load(name));
  }

  private throttle(): void {
    if (this.options.faults.throttleCall())
      throw wireError('firehose', 'ServiceUnavailableException', 'Slow down.');
  }

  /**
   * A record is accepted once it is written and synced in the stream's log. If that fails (disk full, no
   * permission), the call fails as AWS fails a put on its side: ServiceUnavailableException, a server fault with
   * HTTP 503 in Firehose's API model, which the SDKs retry ("The service is unavailable. Back off and retry the
   * operation."). PutRecordBatch's reference warns that such a retry can duplicate records: none of these was
   * acknowledged, and none is kept in the buffer.
   */
  private async accept(delivery: StreamDelivery, records: Buffer[]): Promise<void> {
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
  }

  private recordId(): string {
    return `${this.idPrefix}${(this.idCounter++).toString(36).padStart(24, '0')}`;
  }
}
