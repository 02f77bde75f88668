// `pnpm lab`: runs the whole lab (default), `pnpm lab run <name...>` some experiments, `pnpm lab list` names them,
// `pnpm lab reset` empties the local lake. The commands and their flags only: what they do is in lab-main.ts,
// loaded when one runs (so `--help` and usage errors answer at once).
import type { Command } from 'commander';
import { refuseUnknownCommand, runCli } from '../cli-support';
import { DEFAULT_ALARM_WAIT_MS, DEFAULT_COMPACTION_WAIT_MS, FULL_SCALE } from '../experiments/defaults';
import { EXPERIMENT_NAMES } from '../experiments/table-effects';
import { LOCAL_LAB_BUFFER_INTERVAL_SECONDS } from '../target/buffer-interval';

const main = () => import('./lab-main');

/**
 * `pnpm lab` and `pnpm lab run` exit 0 only when every row ran and every check held; 2 when the run finished and
 * wrote its report but a row failed or a check did (so a script tells it from 1: refused or could not run, no
 * report); 130 after Ctrl-C.
 */
export const EXIT_RUN_FAILED = 2;

const EXIT_STATUS_HELP = [
  '',
  'Exit status:',
  '  0    every row ran and every check held',
  `  ${EXIT_RUN_FAILED}    the run finished and wrote its report, but a row failed or a check did (the verdict line says which)`,
  '  1    refused or could not run (a flag, the lake, the target): no report written',
  '  130  interrupted (Ctrl-C): no report written, the last one kept',
].join('\n');

export interface LabOptions {
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

export function registerLabCommands(program: Command): void {
  // Root options are read only before a subcommand's name, so other command families may reuse flag names.
  program.enablePositionalOptions();
  addLabOptions(program)
    .option(
      '--discard-data',
      'local only: empty the lake even when it holds files the lab did not write (a `pnpm load`, a query, `aws s3 cp` to `pnpm lab local`, a file put there by hand)',
    )
    // Words after `pnpm lab` that name no command are reported as an unknown command, not as extra arguments.
    .allowExcessArguments(true)
    .addHelpText('after', EXIT_STATUS_HELP)
    .action((options: LabOptions, command: Command) =>
      runCli(async () => {
        refuseUnknownCommand(program, command.args);
        return (await main()).labMain(undefined, options);
      }),
    );

  addLabOptions(
    program
      .command('run')
      .description(
        "run some experiments, in the order given, continuing the last lab's lake and state; writes its own report (report-<target>-run.*), keeping the whole lab's",
      )
      .argument('<names...>', `experiment names: ${EXPERIMENT_NAMES.join(', ')}`)
      .addHelpText('after', EXIT_STATUS_HELP),
  ).action((names: string[], options: LabOptions) =>
    runCli(async () => (await main()).labMain(names, options)),
  );

  program
    .command('list')
    .description('list the experiments in order')
    .action(() =>
      runCli(async () => {
        const { EXPERIMENTS } = await import('../experiments/registry');
        for (const e of EXPERIMENTS) console.log(`${e.name.padEnd(22)} Part ${e.part}: ${e.title}`);
        return 0;
      }),
    );

  program
    .command('reset')
    .description(
      "empty the local lake (the data folder, default .lab/local) and remove the lab's state for it (.lab/state-local.json); keeps the reports, .lab/node, benchmarks and Terraform files",
    )
    .option('--data-dir <dir>', 'the local lake to empty (default .lab/local)')
    .option('--out-dir <dir>', 'where the lab keeps its state (default .lab)')
    .option(
      '--discard-data',
      'also remove files the lab did not write (a `pnpm load`, a query, `aws s3 cp` to `pnpm lab local`, a file put there by hand); without it reset refuses such a lake and removes nothing',
    )
    .option(
      '--dry-run',
      'say what a real run with the same flags would remove (or refuse), listing every file the lab did not write; remove nothing',
    )
    .action((options: { dataDir?: string; outDir?: string; dryRun?: boolean; discardData?: boolean }) =>
      runCli(async () => (await main()).resetMain(options)),
    );
}
