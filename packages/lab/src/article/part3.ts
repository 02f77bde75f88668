// The snapshots case study: a day is published only when it is complete, and the snapshot answers the analysts'
// query as its source does, from far less data.
import { formatBytes } from '../report/format';
import { compared, num } from './comparison';
import type { ArticleRow } from './judgement';

export const dailySnapshot: ArticleRow = {
  article:
    'the latest complete day from a small snapshot, not years of history; a partial day is never published',
  source: 'the snapshots case study',
  judge: (m) =>
    m.skipped !== undefined
      ? { comparisons: [], checks: {} }
      : {
          comparisons: [
            compared({
              id: 'partialDay',
              figure: 'a run offered a partial day',
              article: 'fails loudly instead of publishing a thin table',
              ours:
                m.partialDayRefused === 'yes' ? 'refused, nothing published' : 'no partial day was offered',
              rule: 'refused',
              same: m.partialDayRefused === 'yes',
              why: 'the lab started between 00:30 and 00:59 UTC, so its own first day was complete and no partial day was offered',
            }),
            compared({
              id: 'sameAnswer',
              figure: "the analysts' query on the snapshot and on the full history",
              article: 'queried exactly the way its source is',
              ours: m.sameAnswer === 'yes' ? 'same answer' : 'different answers',
              rule: 'same answer',
              same: m.sameAnswer === 'yes',
              why: 'the snapshot answered differently from its source',
            }),
            compared({
              id: 'readsLess',
              figure: 'bytes read, full history ÷ snapshot',
              article: 'a day from a small snapshot, not years of history (no figure)',
              ours: `${num(m.ratio).toFixed(1)}× (${formatBytes(num(m.historyBytes))} vs ${formatBytes(num(m.snapshotBytes))})`,
              rule: 'the snapshot reads less (ratio above 1)',
              same: num(m.ratio) > 1,
              why: 'the snapshot read as much as the history: Iceberg pruned the history to the day’s files',
            }),
          ],
          checks: {},
        },
};
