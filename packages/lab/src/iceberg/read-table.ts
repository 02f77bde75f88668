// The laptop's reader: a table's current rows read from its data files with icebird (the independent Iceberg reader
// on hyparquet), given the metadata the REST catalog returned. No Athena, no engine of ours.
import type { S3Client } from '@aws-sdk/client-s3';
import { icebergRead } from 'icebird';
import type { TableMetadata } from 'iceberg-js';
import { withObjectFetch } from './object-fetch';

export type ReadRow = Record<string, unknown>;

export async function readCurrentRows(metadata: TableMetadata, s3?: S3Client): Promise<ReadRow[]> {
  if (!metadata['current-snapshot-id']) return [];
  return withObjectFetch(s3, () =>
    icebergRead({
      tableUrl: (metadata.location ?? '').replace(/\/$/, ''),
      // icebird's TableMetadata type is the same document, typed by its authors.
      metadata: metadata as unknown as Parameters<typeof icebergRead>[0]['metadata'],
    }),
  );
}

export interface HourAnswer {
  action: string;
  flows: number;
  totalBytes: bigint;
}

/** The one-hour question (sql/network/one_hour.sql.njk) answered from rows: flows and bytes per action. */
export function oneHourAnswer(rows: readonly ReadRow[], hourStart: Date): HourAnswer[] {
  const from = hourStart.getTime();
  const to = from + 3_600_000;
  const byAction = new Map<string, HourAnswer>();
  for (const row of rows) {
    const at = row['start_time'] instanceof Date ? row['start_time'].getTime() : NaN;
    if (!(at >= from && at < to)) continue;
    const action = String(row['action']);
    const answer = byAction.get(action) ?? { action, flows: 0, totalBytes: 0n };
    answer.flows += 1;
    answer.totalBytes += BigInt(row['bytes'] as bigint | number);
    byAction.set(action, answer);
  }
  return [...byAction.values()].sort((a, b) => (a.action < b.action ? -1 : a.action > b.action ? 1 : 0));
}
