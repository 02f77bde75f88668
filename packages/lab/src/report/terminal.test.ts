// The terminal table's verdict column and the lines under it, from rows whose comparisons and checks are judged as
// a run would judge them.
import { describe, expect, test } from '@jest/globals';
import { judge } from '../article';
import type { ExperimentReport, LabReport } from './lab-report';
import { differencesText, experimentTable } from './terminal';
import { rowVerdict } from './verdict';

const ENV = { target: 'local' as const, records: 50_000 };
const row = (
  name: string,
  measures: Record<string, number | string>,
  extra: Partial<ExperimentReport> = {},
) => {
  const judged = judge(name, measures, ENV);
  return {
    name,
    title: name,
    part: 1 as const,
    article: `article says ${name}`,
    result: `we saw ${name}`,
    measures,
    comparisons: judged.comparisons,
    checks: judged.checks,
    durationMs: 1,
    ...extra,
  };
};
const report = (experiments: ExperimentReport[]) => ({ experiments }) as LabReport;

describe('the verdict of a row', () => {
  test('same, differs (k of n), no figure, lab’s choice, failed checks, FAILED', () => {
    expect(rowVerdict(row('undo', { rowsBeforeDelete: 5, deleted: 5 })).summary).toBe('same');
    expect(
      rowVerdict(row('compaction', { jobStatus: 'Successful', runs: 2, replaceSnapshots: 1 })).summary,
    ).toBe("differs (1 of 3) · lab's choice");
    expect(rowVerdict(row('sort-order', {}, { checks: { goal20x: false } })).summary).toBe(
      'no figure · check failed: goal20x',
    );
    expect(rowVerdict(row('undo', {}, { error: 'boom' })).summary).toBe('FAILED');
  });

  test('the lines under the table name each difference with its rule and why, and each lab choice', () => {
    const text = differencesText(
      report([
        row('compaction', { jobStatus: 'Successful', runs: 2, replaceSnapshots: 1 }),
        row('sort-order', {}, { checks: { goal20x: false } }),
      ]),
    );
    expect(text).toContain(
      '- compaction · rewrites ($snapshots replace): 0 → 1 (rule: equal). Why: the local engine',
    );
    expect(text).toContain(
      '- compaction · runs watched: locally the lab asks the endpoint for two maintenance runs',
    );
    expect(text).toContain("The lab's own checks that failed:\n- sort-order · goal20x");
    expect(differencesText(report([row('undo', { rowsBeforeDelete: 5, deleted: 5 })]))).toBe(
      'Every figure the article gives is the same here.',
    );
  });

  test('the table shows the article beside this run, and the verdict', () => {
    const table = experimentTable(report([row('undo', { rowsBeforeDelete: 5, deleted: 5 })]));
    expect(table).toMatch(/│ Experiment +│ The article +│ This run +│ Verdict +│/);
    expect(table).toMatch(/│ undo +│ article says undo +│ we saw undo +│ same +│/);
  });
});
