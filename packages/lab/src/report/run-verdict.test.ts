// The run's verdict line: counts from rows judged as a run judges them, and the same line in the terminal.
import { describe, expect, test } from '@jest/globals';
import { judge } from '../article';
import type { ExperimentReport } from './lab-report';
import { runSummaryText } from './run-summary-text';
import { runVerdict, verdictLine } from './run-verdict';

const ENV = { target: 'local' as const, records: 50_000 };
const row = (
  name: string,
  measures: Record<string, number | string>,
  extra: Partial<ExperimentReport> = {},
) => {
  const judged = judge(name, measures, ENV);
  return {
    name,
    title: `title of ${name}`,
    part: 1 as const,
    article: '',
    result: '',
    measures,
    comparisons: judged.comparisons,
    checks: judged.checks,
    durationMs: 1,
    ...extra,
  };
};

const experiments = [
  row('undo', { rowsBeforeDelete: 5, deleted: 5 }), // same
  row('time-travel', { rows: 10, bytesScanned: 0 }), // same
  row('compaction', { jobStatus: 'Successful', runs: 2, replaceSnapshots: 1 }), // differs
  row('bad-records', {}, { checks: { alarmFired: false, goodRowsLanded: false, errorCodeOnEach: true } }), // no figure
  row('one-hour', {}, { error: 'boom', checks: {}, comparisons: [] }), // failed (as run-lab records it)
  row('laptop-client', {}, { skipped: 'one-hour failed before it', checks: {}, comparisons: [] }), // not run
];

describe("the run's verdict", () => {
  test('counts each row once by its verdict, and every failed check', () => {
    const v = runVerdict({ experiments });
    expect(v.counts).toEqual({
      same: 2,
      differs: 1,
      'no-figure': 1,
      failed: 1,
      skipped: 1,
      'checks-failed': 2,
    });
    expect(v.rows.skipped.map((r) => r.name)).toEqual(['laptop-client']);
    expect(v.rows.differs.map((r) => r.name)).toEqual(['compaction']);
    expect(v.failedChecks.map((f) => `${f.row.name} ${f.check}`)).toEqual([
      'bad-records alarmFired',
      'bad-records goodRowsLanded',
    ]);
    expect(verdictLine({ experiments })).toBe(
      '6 experiments: 2 same · 1 differs · 1 no figure · 1 failed · 1 not run · 2 checks failed',
    );
  });

  test('a contradicting row moves its count: a same row that differs, a passing check that fails', () => {
    const changed = [
      row('undo', { rowsBeforeDelete: 5, deleted: 4 }),
      ...experiments.slice(1, 3),
      row('bad-records', {}, { checks: { alarmFired: true, goodRowsLanded: true, errorCodeOnEach: true } }),
      experiments[4] as ExperimentReport,
      row('laptop-client', {}), // it ran this time: no figure
    ];
    expect(runVerdict({ experiments: changed }).counts).toEqual({
      same: 1,
      differs: 2,
      'no-figure': 2,
      failed: 1,
      skipped: 0,
      'checks-failed': 0,
    });
    expect(verdictLine({ experiments: changed })).toBe(
      '6 experiments: 1 same · 2 differ · 2 no figure · 1 failed · 0 not run · 0 checks failed',
    );
  });

  test('a partial run says so first', () => {
    expect(verdictLine({ experiments: experiments.slice(0, 1), partial: { experiments: ['undo'] } })).toBe(
      'Partial run (pnpm lab run undo), 1 experiment: 1 same · 0 differ · 0 no figure · 0 failed · 0 not run · 0 checks failed',
    );
  });

  test('the terminal prints the verdict line, then the cost estimate when there is one', () => {
    expect(runSummaryText({ experiments })).toBe(
      'Verdict: 6 experiments: 2 same · 1 differs · 1 no figure · 1 failed · 1 not run · 2 checks failed',
    );
  });
});
