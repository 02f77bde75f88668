// TEST SUPPORT: the producer side of the crash tests — records with ids, sent through the SDK's Firehose client
// with no retries (so an unanswered call stays "unknown" instead of being sent twice) — and the exactly-once check
// of what landed in the table and the error output.
import { FirehoseClient, PutRecordBatchCommand } from '@aws-sdk/client-firehose';
import { localClientConfig } from '../../src/client-config';

/** Every `MISFIT_EVERY`-th record does not fit the table (its start_time is not a time): it is for the error output. */
const MISFIT_EVERY = 41;

/** Record `id`: fits the table unless it is a misfit; timestamps alternate between epoch micros and ISO text. */
function crashTestRecord(id: number): Buffer {
  if (id % MISFIT_EVERY === 0) return Buffer.from(JSON.stringify({ id, start_time: 'not a time' }));
  const at = Date.UTC(2026, 10, 29, 10) + id;
  const start_time = id % 2 === 0 ? at * 1000 : new Date(at).toISOString();
  return Buffer.from(JSON.stringify({ id, srcaddr: `10.0.${(id >> 8) & 255}.${id & 255}`, start_time }));
}

const isMisfit = (id: number) => id % MISFIT_EVERY === 0;

/** What the producer knows: ids acknowledged (with a RecordId), and ids whose call got no answer. */
export class Producer {
  readonly acknowledged = new Set<number>();
  readonly unknown = new Set<number>();
  private next = 0;

  /**
   * Sends `batches` calls of `size` records, `inFlight` at a time, until done or the endpoint stops answering;
   * `onAck` runs after each answered call.
   */
  async send(
    url: string,
    stream: string,
    batches: number,
    options: { size?: number; inFlight?: number; onAck?: (answered: number) => void } = {},
  ): Promise<void> {
    const client = new FirehoseClient(localClientConfig(url, 1));
    const size = options.size ?? 250;
    let left = batches;
    let answered = 0;
    let down = false;
    const sender = async () => {
      while (left > 0 && !down) {
        left--;
        const ids = Array.from({ length: size }, () => this.next++);
        try {
          const result = await client.send(
            new PutRecordBatchCommand({
              DeliveryStreamName: stream,
              Records: ids.map((id) => ({ Data: crashTestRecord(id) })),
            }),
          );
          result.RequestResponses?.forEach((r, i) => {
            if (r.RecordId && !r.ErrorCode) this.acknowledged.add(ids[i] as number);
          });
          options.onAck?.(++answered);
        } catch {
          // No answer (the endpoint died mid-call): these records may or may not have been accepted.
          for (const id of ids) this.unknown.add(id);
          down = true;
        }
      }
    };
    try {
      await Promise.all(Array.from({ length: options.inFlight ?? 4 }, sender));
    } finally {
      client.destroy();
    }
  }
}

/**
 * Every acknowledged record exactly once where it belongs (the table if it fits, the error output if not), every
 * unanswered one at most once, and nothing that was never sent. Returns the violations (none = exactly once).
 */
export function exactlyOnceViolations(
  producer: Pick<Producer, 'acknowledged' | 'unknown'>,
  tableIds: readonly number[],
  errorIds: readonly number[],
): string[] {
  const count = (ids: readonly number[]) => {
    const counts = new Map<number, number>();
    for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1);
    return counts;
  };
  const inTable = count(tableIds);
  const inErrors = count(errorIds);
  const violations: string[] = [];
  for (const id of producer.acknowledged) {
    const [where, other] = isMisfit(id) ? [inErrors, inTable] : [inTable, inErrors];
    const n = where.get(id) ?? 0;
    if (n !== 1 || other.has(id))
      violations.push(
        `acknowledged record ${id}: ${n} time(s) where it belongs, ${other.get(id) ?? 0} elsewhere`,
      );
  }
  for (const id of producer.unknown) {
    const n = (inTable.get(id) ?? 0) + (inErrors.get(id) ?? 0);
    if (n > 1) violations.push(`unanswered record ${id}: ${n} times`);
  }
  for (const id of new Set([...tableIds, ...errorIds]))
    if (!producer.acknowledged.has(id) && !producer.unknown.has(id))
      violations.push(`record ${id} was never acknowledged nor in an unanswered call`);
  return violations;
}
