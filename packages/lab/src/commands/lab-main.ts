// What `pnpm lab` and `pnpm lab run` do (commands/lab.ts declares them): --target local (default: in-process
// endpoint, never AWS) or aws (deployed stacks' outputs). Every flag is checked before anything is touched.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { integerAtLeast } from '../cli-support';
import { InvalidOptionError, LabError } from '../errors';
import { ExperimentContext, type LabState } from '../experiments/context';
import { DEFAULT_WAITS, FULL_SCALE, type LabScale, type LabWaits } from '../experiments/defaults';
import { EXPERIMENTS, findExperiments } from '../experiments/registry';
import { reportBaseName, runLab } from '../experiments/run-lab';
import { refuseStaleRows } from '../experiments/table-effects';
import { fitLine, outputColumns } from '../report/format';
import { runFailed } from '../report/run-verdict';
import { runSummaryText } from '../report/run-summary-text';
import { differencesText, experimentTable } from '../report/terminal';
import { bufferIntervalFrom, LOCAL_LAB_BUFFER_INTERVAL_SECONDS } from '../target/buffer-interval';
import { EXIT_RUN_FAILED, type LabOptions } from './lab';
import { diagnoseDataFolder, ensureWritableDataFolder } from '../target/data-folder';
import { requireAwsCredentials } from '../target/aws-credentials';
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
      { value: o.target },
    );
  }
  if (kind === 'local' && o.compactionWait !== undefined) {
    throw new InvalidOptionError(
      `--compaction-wait ${o.compactionWait} applies to --target aws only: locally the lab asks the endpoint to run maintenance.`,
      { value: o.compactionWait },
    );
  }
  if (kind === 'local' && o.alarmWait !== undefined) {
    throw new InvalidOptionError(
      `--alarm-wait ${o.alarmWait} applies to --target aws only: locally the lab moves the endpoint's CloudWatch clock.`,
      { value: o.alarmWait },
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
      { value: 'discard-data' },
    );
  const outDir = resolve(o.outDir ?? resolve(REPO_ROOT, '.lab'));
  const statePath = join(outDir, `state-${kind}.json`);
  const dataDir = resolve(o.dataDir ?? DEFAULT_LOCAL_DATA_DIR);
  // The report and state go there at the end: a file or a read-only folder is named now, before a lake is emptied.
  ensureWritableDataFolder(outDir, '--out-dir', 'The lab writes its reports and state there');

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
        { value: refusals.map((r) => r.experiment) },
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
  try {
    // No credentials on --target aws: one message saying how to give them, not a failed row per experiment.
    await requireAwsCredentials(target);
  } catch (error) {
    await target.close();
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
    const columns = outputColumns();
    for (const line of target.banner) console.log(fitLine(line, columns));
    console.log(
      `scale: ${scale.records} records over ${scale.hours} h, ${scale.bursts} bursts of ${scale.burstSize}, seed ${scale.seed}`,
    );
    const run = await runLab({
      target,
      experiments,
      scale,
      outDir,
      fresh: whole,
      state,
      log: (line) => console.log(fitLine(line, columns)),
      ...(lake ? { lakeId: lake.manifest.lakeId } : {}),
      partial: !whole,
      waits,
      signal: interrupt.signal,
      ...(lake ? { afterEach: () => recordLakeProgress(lake) } : {}),
      ...(kind === 'local'
        ? { diagnose: () => diagnoseDataFolder(dataDir, '--data-dir', target.dataDirIdentity)?.message }
        : {}),
    }).catch((error: unknown) => {
      // After Ctrl-C the run stops without a report; the handler stops the endpoint and exits 130.
      if (interrupt.signal.aborted) return undefined;
      throw error;
    });
    if (!run || interrupt.signal.aborted) return new Promise<number>(() => undefined); // the handler exits
    const { report, htmlPath, jsonPath } = run;
    const width = outputColumns();
    console.log(`\n${experimentTable(report, width)}\n\n${differencesText(report, width)}`);
    console.log(`\n${fitLine(runSummaryText(report), width)}`);
    const wholeReport = join(outDir, `${reportBaseName(kind, false)}.html`);
    const kept =
      !whole && existsSync(wholeReport) ? `\n(the whole lab's report is kept: ${wholeReport})` : '';
    console.log(
      `\nReport: ${htmlPath}\n        ${jsonPath}${kept}\nWall time: ${(report.wallMs / 1000).toFixed(1)} s`,
    );
    return runFailed(report) ? EXIT_RUN_FAILED : 0;
  } finally {
    if (!interrupt.signal.aborted) {
      process.off('SIGINT', onSigint);
      await target.close();
      if (lake) finishLake(lake);
    }
  }
}

export async function resetMain(o: {
  dataDir?: string;
  outDir?: string;
  dryRun?: boolean;
  discardData?: boolean;
}): Promise<number> {
  const outDir = resolve(o.outDir ?? resolve(REPO_ROOT, '.lab'));
  resetLake(resolve(o.dataDir ?? DEFAULT_LOCAL_DATA_DIR), [join(outDir, 'state-local.json')], {
    dryRun: o.dryRun,
    discardData: o.discardData,
    say: (line) => console.log(line),
  });
  return 0;
}
