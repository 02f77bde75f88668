// Bad-record mode: lines Firehose cannot turn into table rows (malformed JSON, wrong types), for the
// error-output experiment. Each kind is one a real producer bug makes.
import { SeededRandom } from './random';
import { toJsonLine, type FlowRecord } from './records';

export type BadRecordKind =
  'truncated-json' | 'not-json' | 'string-for-number' | 'string-for-timestamp' | 'array-not-object';

export const BAD_RECORD_KINDS: readonly BadRecordKind[] = [
  'truncated-json',
  'not-json',
  'string-for-number',
  'string-for-timestamp',
  'array-not-object',
];

export interface BadRecord {
  kind: BadRecordKind;
  line: string;
}

/** Turns good records into bad lines, cycling through the kinds so every kind appears. */
export function makeBadRecords(seed: number, from: readonly FlowRecord[]): BadRecord[] {
  const random = new SeededRandom(seed);
  return from.map((record, i) => {
    const kind = BAD_RECORD_KINDS[i % BAD_RECORD_KINDS.length] as BadRecordKind;
    const good = toJsonLine(record);
    switch (kind) {
      case 'truncated-json':
        return { kind, line: good.slice(0, random.int(10, good.length - 2)) };
      case 'not-json':
        // The flow log's own text format (space-separated v2 fields, times in seconds) where JSON was expected.
        return {
          kind,
          line: [
            record.version,
            record.account_id,
            record.interface_id,
            record.srcaddr,
            record.dstaddr,
            record.srcport,
            record.dstport,
            record.protocol,
            record.packets,
            record.bytes,
            Math.floor(record.start_time / 1e6),
            Math.floor(record.end_time / 1e6),
            record.action,
            record.log_status,
          ].join(' '),
        };
      case 'string-for-number':
        return { kind, line: JSON.stringify({ ...record, packets: 'lots', bytes: 'unknown' }) };
      case 'string-for-timestamp':
        return { kind, line: JSON.stringify({ ...record, start_time: 'yesterday', end_time: 'today' }) };
      case 'array-not-object':
        return { kind, line: JSON.stringify([record.srcaddr, record.dstaddr, record.action]) };
    }
  });
}
