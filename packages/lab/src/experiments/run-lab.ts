// Runs experiments in order against a target, then writes the report (.lab/report-<target>.{json,html}).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ARTICLE_ROWS, judge } from '../article';
import type { LabTarget } from '../target/lab-target';
import { renderHtml } from '../report/html';
import type { ExperimentReport, LabReport, TimelineEvent } from '../report/lab-report';
import { runSummary } from '../report/run-summary';
import { describeError } from '../error-hints';
import { LabError } from '../errors';
import { ExperimentContext, type Experiment, type LabScale, type LabState, type LabWaits } from './context';

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
      beforeExpiry = await timeline(ctx);
    }
    ctx.current = experiment.name;
    const title = experiment.titleAt?.(scale) ?? experiment.title;
    log(`\n▶ ${title} (${experiment.name})`);
    // Recorded before it runs: a step that fails half-way may still have changed the lake.
    ctx.state.history = [...(ctx.state.history ?? []), experiment.name];
    ctx.saveState();
    const t0 = performance.now();
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
        durationMs: Math.round(performance.now() - t0),
        error: message,
      });
      log(`  FAILED: ${message}`);
      if (options.stopOnError !== false) stoppedBy = experiment.name;
    }
    options.afterEach?.();
  }
  ctx.current = 'report';
  const report: LabReport = {
    startedAt: started.toISOString(),
    finishedAt: new Date().toISOString(),
    target: target.kind,
    banner: target.banner,
    scale,
    experiments: results,
    timeline: mergeTimelines(beforeExpiry, await timeline(ctx)),
    charts: charts(results),
    queries: ctx.queries.filter((q) => q.experiment !== 'report'),
    wallMs: Date.now() - started.getTime(),
    summary: runSummary(results),
    ...(options.partial ? { partial: { experiments: options.experiments.map((e) => e.name) } } : {}),
  };
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

const interrupted = () =>
  new RunInterruptedError('The run was interrupted: no report was written.', undefined);

/** `report-<target>` for the whole lab, `report-<target>-run` for some experiments (the whole lab's is kept). */
export function reportBaseName(kind: string, partial: boolean): string {
  return `report-${kind}${partial ? '-run' : ''}`;
}

async function timeline(ctx: ExperimentContext): Promise<TimelineEvent[]> {
  const sources: [string, string][] = [
    ['network.vpc_flow_logs', 'network/snapshots'],
    ['ref.host_inventory', 'ref/inventory_snapshots'],
    ['enriched.vpc_flow_logs_labelled', 'enriched/snapshots'],
  ];
  const events: TimelineEvent[] = [];
  for (const [table, query] of sources) {
    try {
      for (const s of await ctx.snapshots(query)) {
        events.push({
          table,
          committedAt: new Date(
            `${s.committed_at.replace(' ', 'T').replace(/ UTC$/, '')}Z`.replace(/ZZ$/, 'Z'),
          ).toISOString(),
          snapshotId: s.snapshot_id,
          operation: s.operation,
          addedRecords: Number(s.added_records ?? 0),
        });
      }
    } catch {
      // The table does not exist yet (a partial run): no lane for it.
    }
  }
  return events;
}

/** Every commit either reading saw, once, in time order (snapshots expired in between stay on the timeline). */
export function mergeTimelines(early: TimelineEvent[], late: TimelineEvent[]): TimelineEvent[] {
  const byKey = new Map([...early, ...late].map((e) => [`${e.table} ${e.snapshotId}`, e]));
  return [...byKey.values()].sort((a, b) => a.committedAt.localeCompare(b.committedAt));
}

function charts(results: ExperimentReport[]): LabReport['charts'] {
  const out: LabReport['charts'] = [];
  const oneHour = results.find((r) => r.name === 'one-hour' && !r.error);
  if (oneHour) {
    out.push({
      title: `The one-hour question (${oneHour.measures.hourStart})`,
      bars: [
        {
          label: 'network.vpc_flow_logs (unpartitioned)',
          bytes: Number(oneHour.measures.unpartitionedBytes),
        },
        { label: 'enriched … PARTITIONED BY hour', bytes: Number(oneHour.measures.partitionedBytes) },
      ],
    });
  }
  const travel = results.find((r) => r.name === 'time-travel' && !r.error);
  const load = results.find((r) => r.name === 'load' && !r.error);
  if (travel) {
    out.push({
      title: 'Time travel to the smoke test: count(*)',
      bars: [
        { label: 'FOR VERSION AS OF smoke snapshot', bytes: Number(travel.measures.bytesScanned) },
        ...(load
          ? [{ label: 'Parquet written by the main load', bytes: Number(load.measures.parquetBytes) }]
          : []),
      ],
    });
  }
  // Only when the sorted compaction ran and was measured (on AWS the lab does not wait for it).
  const sorted = results.find(
    (r) => r.name === 'sort-order' && !r.error && r.measures.storedBytesAfter !== undefined,
  );
  if (sorted) {
    out.push({
      title:
        'A declared sort order: stored bytes and the one-hour question, before and after sorted compaction',
      bars: [
        { label: 'stored, before', bytes: Number(sorted.measures.storedBytesBefore) },
        { label: 'stored, after', bytes: Number(sorted.measures.storedBytesAfter) },
        { label: 'one hour read, before', bytes: Number(sorted.measures.oneHourBytesBefore) },
        { label: 'one hour read, after', bytes: Number(sorted.measures.oneHourBytesAfter) },
      ],
    });
  }
  const tag = results.find((r) => r.name === 'tag-cleanup' && !r.error && r.measures.heldBytes !== undefined);
  if (tag) {
    out.push({
      title: 'The tag that breaks snapshot cleanup: bytes held while tagged, freed once removed',
      bars: [
        { label: 'held by the tag', bytes: Number(tag.measures.heldBytes) },
        { label: 'freed after removing it', bytes: Number(tag.measures.freedBytes) },
      ],
    });
  }
  const snapshot = results.find((r) => r.name === 'daily-snapshot' && !r.error && r.measures.watermark);
  if (snapshot) {
    out.push({
      title: `The analysts' query for ${snapshot.measures.watermark}: snapshot vs full history`,
      bars: [
        { label: 'network.vpc_flow_logs (full history)', bytes: Number(snapshot.measures.historyBytes) },
        { label: 'daily snapshot (latest complete day)', bytes: Number(snapshot.measures.snapshotBytes) },
      ],
    });
  }
  return out;
}
