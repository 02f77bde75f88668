// The VPC flow log v2 record as the table stores it, and its JSON line as Firehose receives it.

/**
 * The flow-log v2 default format as Iceberg columns, in table order, with `start`/`end` as timestamps. The one
 * definition of network.vpc_flow_logs' schema: the table-bucket unit, the engine benchmark and the local demos
 * read it from here.
 */
export const FLOW_LOG_V2_SCHEMA = [
  { name: 'version', type: 'int' },
  { name: 'account_id', type: 'string' },
  { name: 'interface_id', type: 'string' },
  { name: 'srcaddr', type: 'string' },
  { name: 'dstaddr', type: 'string' },
  { name: 'srcport', type: 'int' },
  { name: 'dstport', type: 'int' },
  { name: 'protocol', type: 'int' },
  { name: 'packets', type: 'long' },
  { name: 'bytes', type: 'long' },
  { name: 'start_time', type: 'timestamp' },
  { name: 'end_time', type: 'timestamp' },
  { name: 'action', type: 'string' },
  { name: 'log_status', type: 'string' },
] as const;

export type FlowLogColumn = (typeof FLOW_LOG_V2_SCHEMA)[number]['name'];

/** Column names in table order. */
export const FLOW_LOG_V2_COLUMNS: readonly FlowLogColumn[] = FLOW_LOG_V2_SCHEMA.map((c) => c.name);

export type FlowAction = 'ACCEPT' | 'REJECT';

export interface FlowRecord {
  version: 2;
  account_id: string;
  interface_id: string;
  srcaddr: string;
  dstaddr: string;
  srcport: number;
  dstport: number;
  protocol: number;
  packets: number;
  bytes: number;
  /** Epoch microseconds: Firehose requires Iceberg timestamps as microseconds in JSON. */
  start_time: number;
  end_time: number;
  action: FlowAction;
  log_status: 'OK';
}

/** One JSON line (no trailing newline), keys in table order. */
export function toJsonLine(record: FlowRecord): string {
  return JSON.stringify(record, FLOW_LOG_V2_COLUMNS as unknown as string[]);
}

/**
 * The flow's identity. The table has only the v2 fields, so the id is made of them: the generator guarantees
 * that no two records it produces share this tuple (interface, 5-tuple, start), so any group of rows with the
 * same tuple in the table is a duplicate delivery. sql/network/duplicates.sql counts them the same way.
 */
export function flowKey(record: FlowRecord): string {
  return [
    record.interface_id,
    record.srcaddr,
    record.srcport,
    record.dstaddr,
    record.dstport,
    record.protocol,
    record.start_time,
  ].join('|');
}
