// Runs experiments in order against a target, then writes the report (.lab/report-<target>.{json,html}).
import { mkdirSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { resolveLab } from '@loglake/units';
import { ARTICLE_ROWS, judge } from '../article';
import { estimateCost } from '../cost/estimate';
import type { LabTarget } from '../target/lab-target';
import { REPO_ROOT } from '../target/open-target';
import { labCharts } from '../report/charts';
import { renderHtml } from '../report/html';
import type { ExperimentReport, LabReport, TimelineEvent } from '../report/lab-report';
import { shareableValue } from '../report/shareable';
import { runSummary } from '../report/run-summary';
import { describeError } from '../error-hints';
import { LabError } from '../errors';
import { ExperimentContext, type Experiment, type LabScale, type LabState, type LabWaits } from './context';
import {
  attributeCommits,
  measureUsage,
  mergeTimelines,
  readLabTables,
  timelineOf,
  type LabTable,
} from './run-usage';

export { mergeTimelines } from './run-usage';

export interface RunLabOptions {
  target: LabTarget;
  experiments: readonly Experiment[];
  scale: LabScale;
  /** Folder for state and reports (.lab). */
  outDir: string;
  /** Start from empty state (the whole lab); otherwise continue the last run's state. */
  fresh: boolean;
  /** The state to continue (checked by the caller); default: the state file's, or empty when fresh. */
  state?: LabState;
  /** Local: the lake the state belongs to (the data folder's manifest), recorded in the state. */
  lakeId?: string;
  /**
   * Some experiments only (`pnpm lab run`): the report is written beside the whole lab's
   * (`report-<target>-run.*`), marked partial, and the whole lab's report is kept.
   */
  partial?: boolean;
  /** Called after each experiment that ran (the lab records its lake's files). */
  afterEach?: () => void;
  /** Ctrl-C of the caller: sends and waits stop at once. */
  signal?: AbortSignal;
  /** What went wrong when an experiment failed, if something outside it can tell (e.g. its data folder is gone). */
  diagnose?: () => string | undefined;
  log?: (line: string) => void;
  /** Stop at the first experiment that throws (later ones need its state). */
  stopOnError?: boolean;
  /** How long to wait on AWS's own schedules (default DEFAULT_WAITS). */
  waits?: LabWaits;
}

export interface LabRun {
  report: LabReport;
  jsonPath: string;
  htmlPath: string;
}

export async function runLab(options: RunLabOptions): Promise<LabRun> {
  const { target, scale, outDir } = options;
  const log = options.log ?? ((line: string) => console.log(line));
  const started = new Date();
  const statePath = join(outDir, `state-${target.kind}.json`);
  const state = options.state ?? (options.fresh ? {} : ExperimentContext.loadState(statePath));
  if (options.lakeId) state.lakeId = options.lakeId;
  state.history ??= [];
  const ctx = new ExperimentContext(target, scale, state, statePath, log, options.waits);
  if (options.signal) ctx.signal = options.signal;
  ctx.saveState();
  const results: ExperimentReport[] = [];
  let beforeExpiry: TimelineEvent[] = [];
  let stoppedBy: string | undefined;
  for (const experiment of options.experiments) {
    if (options.signal?.aborted) throw interrupted();
    if (stoppedBy !== undefined) {
      // Not run: later experiments continue the state of earlier ones. A row of its own, so no count leaves it out.
      results.push({
        name: experiment.name,
        title: experiment.titleAt?.(scale) ?? experiment.title,
        part: experiment.part,
        article: ARTICLE_ROWS[experiment.name]?.article ?? '',
        result: '',
        measures: {},
        comparisons: [],
        checks: {},
        durationMs: 0,
        skipped: `${stoppedBy} failed before it, and the lab's later steps continue what the earlier ones leave`,
      });
      continue;
    }
    if (experiment.expiresSnapshots && beforeExpiry.length === 0) {
      ctx.current = 'report';
      beforeExpiry = timelineOf(await readTables(ctx));
    }
    ctx.current = experiment.name;
    const title = experiment.titleAt?.(scale) ?? experiment.title;
    log(`\n▶ ${title} (${experiment.name})`);
    // Recorded before it runs: a step that fails half-way may still have changed the lake.
    ctx.state.history = [...(ctx.state.history ?? []), experiment.name];
    ctx.saveState();
    const t0 = performance.now();
    const startedAt = new Date().toISOString();
    const article = ARTICLE_ROWS[experiment.name]?.article ?? '';
    try {
      const outcome = await experiment.run(ctx);
      // The article's figures beside this run's, and the lab's own checks, judged from what was measured.
      const judged = judge(experiment.name, outcome.measures, {
        target: target.kind,
        records: scale.records,
      });
      results.push({
        name: experiment.name,
        title,
        part: experiment.part,
        article,
        result: outcome.result,
        measures: outcome.measures,
        comparisons: judged.comparisons,
        checks: { ...outcome.checks, ...judged.checks },
        ...(outcome.details ? { details: outcome.details } : {}),
        startedAt,
        durationMs: Math.round(performance.now() - t0),
        // The experiment decided it could not run here (a unit not deployed): said so, and counted as skipped.
        ...(typeof outcome.measures.skipped === 'string' ? { skipped: outcome.measures.skipped } : {}),
      });
      log(`  ${outcome.result}`);
    } catch (error) {
      const diagnosis = options.diagnose?.();
      const message = diagnosis
        ? `${diagnosis} (what the experiment met: ${describeError(error)})`
        : describeError(error);
      results.push({
        name: experiment.name,
        title,
        part: experiment.part,
        article,
        result: '',
        measures: {},
        comparisons: [],
        checks: {},
        startedAt,
        durationMs: Math.round(performance.now() - t0),
        error: message,
      });
      log(`  FAILED: ${message}`);
      if (options.stopOnError !== false) stoppedBy = experiment.name;
    }
    options.afterEach?.();
  }
  ctx.current = 'report';
  if (options.signal?.aborted) throw interrupted();
  const tables = await readTables(ctx);
  const events = attributeCommits(mergeTimelines(beforeExpiry, timelineOf(tables)), results);
  const finished = new Date();
  const measured = await measureUsage({
    target,
    lab: await resolveLab(),
    startedAt: started,
    finishedAt: finished,
    experiments: results,
    timeline: events,
    tables,
    sends: ctx.sends,
    queries: ctx.queries,
  }).then(
    (usage) => ({ usage, cost: estimateCost(usage) }),
    (error: unknown) => ({
      usageError: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
    }),
  );
  if ('usageError' in measured) log(`  (no cost estimate: ${measured.usageError})`);
  const roots = {
    repoRoot: REPO_ROOT,
    home: homedir(),
    ...(target.dataDir ? { dataDir: target.dataDir } : {}),
  };
  // Shareable: no machine's paths anywhere in it (an error quoting a data file, a stack's frames, the banner).
  const report: LabReport = shareableValue(
    {
      startedAt: started.toISOString(),
      finishedAt: finished.toISOString(),
      target: target.kind,
      banner: target.banner,
      scale,
      experiments: results,
      timeline: events,
      charts: labCharts(results),
      queries: ctx.queries.filter((q) => q.experiment !== 'report'),
      ...measured,
      wallMs: Date.now() - started.getTime(),
      summary: runSummary(results),
      ...(options.partial ? { partial: { experiments: options.experiments.map((e) => e.name) } } : {}),
    } satisfies LabReport,
    roots,
  );
  // Interrupted: the last report stays as it was (an interrupted run's would replace it with rows it never ran).
  if (options.signal?.aborted) throw interrupted();
  mkdirSync(outDir, { recursive: true });
  const base = reportBaseName(target.kind, options.partial === true);
  const jsonPath = join(outDir, `${base}.json`);
  const htmlPath = join(outDir, `${base}.html`);
  writeFileSync(jsonPath, `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(htmlPath, renderHtml(report));
  return { report, jsonPath, htmlPath };
}

/** The run was stopped (Ctrl-C): no report is written. */
export class RunInterruptedError extends LabError {
  override readonly name = 'RunInterruptedError';
}

const interrupted = () => new RunInterruptedError('The run was interrupted: no report was written.', {});

/** `report-<target>` for the whole lab, `report-<target>-run` for some experiments (the whole lab's is kept). */
export function reportBaseName(kind: string, partial: boolean): string {
  return `report-${kind}${partial ? '-run' : ''}`;
}

/** The lab's tables as the Iceberg REST catalog has them; none yet (a partial run before the load) is no lane. */
async function readTables(ctx: ExperimentContext): Promise<LabTable[]> {
  try {
    return await readLabTables(ctx.target);
  } catch (error) {
    ctx.log(`  (the tables could not be read for the report: ${(error as Error).message})`);
    return [];
  }
}
