// Opens a lab target. local (default): starts the local endpoint in-process on loopback and provisions the lab
// there from the units' resolved values — never AWS. aws (explicit): the standard credential chain and names
// from the deployed stacks' outputs.
import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';
import { resolveLab, type ResolvedLab } from '@loglake/units';
import { LOCAL_ACCOUNT_ID, startLocalEndpoint, type FaultOptions } from '@loglake/local-aws';
import { InvalidOptionError } from '../errors';
import { DEFAULT_OUTPUTS_FILE, readDeployedNames } from './aws-outputs';
import { buildTarget, type LabTarget } from './lab-target';
import { provisionLab } from './provision';
import type { LabResources, TargetKind } from './resources';

export const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
export const DEFAULT_LOCAL_DATA_DIR = resolve(REPO_ROOT, '.lab/local');

export interface OpenTargetOptions {
  target?: string;
  /** Local: where the endpoint keeps its state (default .lab/local). */
  dataDir?: string;
  /** Local: replaces the stream's buffer interval (seconds), printed in the banner. */
  bufferIntervalSeconds?: number;
  /** Local: fault injection for reliability runs. */
  faults?: FaultOptions;
  /** aws: the `cdktf deploy --outputs-file` JSON. */
  outputsFile?: string;
}

export function parseTargetKind(value: string | undefined): TargetKind {
  const kind = value ?? 'local';
  if (kind !== 'local' && kind !== 'aws') {
    throw new InvalidOptionError(
      `--target ${kind} is not a target. Use --target local (default, no AWS account) or --target aws.`,
      kind,
    );
  }
  return kind;
}

/** The lab's resources as the units resolve them (the same values the stacks deploy). */
export function resourcesFromUnits(lab: ResolvedLab, accountId: string): LabResources {
  const tb = lab.units['table-bucket'];
  const fh = lab.units.firehose;
  return {
    region: tb.region,
    accountId,
    tableBucketName: tb.inputs.bucketName,
    namespace: tb.inputs.namespace,
    table: tb.inputs.table.name,
    columns: tb.inputs.table.columns.map((c) => ({
      name: c.name,
      type: c.type,
      ...(c.required ? { required: true } : {}),
    })),
    sqlNamespaces: [...lab.units['ref-data'].inputs.namespaces],
    streamName: fh.inputs.streamName,
    buffering: { ...fh.inputs.buffering },
    errorBucketName: fh.inputs.errorBucket.namePrefix,
    workgroup: tb.inputs.workgroup.name,
    bytesScannedCutoff: tb.inputs.workgroup.bytesScannedCutoffPerQuery,
    maintenance: { ...tb.inputs.maintenance },
  };
}

/** The region on --target aws: the environment's (AWS_REGION, AWS_DEFAULT_REGION), else where the units deploy. */
export function awsRegion(lab: ResolvedLab): string {
  return process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION ?? lab.units['table-bucket'].region;
}

export async function openTarget(options: OpenTargetOptions = {}): Promise<LabTarget> {
  const kind = parseTargetKind(options.target);
  const lab = await resolveLab();
  if (kind === 'aws') return openAwsTarget(lab, options);
  return openLocalTarget(lab, options);
}

async function openLocalTarget(lab: ResolvedLab, options: OpenTargetOptions): Promise<LabTarget> {
  const interval = options.bufferIntervalSeconds;
  if (interval !== undefined && !(Number.isInteger(interval) && interval >= 0 && interval <= 900)) {
    throw new InvalidOptionError(
      `--buffer-interval ${interval} is not 0–900 seconds (Firehose's range).`,
      interval,
    );
  }
  const resources = resourcesFromUnits(lab, LOCAL_ACCOUNT_ID);
  const dataDir = resolve(options.dataDir ?? DEFAULT_LOCAL_DATA_DIR);
  const endpoint = await startLocalEndpoint({
    dataDir,
    region: resources.region,
    // The undo-window and tag experiments move the maintenance clock past the retention window.
    maintenanceClock: 'adjustable',
    ...(interval !== undefined ? { firehoseBufferIntervalOverrideSeconds: interval } : {}),
    ...(options.faults ? { faults: options.faults } : {}),
  });
  const banner = [
    `target local: in-process endpoint ${endpoint.url} (no AWS account used), data in ${dataDir}`,
    `Firehose buffer: ${resources.buffering.sizeMb} MiB / ${interval ?? resources.buffering.intervalSeconds} s` +
      (interval !== undefined
        ? ` (shortened from the unit's ${resources.buffering.intervalSeconds} s by --buffer-interval)`
        : ''),
    'maintenance clock: adjustable (the undo-window and tag experiments advance it past the snapshot retention)',
    ...endpoint.faults.describe().map((line) => `fault injection: ${line}`),
  ];
  const target = buildTarget(
    'local',
    resources,
    { region: resources.region, endpoint: endpoint.url },
    banner,
    () => endpoint.stop(),
  );
  try {
    const provisioned = await provisionLab(target, resources);
    if (provisioned.created.length > 0) banner.push(`provisioned locally: ${provisioned.created.join(', ')}`);
  } catch (error) {
    await target.close();
    throw error;
  }
  return target;
}

async function openAwsTarget(lab: ResolvedLab, options: OpenTargetOptions): Promise<LabTarget> {
  const outputsFile = options.outputsFile ?? DEFAULT_OUTPUTS_FILE;
  const deployed = readDeployedNames(outputsFile, lab.order);
  const fromUnits = resourcesFromUnits(lab, accountFromArn(deployed.tableBucketArn));
  const region = awsRegion(lab);
  const resources: LabResources = {
    ...fromUnits,
    region,
    tableBucketName: deployed.tableBucketName,
    namespace: deployed.namespace,
    table: deployed.table,
    streamName: deployed.streamName,
    errorBucketName: deployed.errorBucketName,
    workgroup: deployed.workgroup,
    sqlNamespaces: deployed.sqlNamespaces,
  };
  const banner = [
    `target aws: region ${region}, standard credential chain; names from ${outputsFile}`,
    `Firehose buffer: ${resources.buffering.sizeMb} MiB / ${resources.buffering.intervalSeconds} s (as deployed)`,
  ];
  return { ...buildTarget('aws', resources, { region }, banner, async () => {}), outputsFile };
}

function accountFromArn(arn: string): string {
  return arn.split(':')[4] || '123456789012';
}
