// Sends flow records (or bad lines) through the loader with a progress bar and Ctrl-C handling, and renders the
// final accounting.
import cliProgress from 'cli-progress';
import { flowKey, toJsonLine, type BadRecord, type FlowRecord } from '@loglake/flowgen';
import { formatBytes, formatCount } from '../report/format';
import type { LabTarget } from '../target/lab-target';
import { PutRecordBatchLoader, jsonRecords, type LoadReport } from './put-record-batch-loader';
import type { OutgoingRecord } from './batches';

export interface SendOptions {
  label: string;
  concurrency?: number;
  progress?: boolean;
  /** Provided by the caller that owns SIGINT; when absent, sendRecords installs its own Ctrl-C handler. */
  signal?: AbortSignal;
}

export function flowRecords(records: readonly FlowRecord[]): OutgoingRecord[] {
  return jsonRecords(records, flowKey, toJsonLine);
}

export function badLines(records: readonly BadRecord[]): OutgoingRecord[] {
  return jsonRecords(
    records,
    (r) => `bad:${r.kind}:${r.line}`,
    (r) => r.line,
  );
}

export interface SigintAbort {
  signal: AbortSignal;
  /** Removes the handler. */
  dispose(): void;
}

/** Ctrl-C aborts the signal (requests in flight finish and are counted); a second Ctrl-C exits now. */
export function abortOnSigint(): SigintAbort {
  const controller = new AbortController();
  const onSigint = () => {
    if (controller.signal.aborted) process.exit(130);
    process.stderr.write(
      '\nInterrupted: finishing requests in flight, then printing the accounting (Ctrl-C again to quit now)\n',
    );
    controller.abort();
  };
  process.on('SIGINT', onSigint);
  return { signal: controller.signal, dispose: () => process.off('SIGINT', onSigint) };
}

export async function sendRecords(
  target: LabTarget,
  records: OutgoingRecord[],
  options: SendOptions,
): Promise<LoadReport> {
  const sigint = options.signal ? undefined : abortOnSigint();
  const signal = options.signal ?? sigint?.signal;
  const bar =
    options.progress !== false && process.stderr.isTTY
      ? new cliProgress.SingleBar(
          {
            format: `${options.label} [{bar}] {percentage}% | {value}/{total} accepted | retried {retried} | failed {failed}`,
            hideCursor: true,
          },
          cliProgress.Presets.shades_classic,
        )
      : undefined;
  bar?.start(records.length, 0, { retried: 0, failed: 0 });
  try {
    const loader = new PutRecordBatchLoader({
      client: target.firehose,
      streamName: target.resources.streamName,
      concurrency: options.concurrency ?? 4,
      signal,
      onProgress: (acc) => bar?.update(acc.accepted, { retried: acc.retried, failed: acc.failedForGood }),
    });
    return await loader.load(records);
  } finally {
    bar?.stop();
    sigint?.dispose();
  }
}

export function formatAccounting(label: string, r: LoadReport): string {
  const errors = Object.entries(r.errors)
    .map(([code, n]) => `${code} ×${n}`)
    .join(', ');
  return [
    `${label}: sent ${formatCount(r.sent)} · accepted ${formatCount(r.accepted)} · retried ${formatCount(r.retried)} · ` +
      `failed for good ${formatCount(r.failedForGood)}` +
      (r.notSent > 0 ? ` · not sent ${formatCount(r.notSent)}` : '') +
      ` · ${formatBytes(r.jsonBytes)} of JSON · ${formatCount(r.requests)} requests in ${(r.durationMs / 1000).toFixed(1)} s`,
    ...(errors ? [`  errors seen: ${errors}`] : []),
    ...(r.duplicateIds > 0
      ? [`  ${formatCount(r.duplicateIds)} records had an id already accepted (duplicates sent)`]
      : []),
    ...(r.fatalError ? [`  stopped: ${r.fatalError}`] : []),
    ...(r.interrupted
      ? ['  interrupted: every accepted record is counted above; the rest were not sent']
      : []),
  ].join('\n');
}

export function loadFailed(r: LoadReport): boolean {
  return r.failedForGood > 0 || r.notSent > 0 || r.interrupted;
}
