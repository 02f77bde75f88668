// `pnpm lab local`: the local AWS endpoint in the foreground on 127.0.0.1 (the services local-aws lists as served).
// stdout gets exactly one line once requests are accepted — `loglake local endpoint ready on http://127.0.0.1:<port>`
// — so scripts can wait for it; everything else goes to stderr. SIGINT/SIGTERM flush Firehose and stop cleanly.
// The command and its flags; what it does is in local-main.ts, loaded when it runs.
// The list alone (a small module), not the endpoint: registering commands stays cheap.
import { servedServicesText } from '@loglake/local-aws/served-services';
import { Option, type Command } from 'commander';
import { runCli } from '../cli-support';

export interface LocalCommandOptions {
  port: string;
  dataDir?: string;
  /** The old spelling of --data-dir, still accepted. */
  data?: string;
  bufferInterval?: string;
  maintenanceInterval?: string;
  adjustableMaintenanceClock?: boolean;
  adjustableCloudwatchClock?: boolean;
  faultThrottle?: string;
  faultRecordFailures?: string;
  faultSlowFlush?: string;
  faultCommitConflicts?: string;
  faultSeed?: string;
  authorize?: boolean;
}

export function registerLocalCommands(program: Command): void {
  program
    .command('local')
    .description(
      `Run the local AWS endpoint (${servedServicesText()}) on 127.0.0.1 in the foreground; without --authorize, authorization is off: any access key (or none) acts as the administrator`,
    )
    .option('--port <port>', 'TCP port on 127.0.0.1 (0 = any free port)', '4566')
    .option(
      '--data-dir <dir>',
      "the local lake, the endpoint's data folder; state survives restarts (default .lab/local)",
    )
    .addOption(new Option('--data <dir>', 'alias of --data-dir').hideHelp())
    .option('--buffer-interval <seconds>', "replace every Firehose stream's IntervalInSeconds (0-900)")
    .option(
      '--maintenance-interval <seconds>',
      'run table maintenance every N seconds (default: only via POST /_local/maintenance/run)',
    )
    .option(
      '--adjustable-maintenance-clock',
      'let POST /_local/maintenance/clock advance the clock snapshot expiry judges ages by (default: wall clock)',
    )
    .option(
      '--adjustable-cloudwatch-clock',
      "let POST /_local/cloudwatch/clock advance CloudWatch's clock (metric timestamps, alarm evaluation; default: wall clock)",
    )
    .option(
      '--fault-throttle <share>',
      'share (0-1) of PutRecord/PutRecordBatch calls answered ServiceUnavailableException',
    )
    .option(
      '--fault-record-failures <share>',
      'share (0-1) of records failed inside PutRecordBatch (FailedPutCount)',
    )
    .option('--fault-slow-flush <ms>', 'extra milliseconds before each Firehose flush commits')
    .option(
      '--fault-commit-conflicts <share>',
      'share (0-1) of Firehose commits that first lose a commit race',
    )
    .option('--fault-seed <n>', 'seed of the fault dice (default 1)')
    .option(
      '--authorize',
      "enforce the lab's synthesized IAM policies and Lake Formation grants (the deployer's access key is printed at start; other principals via STS AssumeRole); without it anyone is the administrator",
    )
    .action((options: LocalCommandOptions) =>
      runCli(async () => (await import('./local-main')).runLocal(options)),
    );
}
