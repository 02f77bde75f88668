// What the bad-records experiment claims, as pure functions of what it measured, so each check can be fed a
// contradicting measurement in a test and seen to fail (bad-records.test.ts).

export interface BadRecordsFacts {
  goodSent: number;
  /** Rows the flow table gained while the bad batch was delivered. */
  goodLanded: number;
  badSent: number;
  /** The bad records sent that were found in the error output (matched by their raw bytes). */
  badInErrorOutput: number;
  /** Error codes of those documents (an empty string where a document carried none). */
  errorCodes: readonly string[];
  /** Sum of DeliveryToIceberg.FailedRowCount over the experiment. */
  failedRowCount: number;
  /** The alarm's states in order: the state before the bad batch, then each transition seen. */
  alarmStates: readonly string[];
}

export function badRecordsChecks(f: BadRecordsFacts): Record<string, boolean> {
  const alarmAt = f.alarmStates.indexOf('ALARM');
  return {
    goodRowsLanded: f.goodSent > 0 && f.goodLanded === f.goodSent,
    badRowsInErrorOutput: f.badSent > 0 && f.badInErrorOutput === f.badSent,
    // One code per error-output record (the codes are read from those records): none of them empty.
    errorCodeOnEach: f.errorCodes.every((c) => c !== ''),
    metricCountedBadRows: f.failedRowCount === f.badSent,
    alarmFired: alarmAt > 0 && f.alarmStates[alarmAt - 1] !== 'ALARM',
    alarmClearedAfterCleanPeriod: alarmAt >= 0 && f.alarmStates.slice(alarmAt + 1).includes('OK'),
  };
}

/** "Iceberg.InvalidJson ×4, Iceberg.SchemaMismatch ×6" */
export function countCodes(codes: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const c of codes) counts.set(c || '(none)', (counts.get(c || '(none)') ?? 0) + 1);
  return [...counts.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([code, n]) => `${code} ×${n}`)
    .join(', ');
}
