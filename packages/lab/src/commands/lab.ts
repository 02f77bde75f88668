// `pnpm lab`: runs the whole lab (default), `pnpm lab run <name...>` some experiments, `pnpm lab list` names them,
// `pnpm lab reset` empties the local lake. --target local (default: in-process endpoint, never AWS) or aws (deployed
// stacks' outputs). Every flag is checked before anything is touched.
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { integerAtLeast, refuseUnknownCommand, runCli } from '../cli-support';
import { InvalidOptionError, LabError } from '../errors';
import { DEFAULT_COMPACTION_WAIT_MS } from '../experiments/compaction-wait';
import {
  DEFAULT_ALARM_WAIT_MS,
  DEFAULT_WAITS,
  ExperimentContext,
  FULL_SCALE,
  type LabScale,
  type LabState,
  type LabWaits,
} from '../experiments/context';
import { EXPERIMENTS, findExperiments } from '../experiments/registry';
import { reportBaseName, runLab } from '../experiments/run-lab';
import { refuseStaleRows } from '../experiments/table-effects';
import { outputColumns } from '../report/format';
import { differencesText, experimentTable } from '../report/terminal';
import { bufferIntervalFrom, LOCAL_LAB_BUFFER_INTERVAL_SECONDS } from '../target/buffer-interval';
import { diagnoseDataFolder } from '../target/data-folder';
import type { LabTarget } from '../target/lab-target';
import { DEFAULT_LOCAL_DATA_DIR, REPO_ROOT, openTarget, parseTargetKind } from '../target/open-target';
import {
  beginLakeRun,
  continueLake,
  finishLake,
  recordLakeProgress,
  resetLake,
  startWholeLabLake,
  type LakeSession,
} from './lake-policy';

export { bufferIntervalFrom, LOCAL_LAB_BUFFER_INTERVAL_SECONDS };

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
  /** The whole lab empties the lake even when it holds data the lab did not write. */
  discardData?: boolean;
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
      "local only: the local lake, the endpoint's data folder (default .lab/local; the whole lab empties it first, saying so)",
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

/** Flags that only make sense on one target, refused on the other before anything runs. */
function checkTargetFlags(kind: 'local' | 'aws', o: LabOptions): void {
  if (
    kind === 'aws' &&
    (o.bufferInterval !== undefined ||
      o.dataDir !== undefined ||
      o.authorization === false ||
      o.discardData !== undefined)
  ) {
    throw new InvalidOptionError(
      '--buffer-interval, --data-dir, --no-authorization and --discard-data apply to --target local only (AWS always authorizes).',
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
}

export async function labMain(names: string[] | undefined, o: LabOptions): Promise<number> {
  // Every flag first: a typo must not cost a lake.
  const kind = parseTargetKind(o.target);
  const whole = !names || names.length === 0;
  const experiments = whole ? [...EXPERIMENTS] : findExperiments(names);
  const scale = scaleFrom(o);
  checkTargetFlags(kind, o);
  const waits = waitsFrom(o);
  const interval = kind === 'local' ? bufferIntervalFrom(o.bufferInterval) : {};
  if (!whole && o.discardData)
    throw new InvalidOptionError(
      '--discard-data empties the lake before the whole lab; `pnpm lab run` continues a lake and empties nothing (`pnpm lab reset` empties it).',
      'discard-data',
    );
  const outDir = resolve(o.outDir ?? resolve(REPO_ROOT, '.lab'));
  const statePath = join(outDir, `state-${kind}.json`);
  const dataDir = resolve(o.dataDir ?? DEFAULT_LOCAL_DATA_DIR);

  // The state this run continues, and the lake it belongs to (local).
  const state: LabState = whole ? {} : ExperimentContext.loadState(statePath);
  let lake: LakeSession | undefined;
  if (kind === 'local')
    lake = whole
      ? startWholeLabLake(dataDir, { discardData: o.discardData, say: (line) => console.log(line) })
      : continueLake(dataDir, state, statePath);
  if (!whole) {
    const refusals = refuseStaleRows(
      experiments.map((e) => e.name),
      state.history ?? [],
      EXPERIMENTS.map((e) => e.name),
      lake?.foreign ?? [],
    );
    if (refusals.length > 0)
      throw new LabError(
        `Not run: ${refusals.map((r) => `${r.experiment} — ${r.reason}`).join('; ')}. Its figures would measure ` +
          "those changes, not the lab's step. Run the whole lab again (`pnpm lab`), or start a new lake and run up " +
          'to it: `pnpm lab reset`, then `pnpm lab run <every experiment up to it, in order>` (`pnpm lab list`).',
        refusals.map((r) => r.experiment),
      );
  }

  if (lake) beginLakeRun(lake);
  let target: LabTarget;
  try {
    target = await openTarget({
      target: kind,
      dataDir,
      ...(interval.seconds !== undefined ? { bufferIntervalSeconds: interval.seconds } : {}),
      ...(interval.reason ? { bufferIntervalReason: interval.reason } : {}),
      outputsFile: o.outputsFile,
      authorization: o.authorization !== false,
    });
  } catch (error) {
    if (lake) finishLake(lake);
    throw error;
  }
  // Ctrl-C stops the run at once: the endpoint stops (delivering what it holds), the lake records what the lab
  // wrote, and no report is written (the last one is kept). A second Ctrl-C quits without waiting.
  const interrupt = new AbortController();
  const onSigint = () => {
    if (interrupt.signal.aborted) process.exit(130);
    interrupt.abort();
    console.error(
      '\nInterrupted (Ctrl-C): stopping; no report is written, the last one is kept (Ctrl-C again to quit now).',
    );
    void target
      .close()
      .catch(() => undefined)
      .finally(() => {
        if (lake) finishLake(lake);
        console.error(`Stopped.${lake ? ` The lake in ${lake.dataDir} is recorded as the lab's.` : ''}`);
        process.exit(130);
      });
  };
  process.on('SIGINT', onSigint);
  try {
    for (const line of target.banner) console.log(line);
    console.log(
      `scale: ${scale.records} records over ${scale.hours} h, ${scale.bursts} bursts of ${scale.burstSize}, seed ${scale.seed}`,
    );
    const { report, htmlPath, jsonPath } = await runLab({
      target,
      experiments,
      scale,
      outDir,
      fresh: whole,
      state,
      ...(lake ? { lakeId: lake.manifest.lakeId } : {}),
      partial: !whole,
      waits,
      signal: interrupt.signal,
      ...(lake ? { afterEach: () => recordLakeProgress(lake) } : {}),
      ...(kind === 'local' ? { diagnose: () => diagnoseDataFolder(dataDir)?.message } : {}),
    });
    if (interrupt.signal.aborted) return new Promise<number>(() => undefined); // the handler exits
    const width = outputColumns();
    console.log(`\n${experimentTable(report, width)}\n\n${differencesText(report, width)}`);
    const kept = whole
      ? ''
      : `\n(the whole lab's report stays in ${join(outDir, `${reportBaseName(kind, false)}.html`)})`;
    console.log(
      `\nReport: ${htmlPath}\n        ${jsonPath}${kept}\nWall time: ${(report.wallMs / 1000).toFixed(1)} s`,
    );
    return report.experiments.some((e) => e.error) ? 1 : 0;
  } finally {
    if (!interrupt.signal.aborted) {
      process.off('SIGINT', onSigint);
      await target.close();
      if (lake) finishLake(lake);
    }
  }
}

async function resetMain(o: { dataDir?: string; outDir?: string; dryRun?: boolean }): Promise<number> {
  const outDir = resolve(o.outDir ?? resolve(REPO_ROOT, '.lab'));
  resetLake(resolve(o.dataDir ?? DEFAULT_LOCAL_DATA_DIR), [join(outDir, 'state-local.json')], {
    dryRun: o.dryRun,
    say: (line) => console.log(line),
  });
  return 0;
}

export function registerLabCommands(program: Command): void {
  // Root options are read only before a subcommand's name, so other command families may reuse flag names.
  program.enablePositionalOptions();
  addLabOptions(program)
    .option(
      '--discard-data',
      'local only: empty the lake even when it holds data the lab did not write (a `pnpm load`, a query, `pnpm lab local`)',
    )
    // Words after `pnpm lab` that name no command are reported as an unknown command, not as extra arguments.
    .allowExcessArguments(true)
    .action((options: LabOptions, command: Command) =>
      runCli(async () => {
        refuseUnknownCommand(program, command.args);
        return labMain(undefined, options);
      }),
    );

  addLabOptions(
    program
      .command('run')
      .description(
        "run some experiments, in the order given, continuing the last lab's lake and state; writes its own report (report-<target>-run.*), keeping the whole lab's",
      )
      .argument('<names...>', `experiment names: ${EXPERIMENTS.map((e) => e.name).join(', ')}`),
  ).action((names: string[], options: LabOptions) => runCli(() => labMain(names, options)));

  program
    .command('list')
    .description('list the experiments in order')
    .action(() => {
      for (const e of EXPERIMENTS) console.log(`${e.name.padEnd(22)} Part ${e.part}: ${e.title}`);
    });

  program
    .command('reset')
    .description(
      "empty the local lake (the data folder, default .lab/local) and remove the lab's state for it (.lab/state-local.json); keeps the reports, .lab/node, benchmarks and Terraform files",
    )
    .option('--data-dir <dir>', 'the local lake to empty (default .lab/local)')
    .option('--out-dir <dir>', 'where the lab keeps its state (default .lab)')
    .option('--dry-run', 'say what would be removed, remove nothing')
    .action((options: { dataDir?: string; outDir?: string; dryRun?: boolean }) =>
      runCli(() => resetMain(options)),
    );
}
