// The terminal table's verdict column and the lines under it, from rows whose comparisons and checks are judged as
// a run would judge them.
import { describe, expect, test } from '@jest/globals';
import { judge } from '../article';
import type { ExperimentReport, LabReport } from './lab-report';
import { differencesText, experimentTable, FULL_TABLE_WIDTH } from './terminal';
import { runSummary } from './run-summary';
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

describe('the summary never says more than the run showed', () => {
  const failed = row(
    'undo',
    {},
    { error: 'CredentialsProviderError: Could not load credentials from any providers' },
  );
  const notRun = row('compaction', {}, { result: '', skipped: 'undo failed before it, and …' });
  const skippedByItself = row(
    'daily-snapshot',
    { skipped: 'no snapshots unit' },
    { result: 'skipped: no snapshots unit', skipped: 'no snapshots unit' },
  );

  test('the only row failed: no "same", the failure listed and counted', () => {
    const text = differencesText(report([failed]));
    expect(text).not.toContain('Every figure the article gives is the same here.');
    expect(text).toContain(
      'Rows that failed (nothing they were to show was measured):\n- undo: CredentialsProviderError',
    );
    expect(text).toContain('No figure of the article was compared in this run (1 row failed).');
    expect(runSummary([failed])).toMatchObject({ rows: 1, failed: 1, same: 0 });
  });

  test('same figures beside a failed and a skipped row: said, with what was not compared', () => {
    const same = row('undo', { rowsBeforeDelete: 5, deleted: 5 });
    const text = differencesText(report([same, failed, notRun, skippedByItself]));
    expect(text).toContain(
      "Every figure this run measured is the article's, but 1 row failed and 2 rows were not run or skipped: their figures were not compared.",
    );
    expect(text).toMatch(
      /Rows not run or skipped:\n- compaction: undo failed before it.*\n- daily-snapshot: no snapshots unit/,
    );
    expect(rowVerdict(notRun).summary).toBe('skipped');
    expect(runSummary([same, failed, notRun, skippedByItself])).toMatchObject({
      same: 1,
      failed: 1,
      skipped: 2,
    });
  });

  test('differences beside a failure: both said', () => {
    const text = differencesText(
      report([row('compaction', { jobStatus: 'Successful', runs: 2, replaceSnapshots: 1 }), failed]),
    );
    expect(text).toContain('Where this run differs from the article');
    expect(text).toContain('Not compared: 1 row failed.');
  });
});

describe('the table fits the terminal', () => {
  const long = 'a long sentence of the article about commits and snapshots, '.repeat(3);
  const rows = [
    row(
      'compaction',
      { jobStatus: 'Successful', runs: 2, replaceSnapshots: 1 },
      { title: 'Wait for compaction', article: long, result: long },
    ),
    row('undo', {}, { title: 'Undo by timestamp', error: 'ExperimentFailedError: undo needs beforeDelete' }),
  ];
  const widest = (text: string) => Math.max(...text.split('\n').map((l) => [...l].length));

  test.each([40, 60, 80, 100, 119, 120, 140, 172])('%i columns: every line fits', (width) => {
    expect(widest(experimentTable(report(rows), width))).toBeLessThanOrEqual(width);
    expect(widest(differencesText(report(rows), width))).toBeLessThanOrEqual(width);
  });

  test('from 120 columns a 4-column table, below that a block per row; wide terminals get the full layout', () => {
    expect(experimentTable(report(rows), 130)).toMatch(/^┌/);
    expect(experimentTable(report(rows), 100)).toMatch(/^── Wait for compaction · differs \(1 of 3\)/);
    expect(experimentTable(report(rows), 100)).toContain('   This run    FAILED: ExperimentFailedError');
    expect(experimentTable(report(rows), 300)).toBe(experimentTable(report(rows)));
    expect(widest(experimentTable(report(rows)))).toBe(FULL_TABLE_WIDTH);
  });
});
