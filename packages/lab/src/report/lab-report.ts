// The lab's report as data: what ran where, each experiment's measured result, the snapshot timeline and what
// each query read. Written as JSON and rendered to the terminal and to HTML.
import type { Comparison } from '../article';
import type { LabScale, QueryRecord } from '../experiments/context';
import type { TargetKind } from '../target/resources';
import type { RunSummary } from './run-summary';

export interface ExperimentReport {
  name: string;
  title: string;
  part: 1 | 2 | 3;
  result: string;
  /** The article's words for this row (or what it says is still to come). */
  article: string;
  measures: Record<string, number | string>;
  /** The article's figures beside this run's, each with its rule, verdict and (when it differs) why. */
  comparisons: Comparison[];
  /** The lab's own checks of this row (what must hold for it to mean anything). */
  checks: Record<string, boolean>;
  /** Itemized outcomes shown under the result (each attempt of the analyst, with its error). */
  details?: { label: string; text: string }[];
  durationMs: number;
  error?: string;
  /** Why the row measured nothing though it did not fail: not run (an earlier row failed), or skipped (the reason). */
  skipped?: string;
}

export interface TimelineEvent {
  table: string;
  committedAt: string;
  snapshotId: string;
  operation: string;
  addedRecords: number;
}

export interface BytesBar {
  label: string;
  bytes: number;
}

export interface LabReport {
  startedAt: string;
  finishedAt: string;
  target: TargetKind;
  banner: string[];
  scale: LabScale;
  experiments: ExperimentReport[];
  timeline: TimelineEvent[];
  charts: { title: string; bars: BytesBar[] }[];
  queries: QueryRecord[];
  wallMs: number;
  /** Counts of the rows' verdicts, failures and skips: what the run showed, for the terminal and readers of the JSON. */
  summary?: RunSummary;
  /**
   * Present when the report holds only some experiments (`pnpm lab run <names>`), which it names; the whole lab's
   * report is kept apart.
   */
  partial?: { experiments: string[] };
}
