// Which part of a stream's record log a commit covers, kept where Iceberg writers keep their own bookkeeping: in
// the snapshot summary (as Flink's sink records `flink.max-committed-checkpoint-id`). A generation replayed after
// a crash between "commit landed" and "log settled" finds its snapshot here and is not appended twice.
import type { Snapshot, TableMetadata } from '@loglake/lakehouse/iceberg';
import type { BufferedRecord } from './records';

const KEYS = {
  stream: 'loglake.firehose.stream',
  logId: 'loglake.firehose.log-id',
  generation: 'loglake.firehose.generation',
  firstSeq: 'loglake.firehose.first-sequence',
  lastSeq: 'loglake.firehose.last-sequence',
} as const;

/** The summary properties of a generation's commit. */
export function commitSummary(
  stream: string,
  logId: string,
  generation: number,
  records: readonly BufferedRecord[],
): Record<string, string> {
  return {
    [KEYS.stream]: stream,
    [KEYS.logId]: logId,
    [KEYS.generation]: String(generation),
    [KEYS.firstSeq]: String(records[0]?.seq ?? ''),
    [KEYS.lastSeq]: String(records.at(-1)?.seq ?? ''),
  };
}

/** What the table says about a generation of a log: committed, and under which schema when that is still known. */
export interface CommittedGeneration {
  /** The schema its commit was checked against; undefined when only a later generation's snapshot is left. */
  readonly schemaId: number | undefined;
}

/**
 * Whether this generation of this log was committed. Its own snapshot says so; so does a later generation's of the
 * same log, because a log's generations conclude strictly in order (a generation that did not commit concluded by
 * writing its error output, which replay checks first). The later snapshot matters once snapshot management has
 * expired the generation's own: without it a replay would append the generation a second time. Left exposed: a
 * replay after every snapshot of the log has expired (down longer than the table's snapshot retention).
 */
export function committedGeneration(
  metadata: TableMetadata,
  logId: string,
  generation: number,
): CommittedGeneration | undefined {
  let later = false;
  for (const s of metadata.snapshots as readonly Snapshot[]) {
    if (s.summary[KEYS.logId] !== logId) continue;
    const committed = Number(s.summary[KEYS.generation]);
    if (committed === generation) return { schemaId: s['schema-id'] };
    if (committed > generation) later = true;
  }
  return later ? { schemaId: undefined } : undefined;
}
