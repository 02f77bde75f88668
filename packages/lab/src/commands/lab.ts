// `pnpm lab`: runs the whole lab (default), `pnpm lab run <name...>` some experiments, `pnpm lab list` names them.
// --target local (default: in-process endpoint, never AWS) or aws (deployed stacks' outputs).
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { assertDataFolderFree, LOCAL_DATA_DIR_ENTRIES } from '@loglake/local-aws';
import { integerAtLeast, runCli } from '../cli-support';
import { InvalidOptionError } from '../errors';
import { DEFAULT_COMPACTION_WAIT_MS } from '../experiments/compaction-wait';
import {
  DEFAULT_ALARM_WAIT_MS,
  DEFAULT_WAITS,
  FULL_SCALE,
  type LabScale,
  type LabWaits,
} from '../experiments/context';
import { EXPERIMENTS, findExperiments } from '../experiments/registry';
import { runLab } from '../experiments/run-lab';
import { runSummaryText } from '../report/run-summary';
import { differencesText, experimentTable } from '../report/terminal';
import { DEFAULT_LOCAL_DATA_DIR, REPO_ROOT, openTarget, parseTargetKind } from '../target/open-target';

interface LabOptions {
  target: string;
  bufferInterval?: string;
  records?: string;
  hours?: string;
  bursts?: string;
  burstSize?: string;
  seed?: string;
  dataDir?: string;
  outputsFile?: string;
  compactionWait?: string;
  alarmWait?: string;
  outDir?: string;
  /** False with --no-authorization. */
  authorization?: boolean;
}

function addLabOptions(command: Command): Command {
  return command
    .option(
      '-t, --target <target>',
      'local (default: in-process endpoint, no AWS account) or aws (deployed stacks)',
      'local',
    )
    .option(
      '--buffer-interval <seconds|unit>',
      `local only: the Firehose buffer interval (default ${LOCAL_LAB_BUFFER_INTERVAL_SECONDS} s, printed in the banner); "unit" waits the unit's interval (60 s), as AWS does`,
    )
    .option('--records <n>', `flows in the main load (default ${FULL_SCALE.records})`)
    .option('--hours <n>', `hours the main load spreads over (default ${FULL_SCALE.hours})`)
    .option('--bursts <n>', `short bursts after the main load (default ${FULL_SCALE.bursts})`)
    .option('--burst-size <n>', `flows per burst (default ${FULL_SCALE.burstSize})`)
    .option('--seed <n>', `generator seed (default ${FULL_SCALE.seed})`)
    .option(
      '--data-dir <dir>',
      'local only: endpoint state folder (default .lab/local; the whole lab starts it empty)',
    )
    .option(
      '--outputs-file <file>',
      'aws only: `cdktf deploy --outputs-file` JSON (default .lab/cdktf-outputs.json)',
    )
    .option(
      '--compaction-wait <minutes>',
      `aws only: how long "Wait for compaction" polls for a compaction run after the bursts (default ${DEFAULT_COMPACTION_WAIT_MS / 60_000})`,
    )
    .option(
      '--alarm-wait <minutes>',
      `aws only: how long the bad-records experiment waits for each of the error output, the metric, ALARM and OK (default ${DEFAULT_ALARM_WAIT_MS / 60_000})`,
    )
    .option('--out-dir <dir>', 'where the report and state go (default .lab)')
    .option(
      '--no-authorization',
      "local only: do not enforce the synthesized stacks' IAM policies and Lake Formation grants (on by default)",
    );
}

function positiveInt(flag: string, value: string | undefined, fallback: number, min = 1): number {
  return value === undefined ? fallback : integerAtLeast(flag, value, min);
}

/**
 * The local Firehose buffer interval the whole lab uses unless told otherwise: each of the lab's ~20 deliveries
 * waits one interval, so the unit's 60 s would make the run mostly waiting (about 20 minutes); commits are cut per
 * delivery either way, so every figure is the same.
 */
export const LOCAL_LAB_BUFFER_INTERVAL_SECONDS = 2;

/** --buffer-interval: seconds, "unit" (the unit's own interval, as on AWS), or the lab's local default. */
export function bufferIntervalFrom(value: string | undefined): { seconds?: number; reason?: string } {
  if (value === 'unit') return {};
  if (value === undefined)
    return {
      seconds: LOCAL_LAB_BUFFER_INTERVAL_SECONDS,
      reason:
        "the lab's local default, so the run is not mostly waiting; --buffer-interval unit waits the unit's interval, as AWS does",
    };
  if (!/^\d+$/.test(value) || Number(value) > 900)
    throw new InvalidOptionError(
      `--buffer-interval ${value} is not 0–900 seconds (Firehose's range) or "unit" (the unit's interval, as on AWS).`,
      value,
    );
  return { seconds: Number(value) };
}

export function scaleFrom(o: LabOptions): LabScale {
  return {
    records: positiveInt('--records', o.records, FULL_SCALE.records),
    hours: positiveInt('--hours', o.hours, FULL_SCALE.hours),
    bursts: positiveInt('--bursts', o.bursts, FULL_SCALE.bursts, 0),
    burstSize: positiveInt('--burst-size', o.burstSize, FULL_SCALE.burstSize),
    seed: positiveInt('--seed', o.seed, FULL_SCALE.seed, 0),
  };
}

/** Waits on AWS's own schedules, in minutes: --compaction-wait (0 reads the job status once), --alarm-wait. */
export function waitsFrom(o: LabOptions): LabWaits {
  return {
    compactionMs:
      o.compactionWait === undefined
        ? DEFAULT_WAITS.compactionMs
        : integerAtLeast('--compaction-wait', o.compactionWait, 0) * 60_000,
    alarmMs:
      o.alarmWait === undefined
        ? DEFAULT_WAITS.alarmMs
        : integerAtLeast('--alarm-wait', o.alarmWait, 0) * 60_000,
  };
}

export async function labMain(names: string[] | undefined, o: LabOptions): Promise<number> {
  const kind = parseTargetKind(o.target);
  const experiments = names && names.length > 0 ? findExperiments(names) : [...EXPERIMENTS];
  const scale = scaleFrom(o);
  if (
    kind === 'aws' &&
    (o.bufferInterval !== undefined || o.dataDir !== undefined || o.authorization === false)
  ) {
    throw new InvalidOptionError(
      '--buffer-interval, --data-dir and --no-authorization apply to --target local only (AWS always authorizes).',
      o.target,
    );
  }
  if (kind === 'local' && o.compactionWait !== undefined) {
    throw new InvalidOptionError(
      `--compaction-wait ${o.compactionWait} applies to --target aws only: locally the lab asks the endpoint to run maintenance.`,
      o.compactionWait,
    );
  }
  if (kind === 'local' && o.alarmWait !== undefined) {
    throw new InvalidOptionError(
      `--alarm-wait ${o.alarmWait} applies to --target aws only: locally the lab moves the endpoint's CloudWatch clock.`,
      o.alarmWait,
    );
  }
  const waits = waitsFrom(o);
  const whole = !names || names.length === 0;
  const dataDir = resolve(o.dataDir ?? DEFAULT_LOCAL_DATA_DIR);
  // The whole lab starts from an empty local lake, as the article starts from a fresh deployment.
  if (whole && kind === 'local') resetLocalDataDir(dataDir);
  const interval = kind === 'local' ? bufferIntervalFrom(o.bufferInterval) : {};
  const target = await openTarget({
    target: kind,
    dataDir,
    ...(interval.seconds !== undefined ? { bufferIntervalSeconds: interval.seconds } : {}),
    ...(interval.reason ? { bufferIntervalReason: interval.reason } : {}),
    outputsFile: o.outputsFile,
    authorization: o.authorization !== false,
  });
  try {
    for (const line of target.banner) console.log(line);
    console.log(
      `scale: ${scale.records} records over ${scale.hours} h, ${scale.bursts} bursts of ${scale.burstSize}, seed ${scale.seed}`,
    );
    const { report, htmlPath, jsonPath } = await runLab({
      target,
      experiments,
      scale,
      outDir: resolve(o.outDir ?? resolve(REPO_ROOT, '.lab')),
      fresh: whole,
      waits,
    });
    console.log(`\n${experimentTable(report)}\n\n${differencesText(report)}`);
    console.log(`\n${runSummaryText(report)}`);
    console.log(
      `\nReport: ${htmlPath}\n        ${jsonPath}\nWall time: ${(report.wallMs / 1000).toFixed(1)} s`,
    );
    return report.experiments.some((e) => e.error) ? 1 : 0;
  } finally {
    await target.close();
  }
}

/** Empties the local endpoint's folder, refusing any folder that holds something the endpoint did not write. */
export function resetLocalDataDir(dataDir: string): void {
  if (!existsSync(dataDir)) return;
  assertDataFolderFree(dataDir, 'emptying it for a new lab');
  const foreign = readdirSync(dataDir).filter((entry) => !LOCAL_ENDPOINT_ENTRIES.has(entry));
  if (foreign.length > 0) {
    throw new InvalidOptionError(
      `--data-dir ${dataDir} holds ${foreign.slice(0, 3).join(', ')}, which the local endpoint did not write; ` +
        'the whole lab empties its data folder first, so point --data-dir at a new or lab-only folder.',
      dataDir,
    );
  }
  rmSync(dataDir, { recursive: true, force: true });
}

// What the local endpoint writes in its folder.
const LOCAL_ENDPOINT_ENTRIES = new Set<string>(Object.values(LOCAL_DATA_DIR_ENTRIES));

export function registerLabCommands(program: Command): void {
  // Root options are read only before a subcommand's name, so other command families may reuse flag names.
  program.enablePositionalOptions();
  addLabOptions(program).action((options: LabOptions) => runCli(() => labMain(undefined, options)));

  addLabOptions(
    program
      .command('run')
      .description(`run some experiments, in the order given, continuing the last lab's state`)
      .argument('<names...>', `experiment names: ${EXPERIMENTS.map((e) => e.name).join(', ')}`),
  ).action((names: string[], options: LabOptions) => runCli(() => labMain(names, options)));

  program
    .command('list')
    .description('list the experiments in order')
    .action(() => {
      for (const e of EXPERIMENTS) console.log(`${e.name.padEnd(22)} Part ${e.part}: ${e.title}`);
    });
}
