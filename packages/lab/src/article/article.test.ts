// Every figure the lab compares with the article, and every check it judges from the measures: fed what a run that
// matches the article measures (all same, all checks pass), then, one at a time, a fabricated measurement that
// contradicts it — and that figure's verdict flips to "differs" (with its one-line why), or that check fails. The
// cases are listed per figure; a figure or check without a case fails the coverage test.
import { describe, expect, test } from '@jest/globals';
import { EXPERIMENTS } from '../experiments/registry';
import type { CompareEnv } from './comparison';
import { ARTICLE_ROWS, judge, type Measures } from './index';

const MIB = 1024 * 1024;
const LOCAL: CompareEnv = { target: 'local', records: 50_000 };
const AWS: CompareEnv = { target: 'aws', records: 50_000 };

interface Case {
  /** Measures of a run that matches the article. */
  passing: Measures;
  /** Per comparison id or check name: measures that contradict it. */
  flips: Record<string, Partial<Record<string, number | string>>>;
}

const CASES: Record<string, Case> = {
  load: {
    passing: {
      records: 50_000,
      accepted: 50_000,
      jsonBytes: 15.1 * MIB,
      parquetBytes: 1_050_000,
      mainCommits: 3,
      sendParts: 3,
      smokeCommits: 1,
    },
    flips: {
      json: { jsonBytes: 13.9 * MIB },
      parquet: { parquetBytes: 2_000_000 },
      commits: { mainCommits: 4 },
      allAccepted: { accepted: 49_990 },
      parquetSmallerThanJson: { parquetBytes: 0 },
      smokeIsOneCommit: { smokeCommits: 2 },
    },
  },
  'time-travel': {
    passing: { rows: 10, bytesScanned: 0 },
    flips: { rows: { rows: 11 }, bytes: { bytesScanned: 4096 } },
  },
  'add-columns': {
    passing: { newSnapshots: 0, filesRewritten: 0, nullRows: 100, rows: 100 },
    flips: { snapshots: { newSnapshots: 1 }, rewritten: { filesRewritten: 2 }, nulls: { nullRows: 99 } },
  },
  delete: {
    passing: {
      records: 50_000,
      scannerRows: 4018,
      positionDeletes: 4018,
      deleteFiles: 3,
      dataFilesRewritten: 0,
      commits: 1,
    },
    flips: {
      // 4,215 (the example) is within 5 %; 4,300 is not.
      positionDeletes: { positionDeletes: 4300, scannerRows: 4300 },
      deleteFiles: { deleteFiles: 13 },
      rewritten: { dataFilesRewritten: 1 },
      positionDeletesMatchRows: { scannerRows: 4020 },
      oneCommit: { commits: 2 },
    },
  },
  'top-rejected': {
    passing: { scannerListedAfterDelete: 0, scannerTopAfterBurst: 1, topAfterBurst: '198.51.100.77' },
    flips: {
      gone: { scannerListedAfterDelete: 1 },
      backOnTop: { scannerTopAfterBurst: 0, topAfterBurst: '203.0.113.9' },
    },
  },
  undo: {
    passing: { rowsBeforeDelete: 4018, deleted: 4018 },
    flips: { rows: { rowsBeforeDelete: 4000 } },
  },
  compaction: {
    passing: { jobStatus: 'Successful', runs: 2, replaceSnapshots: 0 },
    flips: { status: { jobStatus: 'Failed' }, runs: { runs: 1 }, rewrites: { replaceSnapshots: 1 } },
  },
  snapshots: {
    passing: { rows: 2, operations: 'append, delete', append: 4, delete: 1 },
    flips: { rows: { rows: 3, operations: 'append, delete, replace', replace: 1 } },
  },
  'ref-tables': {
    passing: { inventorySnapshots: 1 },
    flips: { snapshots: { inventorySnapshots: 2 } },
  },
  merge: {
    passing: {
      inventorySnapshots: 2,
      addedRows: 2,
      positionDeletes: 2,
      movedTier: 'batch',
      decommissionedTier: 'gone',
      newHostTier: 'web',
    },
    flips: {
      mergeOnRead: { positionDeletes: 0 },
      snapshots: { inventorySnapshots: 3 },
      moved: { movedTier: 'app' },
      decommissioned: { decommissionedTier: 'web' },
      appeared: { newHostTier: 'gone' },
    },
  },
  'merge-duplicate': {
    passing: { snapshotsBefore: 2, snapshotsAfter: 2, reason: 'MERGE_TARGET_ROW_MULTIPLE_MATCHES: one row…' },
    flips: { refused: { reason: '' }, snapshots: { snapshotsAfter: 3 } },
  },
  'join-as-of-now': {
    passing: { web04ToUnknown: 5918, app08ToBatch: 2150, app08TierNow: 'batch' },
    flips: { web04: { web04ToUnknown: 0 }, app08: { app08TierNow: 'app' } },
  },
  'labels-at-load-time': {
    passing: { web04Label: 'web', app08Label: 'app', unknownLabels: 0 },
    flips: {
      web04: { web04Label: 'unknown' },
      app08: { app08Label: 'batch' },
      noneUnknown: { unknownLabels: 3 },
    },
  },
  'change-feed': {
    passing: { changeFeedRows: 200, burstRows: 200, newHostTier: 'web' },
    flips: { rows: { changeFeedRows: 199 }, newHostLabelled: { newHostTier: '' } },
  },
  'one-hour': {
    passing: { sameAnswer: 'yes', ratio: 5.5, unpartitionedBytes: 5500, partitionedBytes: 1000 },
    flips: {
      sameAnswer: { sameAnswer: 'no' },
      // The 15.1× (and this machine's 16.1×) against the article's 5.5×.
      ratio: { ratio: 15.1 },
      partitionedReadsLess: { ratio: 0.9 },
    },
  },
  'daily-snapshot': {
    passing: {
      partialDayRefused: 'yes',
      sameAnswer: 'yes',
      ratio: 1.7,
      historyBytes: 1700,
      snapshotBytes: 1000,
    },
    flips: {
      partialDay: { partialDayRefused: 'no' },
      sameAnswer: { sameAnswer: 'no' },
      readsLess: { ratio: 1 },
    },
  },
};

const verdictOf = (name: string, m: Measures, id: string, env = LOCAL) =>
  judge(name, m, env).comparisons.find((c) => c.id === id);

describe('the article beside the lab, row by row', () => {
  test('every experiment has an article row; a row without a figure says the article gives none', () => {
    for (const e of EXPERIMENTS) {
      const row = ARTICLE_ROWS[e.name];
      expect(row).toBeDefined();
      if (!row?.judge) expect(row?.article).toMatch(/\(no figure\)$/);
    }
  });

  test('every figure and check has a contradicting case below (coverage)', () => {
    for (const [name, c] of Object.entries(CASES)) {
      const judged = judge(name, c.passing, LOCAL);
      const ids = [...judged.comparisons.map((x) => x.id), ...Object.keys(judged.checks)].sort();
      expect([name, Object.keys(c.flips).sort()]).toEqual([name, ids]);
    }
    const judgedRows = Object.entries(ARTICLE_ROWS)
      .filter(([, row]) => row.judge)
      .map(([name]) => name)
      .sort();
    expect(Object.keys(CASES).sort()).toEqual(judgedRows);
  });

  test.each(Object.keys(CASES))(
    '%s: a run that matches the article is "same" on every figure, every check passes',
    (name) => {
      for (const env of [LOCAL, AWS]) {
        const judged = judge(name, (CASES[name] as Case).passing, env);
        expect(judged.comparisons.filter((c) => c.verdict !== 'same').map((c) => c.id)).toEqual([]);
        expect(Object.entries(judged.checks).filter(([, ok]) => !ok)).toEqual([]);
        for (const c of judged.comparisons) {
          expect(c.why).toBeUndefined();
          expect(c.rule).not.toBe('');
          expect(c.article).not.toBe('');
        }
      }
    },
  );

  const flipCases = Object.entries(CASES).flatMap(([name, c]) =>
    Object.entries(c.flips).map(([id, contradiction]) => [name, id, contradiction] as const),
  );
  test.each(flipCases)('%s · %s flips on a contradicting result', (name, id, contradiction) => {
    const passing = (CASES[name] as Case).passing;
    const m = { ...passing, ...contradiction } as Measures;
    for (const env of [LOCAL, AWS]) {
      const judged = judge(name, m, env);
      const comparison = judged.comparisons.find((c) => c.id === id);
      if (comparison) {
        expect(comparison.verdict).toBe('differs');
        // Each difference is explained in one line.
        expect(comparison.why).toMatch(/^[^\n]{10,400}$/);
      } else {
        expect(judged.checks[id]).toBe(false);
      }
    }
  });
});

describe('rules and the lab’s own choices', () => {
  test('the JSON figure is per record, so it holds at any load size; the differing one says why', () => {
    const small = {
      ...CASES.load!.passing,
      records: 1500,
      accepted: 1500,
      jsonBytes: (15.1 * MIB * 1500) / 50_000,
    };
    expect(verdictOf('load', small, 'json', { target: 'local', records: 1500 })?.verdict).toBe('same');
    const ours = verdictOf('load', { ...CASES.load!.passing, jsonBytes: 13.9 * MIB }, 'json');
    expect(ours?.why).toContain('json.dumps');
    expect(ours?.ours).toBe('13.9 MiB, 292 B a record');
  });

  test('figures the lab produces say so: the 3 commits, the scanner share, the smoke test, two local runs', () => {
    const choice = (name: string, id: string, env = LOCAL) =>
      verdictOf(name, (CASES[name] as Case).passing, id, env)?.labChoice ?? '';
    expect(choice('load', 'commits')).toMatch(/sends the main load in 3 parts.*commits once per interval/);
    expect(choice('load', 'commits', AWS)).toMatch(/the commits are Firehose's$/);
    expect(choice('delete', 'positionDeletes')).toMatch(/8 %/);
    expect(choice('time-travel', 'rows')).toMatch(/10 records/);
    expect(choice('compaction', 'runs')).toMatch(/two maintenance runs/);
    expect(choice('compaction', 'runs', AWS)).toBe('');
    expect(choice('compaction', 'rewrites')).toBe('');
  });

  test('a skipped daily snapshot (no snapshots unit) has nothing to compare', () => {
    expect(judge('daily-snapshot', { skipped: 'no snapshots unit' }, LOCAL)).toEqual({
      comparisons: [],
      checks: {},
    });
  });
});
