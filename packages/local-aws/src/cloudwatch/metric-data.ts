// GetMetricData's MetricStat queries: each an Id (starting with a lower-case letter, as the API reference
// requires), a metric, a period and a statistic; results as parallel Timestamps/Values lists. Metric math
// (`Expression`) and Metrics Insights queries are not served locally.
import { notSupported } from '../errors';
import { invalidValue, missingParameter, readDimensions } from './alarm-definition';
import { STATISTICS, statisticOf, type MetricId, type MetricStore, type Statistic } from './metric-store';

export interface MetricStatQuery {
  id: string;
  label?: string;
  returnData: boolean;
  metric: MetricId;
  periodSeconds: number;
  stat: Statistic;
  unit?: string;
}

export function readMetricQueries(value: unknown): MetricStatQuery[] {
  if (!Array.isArray(value) || value.length === 0) throw missingParameter('MetricDataQueries');
  // "You can include as many as 500 MetricDataQuery structures in one GetMetricData operation."
  if (value.length > 500)
    throw invalidValue('The collection MetricDataQueries must not have a size greater than 500.');
  const ids = new Set<string>();
  return value.map((raw, i) => {
    const q = (raw ?? {}) as Record<string, unknown>;
    const field = `MetricDataQueries.member.${i + 1}`;
    if (typeof q.Id !== 'string' || q.Id === '') throw missingParameter(`${field}.Id`);
    if (!/^[a-z][a-zA-Z0-9_]*$/.test(q.Id))
      throw invalidValue(
        `The value ${q.Id} for parameter ${field}.Id is invalid: it must start with a lowercase letter and contain only letters, numbers and underscores.`,
      );
    if (ids.has(q.Id)) throw invalidValue(`The value ${q.Id} for parameter ${field}.Id is not unique.`);
    ids.add(q.Id);
    if (q.Expression !== undefined)
      throw notSupported('CloudWatch', 'GetMetricData with Expression (metric math)');
    const stat = q.MetricStat as Record<string, unknown> | undefined;
    if (!stat) throw missingParameter(`${field}.MetricStat`);
    const metric = (stat.Metric ?? {}) as Record<string, unknown>;
    if (typeof metric.Namespace !== 'string') throw missingParameter(`${field}.MetricStat.Metric.Namespace`);
    if (typeof metric.MetricName !== 'string')
      throw missingParameter(`${field}.MetricStat.Metric.MetricName`);
    const period = stat.Period;
    if (typeof period !== 'number' || !Number.isInteger(period) || period < 1)
      throw missingParameter(`${field}.MetricStat.Period`);
    if (period >= 60 ? period % 60 !== 0 : ![1, 5, 10, 20, 30].includes(period))
      throw invalidValue(
        `The parameter ${field}.MetricStat.Period must be 1, 5, 10, 20, 30 or a multiple of 60.`,
      );
    if (!STATISTICS.includes(stat.Stat as Statistic))
      throw notSupported(
        'CloudWatch',
        `GetMetricData with Stat ${String(stat.Stat)} (served: ${STATISTICS.join(', ')})`,
      );
    return {
      id: q.Id,
      ...(typeof q.Label === 'string' ? { label: q.Label } : {}),
      returnData: q.ReturnData !== false,
      metric: {
        namespace: metric.Namespace,
        metricName: metric.MetricName,
        dimensions: readDimensions(metric.Dimensions, `${field}.MetricStat.Metric.Dimensions`),
      },
      periodSeconds: period,
      stat: stat.Stat as Statistic,
      ...(typeof stat.Unit === 'string' ? { unit: stat.Unit } : {}),
    };
  });
}

export function metricDataResults(
  metrics: MetricStore,
  queries: readonly MetricStatQuery[],
  startMs: number,
  endMs: number,
  scanBy: 'TimestampDescending' | 'TimestampAscending',
) {
  return queries
    .filter((q) => q.returnData)
    .map((q) => {
      const periods = metrics.periods(q.metric, startMs, endMs, q.periodSeconds * 1000, q.unit);
      if (scanBy === 'TimestampDescending') periods.reverse();
      return {
        Id: q.id,
        Label: q.label ?? q.metric.metricName,
        Timestamps: periods.map((p) => p.start / 1000),
        Values: periods.map((p) => statisticOf(p, q.stat)),
        StatusCode: 'Complete',
        Messages: [],
      };
    });
}
