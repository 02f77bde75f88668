// `pnpm lab snapshot [--date YYYY-MM-DD] [--demo]`: the daily snapshot pipeline, offline (snapshot-main.ts, loaded
// when the command runs): the real state-machine definition on aws-local-stepfunctions, both Lambda handlers
// in-process against the local endpoint; the SNS alert and the EMF metrics are captured and printed, never sent.
import type { Command } from 'commander';
import { runCli } from '../cli-support';

export interface SnapshotOptions {
  date?: string;
  snapshot?: string;
  dataDir?: string;
  demo?: boolean;
  target: string;
  outputsFile?: string;
}

export function registerSnapshotCommands(program: Command): void {
  program
    .command('snapshot')
    .description(
      'Run the daily snapshot state machine offline (local endpoint, in-process Lambdas, SNS captured)',
    )
    .option('--date <YYYY-MM-DD>', 'build this day (it must be complete); default: the newest complete day')
    .option('--snapshot <name>', 'which configured snapshot (default: the first in the snapshots unit)')
    .option('--data-dir <dir>', 'local endpoint state folder (default .lab/local, the lab data)')
    .option(
      '--demo',
      'fresh folder, synthetic days: publish the newest complete day, refuse a partial day, publish it once complete (no --date)',
    )
    .option(
      '-t, --target <target>',
      'local (default: local endpoint, no AWS account) or aws (start the deployed state machine)',
      'local',
    )
    .option(
      '--outputs-file <file>',
      'aws only: `cdktf output --outputs-file` JSON (default .lab/cdktf-outputs.json)',
    )
    .action((options: SnapshotOptions) =>
      runCli(async () => (await import('./snapshot-main')).snapshotMain(options)),
    );
}
