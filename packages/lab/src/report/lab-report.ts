// The lab's report as data: what ran where, each experiment's measured result, the snapshot timeline, what each
// query read, the pictures drawn from the experiments' measures, what the run used of each AWS service and what
// that would cost there. Written as JSON and rendered to the terminal and to HTML.
import type { Comparison } from '../article';
import type { CostEstimate } from '../cost/estimate';
import type { RunUsage } from '../cost/usage';
import type { LabScale, QueryRecord } from '../experiments/context';
import type { TargetKind } from '../target/resources';
import type { LabChart } from './charts';
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
  /** When it started (ISO); with durationMs, which commits on the timeline it made. */
  startedAt?: string;
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
  /** Data and delete files the commit added, and removed (a compaction's inputs). */
  addedFiles?: number;
  removedFiles?: number;
  /** Bytes of the files it added and removed. */
  addedBytes?: number;
  removedBytes?: number;
  /** The experiment running when it was committed. */
  experiment?: string;
  /** Expired later in the run (read before the undo window closed, gone at the end). */
  expired?: boolean;
}

export interface LabReport {
  startedAt: string;
  finishedAt: string;
  target: TargetKind;
  /** Where the lab ran and what differs from the defaults, without machine paths (shareable). */
  banner: string[];
  scale: LabScale;
  /**
   * Present when the report holds only some experiments (`pnpm lab run <names>`), which it names; the whole lab's
   * report is kept apart.
   */
  partial?: { experiments: string[] };
  experiments: ExperimentReport[];
  timeline: TimelineEvent[];
  /** The pictures, drawn from the experiments' measures (a picture whose figures are missing says why). */
  charts: LabChart[];
  queries: QueryRecord[];
  /** What this run used of each AWS service, measured (absent in reports written before it was kept). */
  usage?: RunUsage;
  /** What that would cost on AWS, per service, and per day and month left running. */
  cost?: CostEstimate;
  /** Why there is no usage or estimate (measuring it failed; the rest of the report stands). */
  usageError?: string;
  wallMs: number;
  /** Counts of the rows' verdicts, failures and skips: what the run showed, for the terminal and readers of the JSON. */
  summary?: RunSummary;
}
