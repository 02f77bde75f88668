// A stream's delivery counters: what GET /_local/firehose/stats answers, and what the record log's checkpoint keeps
// of them (recovery.ts settles them with each generation). Shared by delivery, recovery and the service.
import type { LogStats } from './record-log';

export interface DeliveryStats {
  recordsReceived: number;
  recordsDelivered: number;
  recordsFailed: number;
  bytesReceived: number;
  commits: number;
  commitConflicts: number;
  flushes: number;
  /** Records replayed from the log after a restart (accepted before it, not yet delivered). */
  recordsReplayed?: number;
  /** Damaged log tails found on restart: where, how many bytes, and where they were kept. */
  logDamage?: string[];
  /** Wall time of the serialized part of flushes (waiting for its preparation, commit, error output). */
  flushMsTotal?: number;
  /** Wall time of preparations (mapping, staging), mostly overlapped with earlier commits. */
  prepareMsTotal?: number;
  /** Part of flushMsTotal a flush waited for its own preparation (not overlapped with a commit). */
  prepareWaitMsTotal?: number;
  /** Part of flushMsTotal spent in the engine's commit (writing data files and committing, with retries). */
  commitMsTotal?: number;
  /** What durability cost since the endpoint started: the record log's writes and syncs. */
  durability?: LogStats;
  lastFlushAt?: string;
  lastError?: string;
  /** With authorization: records the stream's role could not deliver (they went to the error output), and why. */
  recordsDenied?: number;
  lastDenial?: string;
  errorOutputFiles: string[];
}

/** The counters of a stream that has delivered nothing yet. */
export const EMPTY_STATS: DeliveryStats = {
  recordsReceived: 0,
  recordsDelivered: 0,
  recordsFailed: 0,
  bytesReceived: 0,
  commits: 0,
  commitConflicts: 0,
  flushes: 0,
  errorOutputFiles: [],
};
