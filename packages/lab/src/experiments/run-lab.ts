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
import { shareableLine } from '../report/shareable';
import { ExperimentContext, type Experiment, type LabScale, type LabWaits } from './context';
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
  const state = options.fresh ? {} : ExperimentContext.loadState(statePath);
  const ctx = new ExperimentContext(target, scale, state, statePath, log, options.waits);
  ctx.saveState();
  const results: ExperimentReport[] = [];
  let beforeExpiry: TimelineEvent[] = [];
  for (const experiment of options.experiments) {
    if (experiment.expiresSnapshots && beforeExpiry.length === 0) {
      ctx.current = 'report';
      beforeExpiry = timelineOf(await readTables(ctx));
    }
    ctx.current = experiment.name;
    const title = experiment.titleAt?.(scale) ?? experiment.title;
    log(`\n▶ ${title} (${experiment.name})`);
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
      });
      log(`  ${outcome.result}`);
    } catch (error) {
      const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
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
      if (options.stopOnError !== false) break;
    }
  }
  ctx.current = 'report';
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
  const roots = { repoRoot: REPO_ROOT, home: homedir() };
  const report: LabReport = {
    startedAt: started.toISOString(),
    finishedAt: finished.toISOString(),
    target: target.kind,
    banner: target.banner.map((line) => shareableLine(line, roots)),
    scale,
    experiments: results,
    timeline: events,
    charts: labCharts(results),
    queries: ctx.queries.filter((q) => q.experiment !== 'report'),
    ...measured,
    wallMs: Date.now() - started.getTime(),
  };
  mkdirSync(outDir, { recursive: true });
  const jsonPath = join(outDir, `report-${target.kind}.json`);
  const htmlPath = join(outDir, `report-${target.kind}.html`);
  writeFileSync(jsonPath, `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(htmlPath, renderHtml(report));
  return { report, jsonPath, htmlPath };
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
