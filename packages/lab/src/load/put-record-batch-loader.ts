// PutRecordBatchLoader: sends records to a Firehose stream within its limits, a bounded number of requests at
// a time, and retries only the records Firehose reports as failed (exponential backoff, full jitter). The
// accounting is exact: every record ends accepted, failed for good, or (if interrupted) not sent.
import { PutRecordBatchCommand, type FirehoseClient } from '@aws-sdk/client-firehose';
import { FIREHOSE_LIMITS, packBatches, type BatchLimits, type OutgoingRecord } from './batches';

export interface LoadAccounting {
  /** Distinct records handed to the loader. */
  records: number;
  /** Records sent at least once. */
  sent: number;
  /** Records Firehose acknowledged with a RecordId. */
  accepted: number;
  /** Re-sends of records that failed (one record retried twice counts 2). */
  retried: number;
  /** Records that exhausted their attempts, hit a non-retryable error, or exceeded the per-record limit. */
  failedForGood: number;
  /** Records never sent because the load was interrupted or stopped by a fatal error. */
  notSent: number;
  /** JSON bytes of the accepted records. */
  jsonBytes: number;
  requests: number;
  /** Records with an id already accepted earlier in this load (the caller sent the same flow twice). */
  duplicateIds: number;
  /** Error codes seen, with counts (per record for partial failures, per request for whole-request ones). */
  errors: Record<string, number>;
}

export interface LoadReport extends LoadAccounting {
  interrupted: boolean;
  durationMs: number;
  /** First non-retryable error, which stopped the load. */
  fatalError?: string;
}

export interface LoaderOptions {
  client: FirehoseClient;
  streamName: string;
  concurrency?: number;
  /** Attempts per record, including the first send. */
  maxAttempts?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  limits?: BatchLimits;
  /** Stops starting new requests; in-flight ones finish so their outcome is counted. */
  signal?: AbortSignal;
  onProgress?: (accounting: Readonly<LoadAccounting>) => void;
  /** Injected for tests: a [0,1) source and a sleeper. */
  random?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

// Whole-request errors worth retrying; anything else (missing stream, access denied, bad argument) will fail
// the same way every time, so the load stops and says so.
const RETRYABLE_REQUEST_ERRORS = new Set([
  'ServiceUnavailableException',
  'ThrottlingException',
  'LimitExceededException',
  'InternalFailure',
  'InternalServerError',
  'RequestTimeout',
  'TimeoutError',
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
]);

export class PutRecordBatchLoader {
  private readonly options: Required<Omit<LoaderOptions, 'signal' | 'onProgress'>> &
    Pick<LoaderOptions, 'signal' | 'onProgress'>;

  constructor(options: LoaderOptions) {
    this.options = {
      concurrency: 4,
      maxAttempts: 8,
      baseDelayMs: 100,
      maxDelayMs: 5000,
      limits: FIREHOSE_LIMITS,
      random: Math.random,
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
      ...options,
    };
    if (this.options.concurrency < 1)
      throw new RangeError(`concurrency must be at least 1, got ${this.options.concurrency}`);
    if (this.options.maxAttempts < 1)
      throw new RangeError(`maxAttempts must be at least 1, got ${this.options.maxAttempts}`);
  }

  async load(records: Iterable<OutgoingRecord>): Promise<LoadReport> {
    const started = performance.now();
    const { batches, oversized } = packBatches(records, this.options.limits);
    const acc: LoadAccounting = {
      records: oversized.length + batches.reduce((n, b) => n + b.length, 0),
      sent: 0,
      accepted: 0,
      retried: 0,
      failedForGood: oversized.length,
      notSent: 0,
      jsonBytes: 0,
      requests: 0,
      duplicateIds: 0,
      errors: oversized.length > 0 ? { RecordTooLarge: oversized.length } : {},
    };
    const acceptedIds = new Set<string>();
    let fatalError: string | undefined;
    let next = 0;
    const stopped = () => this.options.signal?.aborted === true || fatalError !== undefined;

    const worker = async () => {
      while (!stopped() && next < batches.length) {
        const batch = batches[next++] as OutgoingRecord[];
        const outcome = await this.sendWithRetries(batch, acc, acceptedIds, stopped);
        if (outcome.fatal && fatalError === undefined) fatalError = outcome.fatal;
      }
    };
    this.options.onProgress?.(acc);
    await Promise.all(Array.from({ length: Math.min(this.options.concurrency, batches.length) }, worker));
    for (let i = next; i < batches.length; i++) acc.notSent += (batches[i] as OutgoingRecord[]).length;
    this.options.onProgress?.(acc);
    return {
      ...acc,
      interrupted: this.options.signal?.aborted === true,
      durationMs: Math.round(performance.now() - started),
      ...(fatalError !== undefined ? { fatalError } : {}),
    };
  }

  /** Sends one batch, then only its failed records, until all are accepted or out of attempts. */
  private async sendWithRetries(
    batch: OutgoingRecord[],
    acc: LoadAccounting,
    acceptedIds: Set<string>,
    stopped: () => boolean,
  ): Promise<{ fatal?: string }> {
    let pending = batch;
    acc.sent += batch.length;
    for (let attempt = 1; pending.length > 0; attempt++) {
      if (attempt > 1) {
        // Interrupted while waiting to retry: these records were never accepted, so they are not lost silently —
        // they are reported as not sent.
        if (this.options.signal?.aborted) {
          acc.notSent += pending.length;
          this.options.onProgress?.(acc);
          return {};
        }
        acc.retried += pending.length;
        await this.options.sleep(this.backoffMs(attempt - 1));
      }
      const failed: OutgoingRecord[] = [];
      try {
        acc.requests++;
        const response = await this.options.client.send(
          new PutRecordBatchCommand({
            DeliveryStreamName: this.options.streamName,
            Records: pending.map((r) => ({ Data: r.data })),
          }),
        );
        const results = response.RequestResponses ?? [];
        pending.forEach((record, i) => {
          const result = results[i];
          if (result?.RecordId && !result.ErrorCode) {
            acc.accepted++;
            acc.jsonBytes += record.data.byteLength;
            if (acceptedIds.has(record.id)) acc.duplicateIds++;
            else acceptedIds.add(record.id);
          } else {
            const code = result?.ErrorCode ?? 'MissingResponseEntry';
            acc.errors[code] = (acc.errors[code] ?? 0) + 1;
            failed.push(record);
          }
        });
      } catch (error) {
        const code = errorCode(error);
        acc.errors[code] = (acc.errors[code] ?? 0) + 1;
        if (!RETRYABLE_REQUEST_ERRORS.has(code)) {
          acc.failedForGood += pending.length;
          this.options.onProgress?.(acc);
          return { fatal: `${code}: ${error instanceof Error ? error.message : String(error)}` };
        }
        failed.push(...pending);
      }
      this.options.onProgress?.(acc);
      pending = failed;
      if (pending.length > 0 && attempt >= this.options.maxAttempts) {
        acc.failedForGood += pending.length;
        this.options.onProgress?.(acc);
        return {};
      }
      if (stopped() && pending.length > 0 && !this.options.signal?.aborted) {
        // Another worker hit a fatal error: do not keep retrying into a dead stream.
        acc.failedForGood += pending.length;
        return {};
      }
    }
    return {};
  }

  /** Full jitter: uniform in [0, min(max, base·2^n)). */
  private backoffMs(retry: number): number {
    const ceiling = Math.min(this.options.maxDelayMs, this.options.baseDelayMs * 2 ** (retry - 1));
    return Math.floor(this.options.random() * ceiling);
  }
}

function errorCode(error: unknown): string {
  if (typeof error === 'object' && error !== null) {
    const e = error as { name?: unknown; code?: unknown };
    if (typeof e.code === 'string') return e.code;
    if (typeof e.name === 'string' && e.name !== 'Error') return e.name;
  }
  return 'UnknownError';
}

/** Encodes JSON lines as Firehose records. */
export function jsonRecords<T>(
  items: Iterable<T>,
  id: (item: T) => string,
  line: (item: T) => string,
): OutgoingRecord[] {
  const encoder = new TextEncoder();
  const out: OutgoingRecord[] = [];
  for (const item of items) out.push({ id: id(item), data: encoder.encode(line(item)) });
  return out;
}
