// Which part of a stream's record log a commit covers, kept where Iceberg writers keep their own bookkeeping: in
// the snapshot summary (as Flink's sink records `flink.max-committed-checkpoint-id`). A generation replayed after
// a crash between "commit landed" and "log settled" finds its snapshot here and is not appended twice.
import type { Snapshot, TableMetadata } from '@loglake/lakehouse';
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

/** The snapshot that committed this generation of this log, if one did (any snapshot the table still lists). */
export function committedGeneration(
  metadata: TableMetadata,
  logId: string,
  generation: number,
): Snapshot | undefined {
  return metadata.snapshots.find(
    (s) => s.summary[KEYS.logId] === logId && s.summary[KEYS.generation] === String(generation),
  );
}
