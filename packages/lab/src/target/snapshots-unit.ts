// The snapshots unit as the lab's snapshot runs see it: the handlers' config from the unit's inputs and the lab's
// names, and the deployed state machine's ARN from the stacks' outputs file. Shared by `pnpm lab snapshot` and
// the daily-snapshot experiment, which word a missing piece differently (an error vs a skip).
import { existsSync, readFileSync } from 'node:fs';
import { LOCAL_ACCOUNT_ID } from '@loglake/local-aws';
import type { HandlerConfig } from '@loglake/snapshot-lambdas';
import type { ResolvedLab, SnapshotsInputs } from '@loglake/units';
import type { LabResources } from './resources';
import { outputsCommand } from './aws-outputs';

/** The handlers' config for the lab's source table; undefined when the lab has no snapshots unit. */
export function snapshotHandlerConfig(
  lab: ResolvedLab,
  source: Pick<LabResources, 'tableBucketName' | 'accountId'>,
): HandlerConfig | undefined {
  const unit = lab.units.snapshots;
  if (!unit) return undefined;
  const sn = unit.inputs as SnapshotsInputs;
  return {
    sourceTableBucket: source.tableBucketName,
    snapshotDatabase: sn.databaseName,
    snapshotBucket: `${sn.bucketNamePrefix}-${source.accountId || LOCAL_ACCOUNT_ID}`,
    // The unit's own workgroup, not the lab's: the snapshot CTAS sets external_location (stacks/snapshots).
    workgroup: sn.workgroup.name,
    queryTimeoutMs: sn.queryTimeoutSeconds * 1000,
    definitions: [...sn.snapshots],
  };
}

/** The snapshot workgroup's per-query cutoff, as the unit deploys it (for provisioning it locally). */
export function snapshotWorkgroupCutoff(lab: ResolvedLab): number | undefined {
  return (lab.units.snapshots?.inputs as SnapshotsInputs | undefined)?.workgroup.bytesScannedCutoffPerQuery;
}

/** How to produce the outputs file the ARN is read from (all the lab's units: the file is rewritten whole). */
export const snapshotOutputsCommand = (file: string, units: readonly string[]) => outputsCommand(file, units);

/** `snapshots.state_machine_arn` from the deployed stacks' outputs, or what is missing (lower case, no hint). */
export function readStateMachineArn(file: string): string | { missing: string } {
  if (!existsSync(file)) return { missing: `no deployed-stack outputs at ${file}` };
  let stacks: Record<string, Record<string, unknown> | undefined>;
  try {
    stacks = JSON.parse(readFileSync(file, 'utf8')) as typeof stacks;
  } catch (error) {
    return { missing: `${file} is not JSON (${(error as Error).message})` };
  }
  const arn = stacks.snapshots?.state_machine_arn ?? stacks.snapshots?.stateMachineArn;
  return typeof arn === 'string' ? arn : { missing: `${file} has no snapshots.state_machine_arn` };
}
