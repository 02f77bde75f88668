// Firehose delivers when its buffer fills or its interval passes; the lab waits for that instead of forcing it,
// so commit counts are what Firehose's buffering makes them.
import { localFirehoseStats } from '@loglake/local-aws';
import { runQuery } from '../query/athena-runner';
import type { LabTarget } from '../target/lab-target';
import { DeliveryDeniedError, LabError } from '../errors';

export interface DeliveryWaitOptions {
  /** aws: the flow table's row count must reach this. */
  expectedRows?: number;
  timeoutMs?: number;
  pollMs?: number;
  onWait?: (message: string) => void;
}

export async function waitForDelivery(target: LabTarget, options: DeliveryWaitOptions = {}): Promise<void> {
  const { resources } = target;
  const timeoutMs = options.timeoutMs ?? (resources.buffering.intervalSeconds + 120) * 1000;
  const pollMs = options.pollMs ?? (target.kind === 'local' ? 200 : 10_000);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (target.localUrl) {
      const stats = (await localFirehoseStats(target.localUrl))[resources.streamName];
      // The stream's role may not deliver (authorization on): its records went to the error output; say why.
      if (stats?.recordsDenied)
        throw new DeliveryDeniedError(
          `Firehose could not deliver ${stats.recordsDenied} records to ${resources.namespace}.${resources.table} with the stream's role: ${stats.lastDenial}`,
          stats.lastDenial,
        );
      const settled = stats ? stats.recordsDelivered + stats.recordsFailed : 0;
      if (!stats || settled >= stats.recordsReceived) return;
      if (process.stderr.isTTY)
        options.onWait?.(
          `waiting for Firehose to deliver ${stats.recordsReceived - settled} buffered records`,
        );
    } else {
      if (options.expectedRows === undefined) return;
      const rows = await tableRowCount(target);
      if (rows >= options.expectedRows) return;
      options.onWait?.(`waiting for Firehose: ${rows} of ${options.expectedRows} rows in the table`);
    }
    if (Date.now() > deadline) {
      throw new LabError(
        `Firehose did not deliver within ${Math.round(timeoutMs / 1000)} s. Check the stream ${resources.streamName}'s ` +
          'error output and CloudWatch logs (aws) or `GET /_local/firehose/stats` (local).',
        resources.streamName,
      );
    }
    await new Promise((r) => setTimeout(r, pollMs));
  }
}

/** The flow table's row count, through Athena (what `waitForDelivery` polls on AWS). */
export async function tableRowCount(target: LabTarget): Promise<number> {
  const { namespace, table } = target.resources;
  const result = await runQuery(target.athenaTarget(), `SELECT count(*) FROM ${namespace}.${table}`);
  return Number(result.rows[0]?.[0] ?? 0);
}
