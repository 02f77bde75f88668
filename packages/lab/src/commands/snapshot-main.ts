// What `pnpm lab snapshot` does (commands/snapshot.ts declares it). The real state-machine definition runs on
// aws-local-stepfunctions, both Lambda handlers in-process against the local endpoint (started here on an ephemeral
// port); the SNS alert and the EMF metrics are captured and printed, never sent.
// --demo uses a fresh folder and tells the incident story: a complete day is published, a partly loaded day is
// refused with its missing hours, the rest lands and is published, then the analysts' query on snapshot vs history.
import { mkdtempSync, rmSync } from 'node:fs';
import { SFNClient } from '@aws-sdk/client-sfn';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { LOCAL_ACCOUNT_ID, startLocalEndpoint } from '@loglake/local-aws';
import {
  compareAnalystsQuery,
  flowRows,
  hoursOf,
  loadFlows,
  localSnapshotClients,
  provisionLocalSnapshots,
  runSnapshotOnAws,
  runSnapshotOffline,
  snapshotContents,
  type LocalClients,
  type OfflineRun,
} from '@loglake/snapshot-lambdas/offline';
import {
  findDefinition,
  isoDate,
  type HandlerConfig,
  type SnapshotDefinition,
} from '@loglake/snapshot-lambdas';
import { resolveLab, type ResolvedLab } from '@loglake/units';
import { InvalidOptionError } from '../errors';
import { ensureWritableDataFolder } from '../target/data-folder';
import { requireCredentialsFrom } from '../target/aws-credentials';
import { DEFAULT_OUTPUTS_FILE } from '../target/aws-outputs';
import { DEFAULT_LOCAL_DATA_DIR, awsRegion, resourcesFromUnits } from '../target/open-target';
import {
  readStateMachineArn,
  snapshotHandlerConfig,
  snapshotOutputsCommand,
  snapshotWorkgroupCutoff,
} from '../target/snapshots-unit';

import type { SnapshotOptions } from './snapshot';

async function unitConfig(lab: ResolvedLab): Promise<HandlerConfig> {
  const config = snapshotHandlerConfig(lab, resourcesFromUnits(lab, LOCAL_ACCOUNT_ID));
  if (!config)
    throw new InvalidOptionError(`lab ${lab.labId} has no snapshots unit; add ${lab.path}/snapshots.ts`, {
      value: 'snapshots',
    });
  return config;
}

function printRun(title: string, run: OfflineRun): void {
  const e = run.execution;
  console.log(`\n── ${title}`);
  for (const line of e.events) console.log(`   ${line}`);
  if (e.status === 'SUCCEEDED') {
    const build = (
      e.output as {
        build?: {
          published?: boolean;
          rows?: number;
          bytesScanned?: number;
          location?: string;
          deletedRuns?: string[];
        };
      }
    ).build;
    console.log(
      build?.published
        ? `   published ${run.after.watermark} → ${run.after.location}\n   rows ${build.rows}, bytes scanned ${build.bytesScanned}, old runs deleted ${build.deletedRuns?.length ?? 0}`
        : `   ${run.after.watermark} was already published: nothing changed (table version ${run.after.versionId})`,
    );
  } else {
    console.log(
      `   nothing published: the table still points at ${run.after.watermark ?? '(no snapshot yet)'} (version ${run.after.versionId})`,
    );
  }
  for (const alert of e.alerts) {
    console.log(`   SNS alert captured (topic ${alert.topicArn})\n   Subject: ${alert.subject}`);
    for (const line of alert.message.split('\n')) console.log(`   │ ${line}`);
  }
  for (const m of run.metrics) {
    const values = Object.entries(m.values)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ');
    console.log(`   EMF metrics (${m.snapshot}): ${values}`);
  }
}

const DAY_MS = 86_400_000;
const dayOffset = (n: number) =>
  new Date(Math.floor(Date.now() / DAY_MS) * DAY_MS + n * DAY_MS).toISOString().slice(0, 10);

async function demo(clients: LocalClients, config: HandlerConfig, def: SnapshotDefinition): Promise<number> {
  const [d3, d2, d1, today] = [dayOffset(-3), dayOffset(-2), dayOffset(-1), dayOffset(0)];
  const perHour = 40;
  console.log(
    `demo data: ${d3} and ${d2} complete, ${d1} loaded up to 13:59, ${today} 00:00-01:59 (${perHour} flows/hour)`,
  );
  await loadFlows(
    clients,
    config,
    def,
    flowRows(
      [...hoursOf(d3), ...hoursOf(d2), ...hoursOf(d1, [...Array(14).keys()]), ...hoursOf(today, [0, 1])],
      perHour,
    ),
  );
  const first = await runSnapshotOffline(clients, config, { snapshot: def.name });
  printRun(`run 1: newest complete day`, first);
  const incident = await runSnapshotOffline(clients, config, { snapshot: def.name });
  printRun(`run 2: ${d1} is only partly loaded (the incident)`, incident);
  await loadFlows(clients, config, def, flowRows(hoursOf(d1, [...Array(24).keys()].slice(14)), perHour, 5));
  console.log(`\n(the rest of ${d1} lands)`);
  const third = await runSnapshotOffline(clients, config, { snapshot: def.name });
  printRun(`run 3: ${d1} complete`, third);
  console.log(
    `\nsnapshot table ${config.snapshotDatabase}.${def.name}:`,
    JSON.stringify(await snapshotContents(clients, config, def.name)),
  );
  const cmp = await compareAnalystsQuery(clients, config, def, d1);
  console.log(`\nanalysts' query for ${d1} (top rejected sources):`);
  console.log(
    `   on the snapshot: ${cmp.snapshot.bytesScanned} bytes scanned, ${cmp.snapshot.rows.length} rows`,
  );
  console.log(`   on the history:  ${cmp.source.bytesScanned} bytes scanned, ${cmp.source.rows.length} rows`);
  console.log(
    `   same answer: ${cmp.sameAnswer ? 'yes' : 'NO'}; history ÷ snapshot = ${cmp.ratio.toFixed(1)}× (4 days of history here; pnpm bench snapshots measures 30)`,
  );
  const ok =
    first.execution.status === 'SUCCEEDED' &&
    incident.execution.status === 'FAILED' &&
    third.execution.status === 'SUCCEEDED' &&
    cmp.sameAnswer;
  return ok ? 0 : 1;
}

/** `state_machine_arn` of the deployed snapshots stack, from the `cdktf output --outputs-file` JSON. */
function stateMachineArnOrThrow(file: string, units: readonly string[]): string {
  const arn = readStateMachineArn(file);
  if (typeof arn === 'string') return arn;
  const what = `${arn.missing.charAt(0).toUpperCase()}${arn.missing.slice(1)}`;
  throw new InvalidOptionError(
    `${what}. Deploy the snapshots unit (\`pnpm lab deploy\`), then \`${snapshotOutputsCommand(file, units)}\`.`,
    { value: file },
  );
}

async function runOnAws(options: SnapshotOptions, date: string | undefined): Promise<number> {
  if (options.demo || options.dataDir)
    throw new InvalidOptionError('--demo and --data-dir apply to --target local only.', {
      value: options.target,
    });
  const lab = await resolveLab();
  const config = await unitConfig(lab);
  const def = options.snapshot
    ? findDefinition(config.definitions, options.snapshot)
    : (config.definitions[0] as SnapshotDefinition);
  const stateMachineArn = stateMachineArnOrThrow(
    resolve(options.outputsFile ?? DEFAULT_OUTPUTS_FILE),
    lab.order,
  );
  // The same region as the lab's other AWS calls (the SDK alone would fail without AWS_REGION).
  const sfn = new SFNClient({ region: awsRegion(lab) });
  try {
    await requireCredentialsFrom(() => sfn.config.credentials());
    console.log(
      `starting ${stateMachineArn} for ${def.name}${date ? ` (${date})` : ''} — this is AWS, not the local endpoint`,
    );
    const result = await runSnapshotOnAws(sfn, { stateMachineArn, snapshot: def.name, date });
    console.log(`execution ${result.executionArn}: ${result.status}`);
    if (result.error)
      console.log(
        `   error ${result.error}: ${result.cause ?? ''}\n   (the SNS topic mailed the alert with the evidence)`,
      );
    else console.log(`   output ${JSON.stringify(result.output)}`);
    return result.status === 'SUCCEEDED' ? 0 : 1;
  } finally {
    sfn.destroy();
  }
}

export async function snapshotMain(options: SnapshotOptions): Promise<number> {
  if (options.target !== 'local' && options.target !== 'aws') {
    throw new InvalidOptionError(
      `--target ${options.target} is not a target. Use --target local (default) or --target aws.`,
      { value: options.target },
    );
  }
  let date: string | undefined;
  try {
    date = options.date === undefined ? undefined : isoDate(options.date, '--date');
  } catch (error) {
    throw new InvalidOptionError(`${(error as Error).message}.`, { value: options.date });
  }
  if (options.demo && date !== undefined)
    throw new InvalidOptionError(
      `--demo builds its own days and publishes the newest complete one, then refuses a partial day: --date ${date} does not apply to it. ` +
        "Drop --date for the demo, or drop --demo to build that day from the lab's data (`pnpm lab snapshot --date <day>`).",
      { value: date },
    );
  if (options.target === 'aws') return runOnAws(options, date);
  const lab = await resolveLab();
  const config = await unitConfig(lab);
  const def = options.snapshot
    ? findDefinition(config.definitions, options.snapshot)
    : (config.definitions[0] as SnapshotDefinition);
  const scratch = options.demo ? mkdtempSync(join(tmpdir(), 'loglake-snapshot-demo-')) : undefined;
  const dataDir = scratch ?? resolve(options.dataDir ?? DEFAULT_LOCAL_DATA_DIR);
  ensureWritableDataFolder(dataDir);
  const endpoint = await startLocalEndpoint({ dataDir });
  const clients = localSnapshotClients(endpoint.url);
  console.log(
    `local endpoint ${endpoint.url} (data ${scratch ? 'in a fresh demo folder' : dataDir}); snapshot ${config.snapshotDatabase}.${def.name}`,
  );
  try {
    await provisionLocalSnapshots(clients, config, { workgroupCutoffBytes: snapshotWorkgroupCutoff(lab) });
    if (options.demo) return await demo(clients, config, def);
    const run = await runSnapshotOffline(clients, config, { snapshot: def.name, date });
    printRun(date ? `run for ${date}` : 'run: newest complete day', run);
    return run.execution.status === 'SUCCEEDED' ? 0 : 1;
  } finally {
    clients.destroy();
    await endpoint.stop();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  }
}
