// Fault injection for reliability tests. Off by default; each share is a probability in [0, 1] drawn from a
// seeded generator so a test run is repeatable.
import { LocalEndpointConfigError } from './errors';

export interface FaultOptions {
  /** Share of PutRecordBatch / PutRecord calls answered ServiceUnavailableException ("Slow down."). */
  throttleShare?: number;
  /** Share of records inside an accepted PutRecordBatch answered with ErrorCode ServiceUnavailableException. */
  recordFailureShare?: number;
  /** Extra delay before each Firehose flush commits, in milliseconds. */
  slowFlushMs?: number;
  /** Share of Firehose commits that first lose a commit race (the flush retries, as Firehose does). */
  commitConflictShare?: number;
  /** Seed of the fault dice (default 1). */
  seed?: number;
}

export class FaultInjector {
  private state: number;

  constructor(readonly options: FaultOptions = {}) {
    for (const key of ['throttleShare', 'recordFailureShare', 'commitConflictShare'] as const) {
      const share = options[key];
      if (share !== undefined && !(share >= 0 && share <= 1)) {
        throw new LocalEndpointConfigError(`Fault ${key} must be a share between 0 and 1, got ${share}.`, {
          value: share,
        });
      }
    }
    if (options.slowFlushMs !== undefined && !(options.slowFlushMs >= 0)) {
      throw new LocalEndpointConfigError(
        `Fault slowFlushMs must be >= 0 milliseconds, got ${options.slowFlushMs}.`,
      );
    }
    this.state = (options.seed ?? 1) >>> 0 || 1;
  }

  get enabled(): boolean {
    const o = this.options;
    return Boolean(o.throttleShare || o.recordFailureShare || o.slowFlushMs || o.commitConflictShare);
  }

  /** One line per active fault, for the start banner. */
  describe(): string[] {
    const o = this.options;
    const lines: string[] = [];
    if (o.throttleShare)
      lines.push(`PutRecord/PutRecordBatch throttled (ServiceUnavailableException): ${pct(o.throttleShare)}`);
    if (o.recordFailureShare)
      lines.push(`records failed inside PutRecordBatch: ${pct(o.recordFailureShare)}`);
    if (o.slowFlushMs) lines.push(`slow flushes: +${o.slowFlushMs} ms each`);
    if (o.commitConflictShare) lines.push(`commit conflicts on flush: ${pct(o.commitConflictShare)}`);
    return lines;
  }

  throttleCall(): boolean {
    return this.roll(this.options.throttleShare);
  }

  failRecord(): boolean {
    return this.roll(this.options.recordFailureShare);
  }

  conflictCommit(): boolean {
    return this.roll(this.options.commitConflictShare);
  }

  async slowFlush(): Promise<void> {
    if (this.options.slowFlushMs)
      await new Promise((resolve) => setTimeout(resolve, this.options.slowFlushMs));
  }

  private roll(share: number | undefined): boolean {
    if (!share) return false;
    // xorshift32: tiny, seeded, good enough for dice.
    let x = this.state;
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    this.state = x >>> 0;
    return this.state / 0x1_0000_0000 < share;
  }
}

function pct(share: number): string {
  return `${Math.round(share * 1000) / 10}%`;
}
