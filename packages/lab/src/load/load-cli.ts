// `pnpm load`: generate flows with flowgen and send them through Firehose with PutRecordBatchLoader.
import { Command } from 'commander';
import { FlowGenerator, makeBadRecords, type FlowRecord } from '@loglake/flowgen';
import { integerAtLeast, shareOf } from '../cli-support';
import { InvalidOptionError } from '../errors';
import { openTarget } from '../target/open-target';
import {
  abortOnSigint,
  badLines,
  flowRecords,
  formatAccounting,
  loadFailed,
  sendRecords,
} from './send-flows';
import { waitForDelivery } from './wait-for-delivery';
import type { OutgoingRecord } from './batches';

const intOption = (name: string, min: number) => (value: string) => integerAtLeast(`--${name}`, value, min);
const shareOption = (name: string) => (value: string) => shareOf(`--${name}`, value);

export async function loadCli(argv: string[]): Promise<number> {
  const program = new Command('load')
    .description('Send synthetic VPC flow logs through Firehose (PutRecordBatch) and print the accounting.')
    .option('-n, --count <n>', 'flows in the main load, spread over --hours', intOption('count', 0), 50_000)
    .option('--hours <h>', 'hours the main load spreads over, ending at --end', intOption('hours', 1), 24)
    .option('--end <iso>', 'end of the time window (default: now)')
    .option(
      '--seed <n>',
      'generator seed (same seed = same flows; re-sending them makes duplicates)',
      intOption('seed', 0),
      1,
    )
    .option('--smoke', 'send the 10-record smoke test first')
    .option('--bursts <n>', 'short bursts after the main load', intOption('bursts', 0), 0)
    .option('--burst-size <n>', 'flows per burst', intOption('burst-size', 1), 200)
    .option(
      '--bad <n>',
      'also send n bad records (malformed JSON, wrong types) for the error output',
      intOption('bad', 0),
      0,
    )
    .option('-c, --concurrency <n>', 'PutRecordBatch requests in flight', intOption('concurrency', 1), 4)
    .option('-t, --target <target>', 'local (default: in-process endpoint, no AWS) or aws', 'local')
    .option(
      '--buffer-interval <s>',
      'local: shorten the Firehose buffer interval (seconds; printed)',
      intOption('buffer-interval', 0),
    )
    .option(
      '--fault-throttle <share>',
      'local: share of PutRecordBatch calls throttled',
      shareOption('fault-throttle'),
    )
    .option(
      '--fault-record-failures <share>',
      'local: share of records failed inside a batch',
      shareOption('fault-record-failures'),
    )
    .option('--data-dir <dir>', 'local: state folder (default .lab/local)')
    .option(
      '--endpoint-url <url>',
      'local: send to a running `pnpm lab local` (e.g. http://127.0.0.1:4566) instead of starting one in-process',
    )
    .option('--outputs-file <file>', 'aws: cdktf deploy --outputs-file JSON')
    .option('--no-progress', 'no progress bar')
    .exitOverride();
  program.parse(argv, { from: 'user' });
  const o = program.opts<{
    count: number;
    hours: number;
    end?: string;
    seed: number;
    smoke?: boolean;
    bursts: number;
    burstSize: number;
    bad: number;
    concurrency: number;
    target: string;
    bufferInterval?: number;
    faultThrottle?: number;
    faultRecordFailures?: number;
    dataDir?: string;
    endpointUrl?: string;
    outputsFile?: string;
    progress: boolean;
  }>();
  const end = o.end ? new Date(o.end) : new Date();
  if (Number.isNaN(end.getTime()))
    throw new InvalidOptionError(`--end ${o.end} is not a date/time (e.g. 2026-11-29T12:00:00Z).`, o.end);
  if (
    o.target !== 'local' &&
    (o.bufferInterval !== undefined ||
      o.faultThrottle !== undefined ||
      o.faultRecordFailures !== undefined ||
      o.endpointUrl !== undefined)
  ) {
    throw new InvalidOptionError(
      '--buffer-interval, --fault-* and --endpoint-url apply to --target local only.',
      o.target,
    );
  }

  const gen = new FlowGenerator({ seed: o.seed });
  const steps: { label: string; records: OutgoingRecord[] }[] = [];
  if (o.smoke)
    steps.push({
      label: 'smoke test',
      records: flowRecords(gen.smoke(new Date(end.getTime() - o.hours * 3600_000))),
    });
  if (o.count > 0) {
    const from = new Date(end.getTime() - o.hours * 3600_000);
    steps.push({ label: `main load`, records: flowRecords(gen.batch({ count: o.count, from, to: end })) });
  }
  for (let i = 0; i < o.bursts; i++) {
    steps.push({
      label: `burst ${i + 1}`,
      records: flowRecords(gen.burst({ at: end, count: o.burstSize, seconds: 30 })),
    });
  }
  if (o.bad > 0) {
    const goodOnes: FlowRecord[] = new FlowGenerator({ seed: o.seed + 1 }).burst({ at: end, count: o.bad });
    steps.push({ label: 'bad records', records: badLines(makeBadRecords(o.seed, goodOnes)) });
  }

  const faults =
    o.faultThrottle !== undefined || o.faultRecordFailures !== undefined
      ? { throttleShare: o.faultThrottle ?? 0, recordFailureShare: o.faultRecordFailures ?? 0, seed: o.seed }
      : undefined;
  const target = await openTarget({
    target: o.target,
    dataDir: o.dataDir,
    ...(o.endpointUrl !== undefined ? { endpointUrl: o.endpointUrl } : {}),
    outputsFile: o.outputsFile,
    bufferIntervalSeconds: o.bufferInterval,
    ...(faults ? { faults } : {}),
  });
  let failed = false;
  const interrupt = abortOnSigint();
  try {
    for (const line of target.banner) console.error(line);
    for (const step of steps) {
      if (interrupt.signal.aborted) {
        console.log(`${step.label}: not sent (interrupted)`);
        failed = true;
        continue;
      }
      const report = await sendRecords(target, step.records, {
        label: step.label,
        concurrency: o.concurrency,
        progress: o.progress,
        signal: interrupt.signal,
      });
      console.log(formatAccounting(step.label, report));
      failed ||= loadFailed(report);
      // Each step lands before the next is sent, so the smoke test and each burst are commits of their own
      // (locally; on AWS Firehose commits on its own schedule and `pnpm lab` waits on the table instead).
      if (target.kind === 'aws') {
        console.error(
          `Firehose commits these within its buffer interval (${target.resources.buffering.intervalSeconds} s).`,
        );
      } else {
        await waitForDelivery(target, { onWait: (m) => process.stderr.write(`\r${m}   `) });
      }
      if (process.stderr.isTTY) process.stderr.write('\r\x1b[K');
    }
    return failed ? 1 : 0;
  } finally {
    interrupt.dispose();
    await target.close();
  }
}
