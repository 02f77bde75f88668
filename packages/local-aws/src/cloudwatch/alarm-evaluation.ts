// One evaluation of a metric alarm, as the CloudWatch user guide describes it ("Evaluating an alarm", "Configuring
// how CloudWatch alarms treat missing data"): the statistic of each of the last EvaluationPeriods complete periods
// is compared with the threshold; DatapointsToAlarm (M, default N) breaching datapoints out of those N put the
// alarm in ALARM; missing periods count as breaching ("breaching"), as good ("notBreaching"), keep the state
// ("ignore") or, when all are missing, make it INSUFFICIENT_DATA ("missing", the default). Pure: the service
// supplies the periods and the time.
//
// The reason texts follow the shape CloudWatch writes in StateReason ("Threshold Crossed: 1 datapoint [5.0
// (01/12/26 14:15:00)] was greater than the threshold (0.0)."). AWS does not document that text; nothing in the
// lab reads it (it reads StateValue and StateReasonData).
// CloudWatch prints its reasons' numbers with Java's Double.toString (5 → 5.0, 1e7 → 1.0E7).
import { javaDouble } from '@loglake/lakehouse/iceberg';
import { COMPARISON_OPERATORS, type AlarmDefinition } from './alarm-definition';
import { statisticOf, type PeriodValue } from './metric-store';

export type AlarmState = 'OK' | 'ALARM' | 'INSUFFICIENT_DATA';

export interface Evaluation {
  state: AlarmState;
  reason: string;
  /** StateReasonData: the JSON document CloudWatch attaches to a threshold evaluation. */
  reasonData: string;
}

const pad = (n: number) => String(n).padStart(2, '0');
/** dd/MM/yy HH:mm:ss in UTC, as CloudWatch's reasons print datapoint times. */
function reasonTime(ms: number): string {
  const d = new Date(ms);
  return `${pad(d.getUTCDate())}/${pad(d.getUTCMonth() + 1)}/${pad(d.getUTCFullYear() % 100)} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}
const isoTime = (ms: number) => new Date(ms).toISOString().replace('Z', '+0000');

function breaches(alarm: Pick<AlarmDefinition, 'ComparisonOperator' | 'Threshold'>, v: number) {
  switch (alarm.ComparisonOperator) {
    case 'GreaterThanOrEqualToThreshold':
      return v >= alarm.Threshold;
    case 'GreaterThanThreshold':
      return v > alarm.Threshold;
    case 'LessThanThreshold':
      return v < alarm.Threshold;
    case 'LessThanOrEqualToThreshold':
      return v <= alarm.Threshold;
  }
}

/** The starts of the N most recent periods that ended at or before `nowMs` (oldest first). */
export function evaluatedPeriodStarts(alarm: AlarmDefinition, nowMs: number): number[] {
  const p = alarm.Period * 1000;
  const lastEnd = Math.floor(nowMs / p) * p;
  return Array.from(
    { length: alarm.EvaluationPeriods },
    (_, i) => lastEnd - (alarm.EvaluationPeriods - i) * p,
  );
}

/**
 * Evaluates the alarm on the given periods' data (any period of `evaluatedPeriodStarts` not in `data` is missing).
 * Returns undefined when the state is kept ("ignore" with nothing to go on).
 */
export function evaluateAlarm(
  alarm: AlarmDefinition,
  data: readonly PeriodValue[],
  nowMs: number,
): Evaluation | undefined {
  const starts = evaluatedPeriodStarts(alarm, nowMs);
  const n = starts.length;
  const m = alarm.DatapointsToAlarm ?? n;
  const present = starts.flatMap((start) => {
    const period = data.find((d) => d.start === start);
    return period ? [{ start, value: statisticOf(period, alarm.Statistic), count: period.count }] : [];
  });
  const missing = n - present.length;
  const breaching = present.filter((p) => breaches(alarm, p.value));
  const treat = alarm.TreatMissingData ?? 'missing';
  const breachCount = breaching.length + (treat === 'breaching' ? missing : 0);
  const words = COMPARISON_OPERATORS[alarm.ComparisonOperator];
  const threshold = javaDouble(alarm.Threshold);
  const list = (points: typeof present) =>
    `[${[...points]
      .reverse()
      .map((p) => `${javaDouble(p.value)} (${reasonTime(p.start)})`)
      .join(', ')}]`;
  const reasonData = JSON.stringify({
    version: '1.0',
    queryDate: isoTime(nowMs),
    startDate: isoTime(starts[0] as number),
    statistic: alarm.Statistic,
    period: alarm.Period,
    recentDatapoints: present.map((p) => p.value),
    threshold: alarm.Threshold,
    evaluatedDatapoints: [...present].reverse().map((p) => ({
      timestamp: isoTime(p.start),
      sampleCount: p.count,
      value: p.value,
    })),
  });
  const datapoints = (k: number) => `${k} datapoint${k === 1 ? '' : 's'}`;
  const missingNote = (as: string) =>
    missing > 0
      ? ` and ${datapoints(missing).replace('datapoint', 'missing datapoint')} ${missing === 1 ? 'was' : 'were'} treated as [${as}]`
      : '';
  if (breachCount >= m) {
    const head =
      n === 1
        ? `${datapoints(breaching.length || 1)} ${list(breaching)} was ${words} the threshold (${threshold})`
        : `${breaching.length} out of the last ${n} datapoints ${list(breaching)} ${breaching.length === 1 ? 'was' : 'were'} ${words} the threshold (${threshold})${missingNote('Breaching')} (minimum ${datapoints(m)} for OK -> ALARM transition)`;
    const reason =
      present.length === 0
        ? `Threshold Crossed: no datapoints were received for ${n} period${n === 1 ? '' : 's'} and ${datapoints(missing).replace('datapoint', 'missing datapoint')} ${missing === 1 ? 'was' : 'were'} treated as [Breaching].`
        : `Threshold Crossed: ${head}.`;
    return { state: 'ALARM', reason, reasonData };
  }
  if (present.length === 0) {
    if (treat === 'ignore') return undefined;
    if (treat === 'missing')
      return {
        state: 'INSUFFICIENT_DATA',
        reason: `Insufficient Data: ${datapoints(n)} ${n === 1 ? 'was' : 'were'} unknown.`,
        reasonData,
      };
    return {
      state: 'OK',
      reason: `Threshold Crossed: no datapoints were received for ${n} period${n === 1 ? '' : 's'} and ${datapoints(missing).replace('datapoint', 'missing datapoint')} ${missing === 1 ? 'was' : 'were'} treated as [NonBreaching].`,
      reasonData,
    };
  }
  const notBreaching = present.filter((p) => !breaches(alarm, p.value));
  const head =
    n === 1
      ? `${datapoints(1)} ${list(notBreaching)} was not ${words} the threshold (${threshold})`
      : `${notBreaching.length} out of the last ${n} datapoints ${list(notBreaching)} ${notBreaching.length === 1 ? 'was' : 'were'} not ${words} the threshold (${threshold})${treat === 'notBreaching' ? missingNote('NonBreaching') : ''} (minimum ${datapoints(n - m + 1)} for ALARM -> OK transition)`;
  return { state: 'OK', reason: `Threshold Crossed: ${head}.`, reasonData };
}
