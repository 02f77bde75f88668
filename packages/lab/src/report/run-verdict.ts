// The whole run's verdict in one line: how many rows are the same as the article, differ, have no figure to
// compare, failed, were not run or skipped, and how many of the lab's own checks failed. The HTML report puts it at the top (each count
// linking to its rows); the terminal prints the same line.
import type { LabReport } from './lab-report';
import { rowVerdict, type RowVerdict } from './verdict';

export type VerdictCount = 'same' | 'differs' | 'no-figure' | 'failed' | 'skipped' | 'checks-failed';

export interface VerdictRow {
  name: string;
  title: string;
}

export interface RunVerdict {
  counts: Record<VerdictCount, number>;
  /** The rows behind each count, in run order (a row with failed checks is also counted under its status). */
  rows: Record<VerdictCount, VerdictRow[]>;
  /** Failed checks, each named with its row. */
  failedChecks: { row: VerdictRow; check: string }[];
  experiments: number;
  /** A partial run (`pnpm lab run <names>`): which experiments ran. */
  partial?: string[];
}

const STATUS_COUNT: Record<RowVerdict['status'], VerdictCount> = {
  same: 'same',
  differs: 'differs',
  'no-figure': 'no-figure',
  error: 'failed',
  skipped: 'skipped',
};

export function runVerdict(report: Pick<LabReport, 'experiments' | 'partial'>): RunVerdict {
  const rows: RunVerdict['rows'] = {
    same: [],
    differs: [],
    'no-figure': [],
    failed: [],
    skipped: [],
    'checks-failed': [],
  };
  const failedChecks: RunVerdict['failedChecks'] = [];
  for (const e of report.experiments) {
    const v = rowVerdict(e);
    const row = { name: e.name, title: e.title };
    rows[STATUS_COUNT[v.status]].push(row);
    if (v.failedChecks.length > 0) rows['checks-failed'].push(row);
    for (const check of v.failedChecks) failedChecks.push({ row, check });
  }
  const counts = {
    same: rows.same.length,
    differs: rows.differs.length,
    'no-figure': rows['no-figure'].length,
    failed: rows.failed.length,
    skipped: rows.skipped.length,
    'checks-failed': failedChecks.length,
  };
  return {
    counts,
    rows,
    failedChecks,
    experiments: report.experiments.length,
    ...(report.partial ? { partial: report.partial.experiments } : {}),
  };
}

/** Whether the run showed less than it set out to: a row failed, or one of the lab's own checks did. */
export function runFailed(report: Pick<LabReport, 'experiments' | 'partial'>): boolean {
  const { counts } = runVerdict(report);
  return counts.failed > 0 || counts['checks-failed'] > 0;
}

/** The words of each count, e.g. "4 differ", "1 check failed". */
export function countText(kind: VerdictCount, n: number): string {
  switch (kind) {
    case 'same':
      return `${n} same`;
    case 'differs':
      return `${n} ${n === 1 ? 'differs' : 'differ'}`;
    case 'no-figure':
      return `${n} no figure`;
    case 'failed':
      return `${n} failed`;
    case 'skipped':
      return `${n} not run`;
    case 'checks-failed':
      return `${n} ${n === 1 ? 'check' : 'checks'} failed`;
  }
}

export const VERDICT_ORDER: readonly VerdictCount[] = [
  'same',
  'differs',
  'no-figure',
  'failed',
  'skipped',
  'checks-failed',
];

/** "23 experiments: 15 same · 4 differ · 4 no figure · 0 failed · 0 checks failed" (partial runs say so first). */
export function verdictLine(report: Pick<LabReport, 'experiments' | 'partial'>): string {
  const v = runVerdict(report);
  const head = v.partial
    ? `Partial run (pnpm lab run ${v.partial.join(' ')}), ${v.experiments} experiment${v.experiments === 1 ? '' : 's'}`
    : `${v.experiments} experiment${v.experiments === 1 ? '' : 's'}`;
  return `${head}: ${VERDICT_ORDER.map((k) => countText(k, v.counts[k])).join(' · ')}`;
}
