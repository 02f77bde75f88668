// Opens a lab target. local (default): starts the local endpoint in-process on loopback (or uses one already
// running on loopback: `pnpm lab local`) and provisions the lab there from the units' resolved values — never AWS.
// aws (explicit): the standard credential chain and names from the deployed stacks' outputs.
import { relative, resolve } from 'node:path';
import { failedRowsAlarmDefinition, resolveLab, type ResolvedLab } from '@loglake/units';
import {
  LOCAL_ACCOUNT_ID,
  startLocalEndpoint,
  type FaultOptions,
  type LocalEndpoint,
} from '@loglake/local-aws';
import { InvalidOptionError } from '../errors';
import { DEFAULT_OUTPUTS_FILE, readDeployedNames } from './aws-outputs';
import { buildTarget, type LabTarget } from './lab-target';
import { dataFolderNotInPlace, ensureWritableDataFolder, folderIdentity } from './data-folder';
import { localAccess, type LocalAccess } from './local-access';
import { provisionLab } from './provision';
import { assumedRoleCredentials } from './role-session';
import type { LabResources, TargetKind } from './resources';

export { DEFAULT_LOCAL_DATA_DIR, REPO_ROOT } from './paths';
import { DEFAULT_LOCAL_DATA_DIR } from './paths';

export interface OpenTargetOptions {
  target?: string;
  /** Local: where the endpoint keeps its state (default .lab/local). */
  dataDir?: string;
  /** Local: replaces the stream's buffer interval (seconds), printed in the banner. */
  bufferIntervalSeconds?: number;
  /** Local: why the interval is what it is, for the banner (default: a --buffer-interval flag). */
  bufferIntervalReason?: string;
  /** Local: fault injection for reliability runs. */
  faults?: FaultOptions;
  /** Local: a running endpoint on loopback (`pnpm lab local`) to use instead of starting one in-process. */
  endpointUrl?: string;
  /** aws: the `cdktf deploy --outputs-file` JSON. */
  outputsFile?: string;
  /**
   * Local, in-process: enforce the synthesized stacks' IAM policies and Lake Formation grants (default true; the lab
   * runs as the deployer). False: the endpoint serves every request, as without authorization.
   */
  authorization?: boolean;
  /** Local: changes the synthesized access model before the endpoint gets it (tests narrow a policy on purpose). */
  narrowAccess?: Parameters<typeof localAccess>[1];
}

export function parseTargetKind(value: string | undefined): TargetKind {
  const kind = value ?? 'local';
  if (kind !== 'local' && kind !== 'aws') {
    throw new InvalidOptionError(
      `--target ${kind} is not a target. Use --target local (default, no AWS account) or --target aws.`,
      { value: kind },
    );
  }
  return kind;
}

/** The lab's resources as the units resolve them (the same values the stacks deploy). */
export function resourcesFromUnits(lab: ResolvedLab, accountId: string): LabResources {
  const tb = lab.units['table-bucket'];
  const fh = lab.units.firehose;
  const alertsTopicArn = `arn:aws:sns:${tb.region}:${accountId}:${tb.inputs.alertsTopicName}`;
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
    errorPrefix: fh.inputs.errorBucket.errorPrefix,
    failedRowsAlarm: failedRowsAlarmDefinition(fh.inputs, alertsTopicArn),
    workgroup: tb.inputs.workgroup.name,
    bytesScannedCutoff: tb.inputs.workgroup.bytesScannedCutoffPerQuery,
    ...(lab.units.analyst
      ? {
          analystWorkgroup: {
            name: lab.units.analyst.inputs.workgroup.name,
            bytesScannedCutoff: lab.units.analyst.inputs.workgroup.bytesScannedCutoffPerQuery,
          },
        }
      : {}),
    maintenance: { ...tb.inputs.maintenance },
    roles: {},
  };
}

/** The units' values with the names only the synthesized stacks know (the error bucket, the roles). */
function withSynthesizedNames(resources: LabResources, access: LocalAccess): LabResources {
  return { ...resources, errorBucketName: access.errorBucketName, roles: access.roles };
}

/** The session name the lab's SQL runs under (as the lab role). */
export const SQL_SESSION = 'loglake-lab';

/**
 * The lab's SQL as table-bucket's lab role, which holds the lab's Lake Formation grants (the deployer, a data lake
 * administrator, has none): assumed with the lab's own credentials. Undefined without a lab role, or where nothing
 * checks who signs (an endpoint without authorization).
 */
function sqlAsLabRole(
  resources: LabResources,
  localUrl: string | undefined,
  enforced: boolean,
): { roleArn: string; credentials: ReturnType<typeof assumedRoleCredentials> } | undefined {
  const roleArn = resources.roles.lab;
  if (!roleArn || !enforced) return undefined;
  return {
    roleArn,
    credentials: assumedRoleCredentials(
      { resources, ...(localUrl ? { localUrl } : {}) },
      roleArn,
      SQL_SESSION,
    ),
  };
}

const sqlBanner = (sql: { roleArn: string } | undefined, why: string) =>
  sql
    ? `the lab's SQL runs as ${sql.roleArn} (assumed by the lab's own credentials)`
    : `the lab's SQL runs with the lab's own credentials: ${why}`;

/** The region on --target aws: the environment's (AWS_REGION, AWS_DEFAULT_REGION), else where the units deploy. */
export function awsRegion(lab: ResolvedLab): string {
  return process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION ?? lab.units['table-bucket'].region;
}

export async function openTarget(options: OpenTargetOptions = {}): Promise<LabTarget> {
  const kind = parseTargetKind(options.target);
  const lab = await resolveLab();
  if (kind === 'aws' && options.endpointUrl !== undefined)
    throw new InvalidOptionError('--endpoint-url names a local endpoint: use it with --target local.', {
      value: kind,
    });
  if (kind === 'aws') return openAwsTarget(lab, options);
  return openLocalTarget(lab, options);
}

async function openLocalTarget(lab: ResolvedLab, options: OpenTargetOptions): Promise<LabTarget> {
  const interval = options.bufferIntervalSeconds;
  if (interval !== undefined && !(Number.isInteger(interval) && interval >= 0 && interval <= 900)) {
    throw new InvalidOptionError(`--buffer-interval ${interval} is not 0–900 seconds (Firehose's range).`, {
      value: interval,
    });
  }
  // The stacks synthesized: names only they know, and (enforced unless switched off) who may do what.
  const access = await localAccess(lab, options.narrowAccess);
  const resources = withSynthesizedNames(resourcesFromUnits(lab, LOCAL_ACCOUNT_ID), access);
  if (options.endpointUrl !== undefined) return openRunningEndpoint(resources, options);
  const dataDir = resolve(options.dataDir ?? DEFAULT_LOCAL_DATA_DIR);
  // A folder that is a file, read-only or on a full disk is named before the endpoint meets it as an engine error.
  ensureWritableDataFolder(dataDir);
  const authorize = options.authorization !== false;
  const endpoint = await startLocalEndpoint({
    dataDir,
    region: resources.region,
    // The undo-window and tag experiments move the maintenance clock past the retention window.
    maintenanceClock: 'adjustable',
    // The bad-records experiment moves CloudWatch's clock past its alarm's one-minute periods.
    cloudWatchClock: 'adjustable',
    ...(interval !== undefined ? { firehoseBufferIntervalOverrideSeconds: interval } : {}),
    ...(options.faults ? { faults: options.faults } : {}),
    ...(authorize ? { authorization: access.authorization } : {}),
  }).catch((error: unknown) => {
    // A copied or moved lake is refused (its tables are the original's): named in the lab's data-folder words.
    throw dataFolderNotInPlace(error) ?? error;
  });
  const banner = [
    `target local: in-process endpoint ${endpoint.url} (no AWS account used), data in ${dataDir}`,
    `Firehose buffer: ${resources.buffering.sizeMb} MiB / ${interval ?? resources.buffering.intervalSeconds} s` +
      (interval === undefined
        ? " (the unit's, as on AWS)"
        : ` (${options.bufferIntervalReason ?? `shortened from the unit's ${resources.buffering.intervalSeconds} s by --buffer-interval`})`),
    'maintenance clock: adjustable (the undo-window and tag experiments advance it past the snapshot retention)',
    "CloudWatch clock: adjustable (the bad-records experiment advances it past its alarm's one-minute periods)",
    authorize
      ? `authorization: on — the synthesized stacks' IAM policies and Lake Formation grants (${access.summary}); the lab signs as the deployer (AdministratorAccess, data lake administrator)`
      : 'authorization: off (--no-authorization): every request is served, whatever signs it',
    ...endpoint.faults.describe().map((line) => `fault injection: ${line}`),
    ...recoveryLines(endpoint.recovery),
  ];
  const sql = sqlAsLabRole(resources, endpoint.url, authorize);
  banner.push(sqlBanner(sql, 'authorization is off'));
  const target = buildTarget(
    'local',
    resources,
    { region: resources.region, endpoint: endpoint.url, ...(sql ? { sql } : {}) },
    banner,
    () => endpoint.stop(),
  );
  const headline =
    `target local: in-process endpoint (no AWS account), data in ${shownPath(dataDir)}` +
    (authorize ? '' : ', authorization off');
  const dataDirIdentity = folderIdentity(dataDir);
  return provisioned(
    {
      ...target,
      authorized: authorize,
      dataDir,
      headline,
      ...(dataDirIdentity ? { dataDirIdentity } : {}),
      ...(authorize ? { serviceCredentials: (request) => endpoint.serviceCredentials(request) } : {}),
    },
    resources,
    banner,
  );
}

/** A path as the user would type it: relative to the working folder when inside it. */
export function shownPath(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel && !rel.startsWith('..') ? rel : path;
}

/** What the endpoint's Firehose logs held at start (replayed records, damaged tails), one line each. */
export function recoveryLines(recovery: LocalEndpoint['recovery']): string[] {
  return recovery.flatMap((r) => [
    ...(r.replayedRecords > 0
      ? [
          `Firehose ${r.stream}: replaying ${r.replayedRecords} records accepted before the last stop and not yet ` +
            `delivered (${r.replayedGenerations} buffers)`,
        ]
      : []),
    ...r.damage.map(
      (d) =>
        `Firehose ${r.stream}: the log ${d.file} is damaged at byte ${d.offset} (${d.reason}); ${d.bytes} bytes ` +
        `after it were not replayed and are kept in ${d.keptAt}`,
    ),
  ]);
}

/** A target on an endpoint that is already running (its own data directory, buffer interval and faults). */
async function openRunningEndpoint(resources: LabResources, options: OpenTargetOptions): Promise<LabTarget> {
  const url = options.endpointUrl as string;
  if (!/^http:\/\/(127\.0\.0\.1|localhost)(:\d+)?\/?$/.test(url))
    throw new InvalidOptionError(
      `--endpoint-url ${url} is not a local endpoint on loopback: give the URL \`pnpm lab local\` printed, e.g. http://127.0.0.1:4566.`,
      { value: url },
    );
  if (options.dataDir !== undefined || options.bufferIntervalSeconds !== undefined || options.faults)
    throw new InvalidOptionError(
      '--data-dir, --buffer-interval and --fault-* belong to the running endpoint: give them to `pnpm lab local`.',
      { value: url },
    );
  const health = await fetch(new URL('/_local/health', url))
    .then((r) => r.json() as Promise<{ ok?: boolean; authorization?: boolean }>)
    .catch(() => undefined);
  if (!health?.ok)
    throw new InvalidOptionError(
      `No loglake local endpoint answers at ${url}: start one with \`pnpm lab local\` (it prints its URL).`,
      { value: url },
    );
  const banner = [
    `target local: the running endpoint ${url} (no AWS account used)`,
    // Started with `pnpm lab local --authorize` it enforces the synthesized stacks' policies; the lab is the deployer.
    `authorization: ${health.authorization ? 'enforced by the running endpoint' : 'off (the running endpoint serves every request)'}`,
    ...(health.authorization
      ? [
          "the snapshot handlers run as the lab's deployer here: an endpoint hands out its Lambda roles' credentials in-process only (run the lab without --endpoint-url to run them as their roles)",
        ]
      : []),
  ];
  const endpointUrl = url.replace(/\/$/, '');
  const sql = sqlAsLabRole(resources, endpointUrl, health.authorization === true);
  banner.push(sqlBanner(sql, 'the running endpoint does not enforce authorization'));
  const target = buildTarget(
    'local',
    resources,
    { region: resources.region, endpoint: endpointUrl, ...(sql ? { sql } : {}) },
    banner,
    async () => undefined,
  );
  const headline = `target local: the running endpoint ${url} (no AWS account), authorization ${health.authorization ? 'enforced' : 'off'}`;
  return provisioned({ ...target, authorized: health.authorization === true, headline }, resources, banner);
}

/** Creates what the lab needs on the target unless it is there; closes the target if that fails. */
async function provisioned(target: LabTarget, resources: LabResources, banner: string[]): Promise<LabTarget> {
  try {
    const provisioned = await provisionLab(target, resources);
    if (provisioned.created.length > 0) {
      banner.push(`provisioned locally: ${provisioned.created.join(', ')}`);
      return {
        ...target,
        headline: `${target.headline ?? banner[0]}; provisioned the lab's ${provisioned.created.length} resources (a new lake)`,
      };
    }
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
    // The alarm as deployed (its name and the topic from the outputs); none when the stacks predate it.
    failedRowsAlarm:
      deployed.failedRowsAlarmName && deployed.alertsTopicArn
        ? {
            ...failedRowsAlarmDefinition(
              { ...lab.units.firehose.inputs, streamName: deployed.streamName },
              deployed.alertsTopicArn,
            ),
            AlarmName: deployed.failedRowsAlarmName,
          }
        : undefined,
    roles: deployed.roles,
    // As deployed; none when the analyst stack predates its own workgroup (the experiment then says so).
    analystWorkgroup:
      deployed.analystWorkgroup && fromUnits.analystWorkgroup
        ? { ...fromUnits.analystWorkgroup, name: deployed.analystWorkgroup }
        : undefined,
  };
  const banner = [
    `target aws: region ${region}, standard credential chain; names from ${outputsFile}`,
    `Firehose buffer: ${resources.buffering.sizeMb} MiB / ${resources.buffering.intervalSeconds} s (as deployed)`,
  ];
  const sql = sqlAsLabRole(resources, undefined, true);
  banner.push(
    sqlBanner(
      sql,
      `${outputsFile} has no table-bucket.lab_role_arn (stacks deployed before the lab role; the deployer holds no grants now: deploy table-bucket again)`,
    ),
  );
  return {
    ...buildTarget('aws', resources, { region, ...(sql ? { sql } : {}) }, banner, async () => {}),
    outputsFile,
    headline: banner[0] as string,
  };
}

function accountFromArn(arn: string): string {
  return arn.split(':')[4] || '123456789012';
}
