// Firehose delivers when its buffer fills or its interval passes; the lab waits for that instead of forcing it,
// so commit counts are what Firehose's buffering makes them. The wait says what it waits for and how long it has
// left (a countdown in a terminal, a line every few seconds otherwise), and stops at once when aborted (Ctrl-C).
import { localFirehoseStats, type LocalStreamStats } from '@loglake/local-aws';
import { runQuery } from '@loglake/athena-sql';
import type { LabTarget } from '../target/lab-target';
import { DeliveryDeniedError, LabError } from '../errors';
import { diagnoseDataFolder } from '../target/data-folder';

/** How often a wait on an in-process endpoint looks at its data folder (removed, read-only, full: never delivers). */
const FOLDER_CHECK_MS = 1000;

export interface DeliveryWaitOptions {
  /** aws: the flow table's row count must reach this. */
  expectedRows?: number;
  timeoutMs?: number;
  pollMs?: number;
  /** Called while waiting with what is waited for (and, locally, the seconds until the buffer's interval ends). */
  onWait?: (message: string, status: WaitStatus) => void;
  /** Stops the wait at once (it rejects with WaitInterruptedError). */
  signal?: AbortSignal;
}

export interface WaitStatus {
  /** Records accepted and not yet delivered or failed (local). */
  buffered?: number;
  /** Seconds until the open buffer's interval ends (local, when the endpoint says). */
  secondsLeft?: number;
  /** Seconds waited so far. */
  waitedSeconds: number;
}

/** What the wait saw last, for the closing line. */
export interface DeliveryOutcome {
  /** Local: the stream's counters once everything settled. */
  stats?: LocalStreamStats;
  waitedMs: number;
}

export class WaitInterruptedError extends LabError {
  override readonly name = 'WaitInterruptedError';
}

/** The endpoint stopped answering while the lab waited on it (killed, or stopped with Ctrl-C elsewhere). */
export class EndpointGoneError extends LabError {
  override readonly name = 'EndpointGoneError';
}

/** A refused connection, as fetch reports it: a TypeError whose cause carries the errno code. */
function connectionRefused(error: unknown): boolean {
  const cause = (error as { cause?: { code?: unknown } } | undefined)?.cause;
  return (
    error instanceof TypeError &&
    typeof cause?.code === 'string' &&
    /^(ECONNREFUSED|ECONNRESET|EPIPE)$/.test(cause.code)
  );
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

export async function waitForDelivery(
  target: LabTarget,
  options: DeliveryWaitOptions = {},
): Promise<DeliveryOutcome> {
  const { resources } = target;
  const started = Date.now();
  const timeoutMs = options.timeoutMs ?? (resources.buffering.intervalSeconds + 120) * 1000;
  const pollMs = options.pollMs ?? (target.kind === 'local' ? 200 : 10_000);
  const deadline = started + timeoutMs;
  const interrupted = () =>
    new WaitInterruptedError('Interrupted while waiting for Firehose to deliver.', {
      value: resources.streamName,
    });
  let folderCheckedAt = started;
  for (;;) {
    if (options.signal?.aborted) throw interrupted();
    const waitedSeconds = Math.round((Date.now() - started) / 1000);
    if (target.dataDir && Date.now() - folderCheckedAt >= FOLDER_CHECK_MS) {
      folderCheckedAt = Date.now();
      const problem = diagnoseDataFolder(target.dataDir, '--data-dir', target.dataDirIdentity);
      if (problem) throw problem;
    }
    if (target.localUrl) {
      let all: Record<string, LocalStreamStats>;
      try {
        all = await localFirehoseStats(target.localUrl);
      } catch (error) {
        if (connectionRefused(error))
          throw new EndpointGoneError(
            `The local endpoint at ${target.localUrl} stopped answering while waiting for Firehose to deliver ` +
              '(was it stopped?). Records it acknowledged are in its log: the next start replays them.',
            { value: target.localUrl, cause: error },
          );
        throw error;
      }
      const stats = all[resources.streamName];
      // The stream's role may not deliver (authorization on): its records went to the error output; say why.
      if (stats?.recordsDenied)
        throw new DeliveryDeniedError(
          `Firehose could not deliver ${stats.recordsDenied} records to ${resources.namespace}.${resources.table} with the stream's role: ${stats.lastDenial}`,
          { value: stats.lastDenial },
        );
      const settled = stats ? stats.recordsDelivered + stats.recordsFailed : 0;
      if (!stats || settled >= stats.recordsReceived)
        return { ...(stats ? { stats } : {}), waitedMs: Date.now() - started };
      const buffered = stats.recordsReceived - settled;
      const due = stats.bufferDueAt ? Date.parse(stats.bufferDueAt) : undefined;
      const secondsLeft = due !== undefined ? Math.max(0, Math.ceil((due - Date.now()) / 1000)) : undefined;
      options.onWait?.(
        `waiting for Firehose to deliver ${buffered} buffered records` +
          (secondsLeft !== undefined
            ? secondsLeft > 0
              ? `: the buffer's interval ends in ${secondsLeft} s`
              : ': delivering'
            : ''),
        { buffered, ...(secondsLeft !== undefined ? { secondsLeft } : {}), waitedSeconds },
      );
    } else {
      if (options.expectedRows === undefined) return { waitedMs: Date.now() - started };
      const rows = await tableRowCount(target);
      if (rows >= options.expectedRows) return { waitedMs: Date.now() - started };
      options.onWait?.(`waiting for Firehose: ${rows} of ${options.expectedRows} rows in the table`, {
        waitedSeconds,
      });
    }
    if (Date.now() > deadline) {
      throw new LabError(
        `Firehose did not deliver within ${Math.round(timeoutMs / 1000)} s. Check the stream ${resources.streamName}'s ` +
          'error output and CloudWatch logs (aws) or `GET /_local/firehose/stats` (local).',
        { value: resources.streamName },
      );
    }
    await sleep(pollMs, options.signal);
  }
}

/** The flow table's row count, through Athena (what `waitForDelivery` polls on AWS). */
export async function tableRowCount(target: LabTarget): Promise<number> {
  const { namespace, table } = target.resources;
  const result = await runQuery(target.athenaTarget(), `SELECT count(*) FROM ${namespace}.${table}`);
  return Number(result.rows[0]?.[0] ?? 0);
}
