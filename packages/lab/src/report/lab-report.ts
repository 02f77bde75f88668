// The lab's report as data: what ran where, each experiment's measured result, the snapshot timeline and what
// each query read. Written as JSON and rendered to the terminal and to HTML.
import type { LabScale, QueryRecord } from '../experiments/context';
import type { TargetKind } from '../target/resources';

export interface ExperimentReport {
  name: string;
  title: string;
  part: 1 | 2 | 3;
  result: string;
  measures: Record<string, number | string>;
  checks: Record<string, boolean>;
  /** Itemized outcomes shown under the result (each attempt of the analyst, with its error). */
  details?: { label: string; text: string }[];
  durationMs: number;
  error?: string;
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
}

/** The seed articles' numbers, shown beside ours. */
export const SEED_RESULTS: Record<string, string> = {
  load: '15.1 MiB of JSON became ~1 MB of Parquet across 3 commits',
  'time-travel': '10 rows back, 0 bytes scanned (answered from metadata)',
  'add-columns': 'No new snapshot and no files rewritten; old rows read NULL',
  delete: '4,018 position deletes in 3 small files; 0 data files rewritten',
  'top-rejected': 'The scanner is still my top rejected source',
  undo: '“undo” is just a query with a timestamp',
  compaction: 'Two runs reported Successful. Neither rewrote a file',
  merge: 'an update is “mark the old row deleted, write a new one”',
  'merge-duplicate': 'MERGE refused; the table still had exactly two snapshots',
  'join-as-of-now': 'web-04 → unknown, app-08 → batch',
  'change-feed': 'exactly the new rows',
  'one-hour': 'same answer, 5.5× less read',
  'rest-endpoint': 'still to come in Part 2 (the article planned PyIceberg on a laptop)',
  'laptop-client': 'still to come: PyIceberg on a laptop',
  'sort-order': 'still to come: a declared sort order',
  'undo-window': 'still to come: the undo window',
  'tag-cleanup': 'still to come: the Iceberg tag that breaks automatic snapshot cleanup',
  'analyst-role': 'still to come in Part 2: a read-only analyst role',
  'daily-snapshot':
    'the latest complete day from a small snapshot, not years of history; a partial day is never published',
};
