// `pnpm lab local`: the local AWS endpoint in the foreground (S3 Tables, Firehose, Athena on 127.0.0.1).
// stdout gets exactly one line once requests are accepted — `loglake local endpoint ready on http://127.0.0.1:<port>`
// — so scripts can wait for it; everything else goes to stderr. SIGINT/SIGTERM flush Firehose and stop cleanly.
import { Option, type Command } from 'commander';
import { resolve } from 'node:path';
import {
  LocalAwsError,
  startLocalEndpoint,
  type FaultOptions,
  type LocalEndpoint,
  type LocalEndpointOptions,
} from '@loglake/local-aws';
import { integerBetween, runCli, shareOf } from '../cli-support';
import { InvalidOptionError, LabError } from '../errors';
import { ensureWritableDataFolder } from '../target/data-folder';
import { resolveLab } from '@loglake/units';
import { localAccess, LOCAL_DEPLOYER_ROLE_ARN } from '../target/local-access';
import { DEFAULT_LOCAL_DATA_DIR, recoveryLines } from '../target/open-target';

interface LocalCommandOptions {
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
      'Run the local AWS endpoint (S3 Tables, Firehose, Athena, CloudWatch, Glue, S3) on 127.0.0.1 in the foreground; any access key is accepted unless --authorize',
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
      "enforce the lab's synthesized IAM policies and Lake Formation grants (access key `local` = the deployer; other principals via STS AssumeRole)",
    )
    .action((options: LocalCommandOptions) => runCli(() => runLocal(options)));
}

async function runLocal(options: LocalCommandOptions): Promise<number> {
  const port = integerBetween('--port', options.port, 0, 65535);
  if (options.data !== undefined && options.dataDir !== undefined && options.data !== options.dataDir)
    throw new InvalidOptionError('--data is --data-dir: give one of them.', options.data);
  const dataDir = resolve(options.dataDir ?? options.data ?? DEFAULT_LOCAL_DATA_DIR);
  const faults: FaultOptions = {
    ...(options.faultThrottle !== undefined
      ? { throttleShare: shareOf('--fault-throttle', options.faultThrottle) }
      : {}),
    ...(options.faultRecordFailures !== undefined
      ? { recordFailureShare: shareOf('--fault-record-failures', options.faultRecordFailures) }
      : {}),
    ...(options.faultSlowFlush !== undefined
      ? { slowFlushMs: integerBetween('--fault-slow-flush', options.faultSlowFlush, 0, 600_000) }
      : {}),
    ...(options.faultCommitConflicts !== undefined
      ? { commitConflictShare: shareOf('--fault-commit-conflicts', options.faultCommitConflicts) }
      : {}),
    ...(options.faultSeed !== undefined
      ? { seed: integerBetween('--fault-seed', options.faultSeed, 0, 2 ** 32 - 1) }
      : {}),
  };
  const settings: Partial<LocalEndpointOptions> = {
    ...(options.bufferInterval !== undefined
      ? {
          firehoseBufferIntervalOverrideSeconds: integerBetween(
            '--buffer-interval',
            options.bufferInterval,
            0,
            900,
          ),
        }
      : {}),
    ...(options.adjustableMaintenanceClock ? { maintenanceClock: 'adjustable' as const } : {}),
    ...(options.adjustableCloudwatchClock ? { cloudWatchClock: 'adjustable' as const } : {}),
    ...(options.maintenanceInterval !== undefined
      ? {
          maintenanceIntervalSeconds: integerBetween(
            '--maintenance-interval',
            options.maintenanceInterval,
            1,
            86_400,
          ),
        }
      : {}),
  };
  // Every flag is checked before the folder is touched; and never "ready" on a folder the endpoint cannot keep its
  // state in (a file, read-only, a full disk).
  ensureWritableDataFolder(dataDir);
  const access = options.authorize ? await localAccess(await resolveLab()) : undefined;
  const endpoint = await start({
    port,
    dataDir,
    faults,
    ...(access ? { authorization: access.authorization } : {}),
    ...settings,
  });
  console.error(`data directory: ${dataDir}`);
  if (options.adjustableMaintenanceClock)
    console.error('maintenance clock: adjustable (POST /_local/maintenance/clock)');
  if (options.adjustableCloudwatchClock)
    console.error('CloudWatch clock: adjustable (POST /_local/cloudwatch/clock)');
  for (const line of endpoint.faults.describe()) console.error(`fault injection ON: ${line}`);
  if (access)
    console.error(
      `authorization: on — the synthesized stacks' policies and grants (${access.summary}); access key "local" signs as ${LOCAL_DEPLOYER_ROLE_ARN}`,
    );
  for (const line of recoveryLines(endpoint.recovery)) console.error(line);
  console.log(`loglake local endpoint ready on ${endpoint.url}`);

  return new Promise<number>((resolveExit) => {
    let stopping = false;
    const onSignal = (signal: NodeJS.Signals) => {
      if (stopping) {
        console.error(`${signal} again: exiting without waiting for the flush.`);
        process.exit(1);
      }
      stopping = true;
      console.error(`${signal}: flushing Firehose buffers and stopping...`);
      endpoint.stop().then(
        () => {
          console.error('loglake local endpoint stopped.');
          resolveExit(0);
        },
        (error: unknown) => {
          console.error(`stop failed: ${error instanceof Error ? error.message : String(error)}`);
          resolveExit(1);
        },
      );
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}

async function start(options: LocalEndpointOptions): Promise<LocalEndpoint> {
  try {
    return await startLocalEndpoint(options);
  } catch (error) {
    // The endpoint's own errors (port in use, engine missing) are the user's to fix: message, no stack trace.
    if (error instanceof LocalAwsError) throw new LabError(error.message, error.value, { cause: error });
    throw error;
  }
}
