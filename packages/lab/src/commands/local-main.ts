// What `pnpm lab local` does (commands/local.ts declares it and its flags).
import { resolve } from 'node:path';
import {
  LOCAL_CREDENTIALS,
  LocalAwsError,
  startLocalEndpoint,
  type FaultOptions,
  type LocalEndpoint,
  type LocalEndpointOptions,
} from '@loglake/local-aws';
import { integerBetween, shareOf } from '../cli-support';
import { InvalidOptionError, LabError } from '../errors';
import { dataFolderNotInPlace, ensureWritableDataFolder } from '../target/data-folder';
import { resolveLab } from '@loglake/units';
import { localAccess, LOCAL_DEPLOYER_ROLE_ARN } from '../target/local-access';
import { DEFAULT_LOCAL_DATA_DIR, recoveryLines } from '../target/open-target';

import type { LocalCommandOptions } from './local';

/** The ready line's warning when the endpoint does not authorize (what that means for whoever can reach it). */
export const AUTHORIZATION_OFF =
  ' — authorization OFF: any request is served, whatever key signs it or none, as if by an administrator ' +
  '(anyone on this machine can read, change or delete everything, the admin API included); ' +
  "start with --authorize to enforce the stacks' IAM policies and Lake Formation grants";

export async function runLocal(options: LocalCommandOptions): Promise<number> {
  const port = integerBetween('--port', options.port, 0, 65535);
  if (options.data !== undefined && options.dataDir !== undefined && options.data !== options.dataDir)
    throw new InvalidOptionError('--data is --data-dir: give one of them.', { value: options.data });
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
  if (access) {
    console.error(
      `authorization: on — the synthesized stacks' policies and grants (${access.summary}); access key ${LOCAL_CREDENTIALS.accessKeyId} signs as ${LOCAL_DEPLOYER_ROLE_ARN}`,
    );
    console.error(
      `admin API (/_local/*): the deployer's key, or this start's token: Authorization: Bearer ${endpoint.adminToken}`,
    );
  }
  for (const line of recoveryLines(endpoint.recovery)) console.error(line);
  // The one stdout line. Without --authorize it says so: every caller is served as the administrator.
  console.log(`loglake local endpoint ready on ${endpoint.url}${access ? '' : AUTHORIZATION_OFF}`);

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
    const copied = dataFolderNotInPlace(error);
    if (copied) throw copied;
    // The endpoint's own errors (port in use, engine missing) are the user's to fix: message, no stack trace.
    if (error instanceof LocalAwsError)
      throw new LabError(error.message, { value: error.value, cause: error });
    throw error;
  }
}
