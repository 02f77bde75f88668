// On AWS, S3 Tables compacts a table on its own schedule: "Wait for compaction" polls the table's maintenance job
// status until the compaction job reports a run that happened after a given time (the last burst), or the wait
// runs out.
//
// GetTableMaintenanceJobStatus (Amazon S3 API Reference): request `{ tableBucketARN, namespace, name }`; response
// `{ tableARN, status: { icebergCompaction?, icebergSnapshotManagement?, icebergUnreferencedFileRemoval? } }`, each a
// TableMaintenanceJobStatusValue `{ status: Not_Yet_Run | Successful | Failed | Disabled, lastRunTimestamp?,
// failureMessage? }`: "the date and time that the maintenance job was last run", and a Failed job carries its
// failure message. The status is the last run's outcome, so a Successful from before the DELETE says nothing about
// the DELETE: only a lastRunTimestamp after it counts.
import { GetTableMaintenanceJobStatusCommand, type S3TablesClient } from '@aws-sdk/client-s3tables';
import { InvalidOptionError } from '../errors';

export { DEFAULT_COMPACTION_WAIT_MS } from './defaults';
export const DEFAULT_COMPACTION_POLL_MS = 30_000;

export interface CompactionWaitOptions {
  readonly client: S3TablesClient;
  readonly table: { readonly tableBucketARN: string; readonly namespace: string; readonly name: string };
  /** A run counts only when its lastRunTimestamp is later than this (the DELETE, or the wait's start). */
  readonly since: Date;
  /** How long to keep polling; 0 reads the status once. */
  readonly timeoutMs: number;
  readonly pollMs?: number;
  /** Milliseconds since the epoch (Date.now); injectable so tests do not wait. */
  readonly now?: () => number;
  readonly sleep?: (ms: number) => Promise<void>;
  /** A progress line after each poll that found no new run. */
  readonly onWait?: (line: string) => void;
}

export interface CompactionWait {
  /** ran: a run after `since` reported; disabled: compaction is off for the table; timed-out: no run in time. */
  readonly outcome: 'ran' | 'disabled' | 'timed-out';
  /** The compaction job's status as last read ('unknown' when the response had none). */
  readonly status: string;
  readonly lastRunAt?: Date;
  readonly failureMessage?: string;
  readonly waitedMs: number;
  readonly polls: number;
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const seconds = (ms: number) => `${Math.round(ms / 1000)} s`;

export async function waitForCompaction(o: CompactionWaitOptions): Promise<CompactionWait> {
  if (!Number.isFinite(o.timeoutMs) || o.timeoutMs < 0)
    throw new InvalidOptionError(
      `compaction wait ${o.timeoutMs} ms must be a finite number ≥ 0, e.g. --compaction-wait 10 (minutes).`,
      { value: o.timeoutMs },
    );
  const pollMs = o.pollMs ?? DEFAULT_COMPACTION_POLL_MS;
  if (!Number.isFinite(pollMs) || pollMs <= 0)
    throw new InvalidOptionError(`compaction poll interval ${pollMs} ms must be > 0, e.g. 30000.`, {
      value: pollMs,
    });
  const now = o.now ?? Date.now;
  const sleep = o.sleep ?? pause;
  const started = now();
  const deadline = started + o.timeoutMs;
  for (let polls = 1; ; polls++) {
    const response = await o.client.send(new GetTableMaintenanceJobStatusCommand(o.table));
    const job = response.status?.icebergCompaction;
    const status = job?.status ?? 'unknown';
    const lastRunAt = job?.lastRunTimestamp;
    const base = {
      status,
      ...(lastRunAt ? { lastRunAt } : {}),
      ...(job?.failureMessage ? { failureMessage: job.failureMessage } : {}),
      waitedMs: now() - started,
      polls,
    };
    const fresh = lastRunAt !== undefined && lastRunAt.getTime() > o.since.getTime();
    if (fresh && (status === 'Successful' || status === 'Failed')) return { outcome: 'ran', ...base };
    // A disabled job will not run however long the lab waits.
    if (status === 'Disabled') return { outcome: 'disabled', ...base };
    const left = deadline - now();
    if (left <= 0) return { outcome: 'timed-out', ...base };
    const last = lastRunAt
      ? `last run ${lastRunAt.toISOString()} (${status}) is not after ${o.since.toISOString()}`
      : `job status ${status}`;
    o.onWait?.(
      `waiting for S3 Tables compaction: ${last}; ${seconds(base.waitedMs)} of ${seconds(o.timeoutMs)}`,
    );
    await sleep(Math.min(pollMs, left));
  }
}
