// Packs records into PutRecordBatch requests within Firehose's limits.

/** Firehose PutRecordBatch quotas (https://docs.aws.amazon.com/firehose/latest/dev/limits.html). */
export const FIREHOSE_LIMITS = {
  recordsPerBatch: 500,
  bytesPerBatch: 4 * 1024 * 1024,
  bytesPerRecord: 1000 * 1024,
} as const;

export interface OutgoingRecord {
  /** Identity used to count duplicates (flowgen's flowKey for flow records). */
  id: string;
  data: Uint8Array;
}

export interface BatchLimits {
  recordsPerBatch: number;
  bytesPerBatch: number;
  bytesPerRecord: number;
}

export interface PackedBatches {
  batches: OutgoingRecord[][];
  /** Records over the per-record limit: never sent, counted as failed for good. */
  oversized: OutgoingRecord[];
}

export function packBatches(
  records: Iterable<OutgoingRecord>,
  limits: BatchLimits = FIREHOSE_LIMITS,
): PackedBatches {
  const batches: OutgoingRecord[][] = [];
  const oversized: OutgoingRecord[] = [];
  let current: OutgoingRecord[] = [];
  let currentBytes = 0;
  for (const record of records) {
    const size = record.data.byteLength;
    if (size > limits.bytesPerRecord) {
      oversized.push(record);
      continue;
    }
    if (current.length === limits.recordsPerBatch || currentBytes + size > limits.bytesPerBatch) {
      batches.push(current);
      current = [];
      currentBytes = 0;
    }
    current.push(record);
    currentBytes += size;
  }
  if (current.length > 0) batches.push(current);
  return { batches, oversized };
}
