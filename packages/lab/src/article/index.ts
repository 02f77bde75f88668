// The articles' side of every experiment row: the article's words, and how the lab's measures are compared with
// its figures (and checked). Judged after each experiment runs (run-lab.ts); shown in the terminal table and the
// HTML report.
import type { CompareEnv } from './comparison';
import type { ArticleRow, Judgement, Measures } from './judgement';
import * as part1 from './part1';
import * as part2 from './part2';
import { dailySnapshot } from './part3';

export type { Comparison, CompareEnv, Verdict } from './comparison';
export type { ArticleRow, Judgement, Measures } from './judgement';

const stillToCome = (what: string): ArticleRow => ({
  article: `still to come in Part 2: ${what} (no figure)`,
  source: 'Part 2, still to come',
});

/** Every experiment's row, by experiment name. */
export const ARTICLE_ROWS: Readonly<Record<string, ArticleRow>> = {
  load: part1.load,
  'time-travel': part1.timeTravel,
  'add-columns': part1.addColumns,
  delete: part1.deleteScanner,
  'top-rejected': part1.topRejected,
  undo: part1.undo,
  compaction: part1.compaction,
  snapshots: part1.snapshotDiary,
  'ref-tables': part2.refTables,
  merge: part2.merge,
  'merge-duplicate': part2.mergeDuplicate,
  'join-as-of-now': part2.joinAsOfNow,
  'labels-at-load-time': part2.labelsAtLoadTime,
  'change-feed': part2.changeFeed,
  'one-hour': part2.oneHour,
  'bad-records': stillToCome('bad records on purpose, with a CloudWatch alarm'),
  'rest-endpoint': stillToCome(
    'PyIceberg on a laptop, through a catalog (here: the S3 Tables Iceberg REST endpoint)',
  ),
  'laptop-client': stillToCome('PyIceberg on a laptop'),
  'sort-order': stillToCome('a declared sort order'),
  'undo-window': stillToCome('the undo window'),
  'tag-cleanup': stillToCome('the Iceberg tag that breaks automatic snapshot cleanup'),
  'analyst-role': stillToCome('a read-only analyst role'),
  'daily-snapshot': dailySnapshot,
};

/** The row's comparisons with the article and the lab's checks, from its measures. */
export function judge(name: string, measures: Measures, env: CompareEnv): Judgement {
  return ARTICLE_ROWS[name]?.judge?.(measures, env) ?? { comparisons: [], checks: {} };
}
