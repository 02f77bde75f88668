// What a run showed, counted: rows whose figures are the article's, rows that differ, rows without a figure, rows
// that failed or were skipped, and failed checks. A summary line is only as strong as these counts allow.
import type { ExperimentReport } from './lab-report';
import { runVerdict } from './run-verdict';

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

/** The counts of runVerdict (the one classifier of rows), as the report JSON keeps them. */
export function runSummary(experiments: readonly ExperimentReport[]): RunSummary {
  const { counts } = runVerdict({ experiments: [...experiments] });
  return {
    rows: experiments.length,
    same: counts.same,
    differs: counts.differs,
    noFigure: counts['no-figure'],
    failed: counts.failed,
    skipped: counts.skipped,
    checksFailed: counts['checks-failed'],
  };
}

/** True when the run showed everything it set out to: no row failed or was skipped, no check failed. */
export function complete(summary: RunSummary): boolean {
  return summary.failed === 0 && summary.skipped === 0 && summary.checksFailed === 0;
}
