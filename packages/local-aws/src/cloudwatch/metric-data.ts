// GetMetricData's MetricStat queries: each an Id (starting with a lower-case letter, as the API reference
// requires), a metric, a period and a statistic; results as parallel Timestamps/Values lists. Metric math
// (`Expression`) and Metrics Insights queries are not served locally.
import type { Metric, MetricDataQuery, MetricDataResult } from '@aws-sdk/client-cloudwatch';
import { notSupported } from '../model/wire-errors';
import type { Wire } from '../model/api';
import { invalidValue, missingParameter, readDimensions } from './alarm-definition';
import {
  periodServesStart,
  STATISTICS,
  statisticOf,
  type MetricId,
  type MetricStore,
  type Statistic,
} from './metric-store';

export interface MetricStatQuery {
  id: string;
  label?: string;
  returnData: boolean;
  metric: MetricId;
  periodSeconds: number;
  stat: Statistic;
  unit?: string;
}

/**
 * GetMetricData's queries. The model has checked each Id (1–255 characters), and that a MetricStat has a Metric,
 * a Period (an integer ≥ 1) and a Stat; not that the list has entries, nor the rules below.
 */
export function readMetricQueries(value: readonly (Wire<MetricDataQuery> | null)[]): MetricStatQuery[] {
  if (value.length === 0) throw missingParameter('MetricDataQueries');
  // "You can include as many as 500 MetricDataQuery structures in one GetMetricData operation."
  if (value.length > 500)
    throw invalidValue('The collection MetricDataQueries must not have a size greater than 500.');
  const ids = new Set<string>();
  return value.map((q, i) => {
    const field = `MetricDataQueries.member.${i + 1}`;
    // The model lets a null entry through.
    if (q === null) throw missingParameter(`${field}.Id`);
    const id = q.Id as string;
    if (!/^[a-z][a-zA-Z0-9_]*$/.test(id))
      throw invalidValue(
        `The value ${id} for parameter ${field}.Id is invalid: it must start with a lowercase letter and contain only letters, numbers and underscores.`,
      );
    if (ids.has(id)) throw invalidValue(`The value ${id} for parameter ${field}.Id is not unique.`);
    ids.add(id);
    if (q.Expression !== undefined)
      throw notSupported('CloudWatch', 'GetMetricData with Expression (metric math)');
    const stat = q.MetricStat;
    if (!stat) throw missingParameter(`${field}.MetricStat`);
    const metric = stat.Metric as Wire<Metric>;
    // Optional in the model's Metric (other operations take a partial one).
    if (metric.Namespace == null) throw missingParameter(`${field}.MetricStat.Metric.Namespace`);
    if (metric.MetricName == null) throw missingParameter(`${field}.MetricStat.Metric.MetricName`);
    const period = stat.Period as number;
    if (period >= 60 ? period % 60 !== 0 : ![1, 5, 10, 20, 30].includes(period))
      throw invalidValue(
        `The parameter ${field}.MetricStat.Period must be 1, 5, 10, 20, 30 or a multiple of 60.`,
      );
    // Stat is any string in the model; the metric store computes these.
    if (!STATISTICS.includes(stat.Stat as Statistic))
      throw notSupported(
        'CloudWatch',
        `GetMetricData with Stat ${String(stat.Stat)} (served: ${STATISTICS.join(', ')})`,
      );
    return {
      id,
      ...(q.Label != null ? { label: q.Label } : {}),
      returnData: q.ReturnData !== false,
      metric: {
        namespace: metric.Namespace,
        metricName: metric.MetricName,
        dimensions: readDimensions(metric.Dimensions, `${field}.MetricStat.Metric.Dimensions`),
      },
      periodSeconds: period,
      stat: stat.Stat as Statistic,
      ...(stat.Unit != null ? { unit: stat.Unit } : {}),
    };
  });
}

export function metricDataResults(
  metrics: MetricStore,
  queries: readonly MetricStatQuery[],
  startMs: number,
  endMs: number,
  scanBy: 'TimestampDescending' | 'TimestampAscending',
  nowMs: number,
): Wire<MetricDataResult>[] {
  return queries
    .filter((q) => q.returnData)
    .map((q) => {
      // MetricStat.Period: an old StartTime with too fine a period gets no data points (metric-store.ts).
      const periods = periodServesStart(startMs, nowMs, q.periodSeconds)
        ? metrics.periods(q.metric, startMs, endMs, q.periodSeconds * 1000, q.unit)
        : [];
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
