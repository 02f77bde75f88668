// What a run showed, counted: rows whose figures are the article's, rows that differ, rows without a figure, rows
// that failed or were skipped, and failed checks. A summary line is only as strong as these counts allow.
import type { ExperimentReport } from './lab-report';
import { rowVerdict } from './verdict';

export interface RunSummary {
  rows: number;
  /** Rows whose every figure is the article's. */
  same: number;
  /** Rows with at least one figure that differs. */
  differs: number;
  /** Rows that ran and have no figure to compare. */
  noFigure: number;
  /** Rows that failed (an error: nothing they were to show was shown). */
  failed: number;
  /** Rows not run (an earlier row failed) or skipped (e.g. a stack not deployed). */
  skipped: number;
  /** The lab's own checks that failed, over all rows. */
  checksFailed: number;
}

export function runSummary(experiments: readonly ExperimentReport[]): RunSummary {
  const summary: RunSummary = {
    rows: experiments.length,
    same: 0,
    differs: 0,
    noFigure: 0,
    failed: 0,
    skipped: 0,
    checksFailed: 0,
  };
  for (const e of experiments) {
    const v = rowVerdict(e);
    summary.checksFailed += v.failedChecks.length;
    if (v.status === 'error') summary.failed++;
    else if (v.status === 'skipped') summary.skipped++;
    else if (v.status === 'differs') summary.differs++;
    else if (v.status === 'no-figure') summary.noFigure++;
    else summary.same++;
  }
  return summary;
}

/** True when the run showed everything it set out to: no row failed or was skipped, no check failed. */
export function complete(summary: RunSummary): boolean {
  return summary.failed === 0 && summary.skipped === 0 && summary.checksFailed === 0;
}
