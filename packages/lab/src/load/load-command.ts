// `pnpm load`'s command line: its flags and their checks (light to load, so --help answers at once); load-cli.ts
// does the loading.
import { Command, Option } from 'commander';
import { helpfulUsage, integerAtLeast, shareOf } from '../cli-support';
import { LOCAL_LAB_BUFFER_INTERVAL_SECONDS } from '../target/buffer-interval';

const intOption = (name: string, min: number) => (value: string) => integerAtLeast(`--${name}`, value, min);
const shareOption = (name: string) => (value: string) => shareOf(`--${name}`, value);

export interface LoadOptions {
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
  bufferInterval?: string;
  faultThrottle?: number;
  faultRecordFailures?: number;
  dataDir?: string;
  endpointUrl?: string;
  outputsFile?: string;
  progress: boolean;
  wait: boolean;
}

export function loadCommand(): Command {
  const command = new Command('load')
    .description(
      'Send synthetic VPC flow logs through Firehose (PutRecordBatch), wait for each step to be delivered, and print the accounting.',
    )
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
      'also send n bad records (malformed JSON, wrong types); they go to the error bucket',
      intOption('bad', 0),
      0,
    )
    .option('-c, --concurrency <n>', 'PutRecordBatch requests in flight', intOption('concurrency', 1), 4)
    .option('-t, --target <target>', 'local (default: in-process endpoint, no AWS) or aws', 'local')
    .option(
      '--buffer-interval <seconds|unit>',
      `local, in-process: the Firehose buffer interval (default ${LOCAL_LAB_BUFFER_INTERVAL_SECONDS} s, as \`pnpm lab\`; "unit" waits the unit's 60 s, as AWS does)`,
    )
    .option(
      '--no-wait',
      'send every step without waiting for its delivery (an in-process endpoint delivers what it holds as it stops; a running one and AWS deliver on their own interval)',
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
    .option('--data-dir <dir>', "local: the local lake, the endpoint's data folder (default .lab/local)")
    .addOption(new Option('--data <dir>', 'alias of --data-dir').hideHelp())
    .option(
      '--endpoint-url <url>',
      'local: send to a running `pnpm lab local` (e.g. http://127.0.0.1:4566) instead of starting one in-process',
    )
    .option(
      '--outputs-file <file>',
      'aws: cdktf deploy --outputs-file JSON (default .lab/cdktf-outputs.json)',
    )
    .option('--no-progress', 'no progress bar')
    .exitOverride();
  return helpfulUsage(command, 'pnpm load');
}
