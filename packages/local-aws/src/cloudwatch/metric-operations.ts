// CloudWatch's metric operations: PutMetricData, GetMetricStatistics, GetMetricData (MetricStat queries),
// ListMetrics, over the endpoint's metric store, with CloudWatch's limits and refusals.
import type { DimensionFilter, MetricDatum, StandardUnit } from '@aws-sdk/client-cloudwatch';
import type { Wire } from '../model/api';
import { invalidCombination, invalidValue, missingParameter, readDimensions } from './alarm-definition';
import type { CloudWatchClock } from './clock';
import { metricDataResults, readMetricQueries } from './metric-data';
import { periodServesStart, STATISTICS, statisticOf, type MetricStore, type Statistic } from './metric-store';
import { pageOf, seconds, time, type MetricOperations } from './wire';
import { wireError } from '../model/wire-errors';

export function metricOperations(metrics: MetricStore, clock: CloudWatchClock): MetricOperations {
  return {
    async PutMetricData(input) {
      const namespace = input.Namespace as string;
      // PutMetricData: "You cannot specify a namespace that begins with 'AWS/'" (reserved for AWS services).
      if (namespace.startsWith('AWS/'))
        throw invalidValue(`The value ${namespace} for parameter Namespace is invalid.`);
      // Optional in the model (EntityMetricData may carry the data instead), unbounded there.
      const data: readonly (Wire<MetricDatum> | null)[] | undefined = input.MetricData ?? undefined;
      if (!data || data.length === 0) throw missingParameter('MetricData');
      // "Each PutMetricData request is limited to ... 1000 different metrics."
      if (data.length > 1000)
        throw invalidValue('The collection MetricData must not have a size greater than 1000.');
      const now = clock.now();
      data.forEach((d, i) => {
        const field = `MetricData.member.${i + 1}`;
        // The model lets a null entry through; a datum's MetricName it has checked.
        if (d === null) throw missingParameter(`${field}.MetricName`);
        const at = time(d.Timestamp, `${field}.Timestamp`) ?? now;
        const resolution = d.StorageResolution;
        // The model only says StorageResolution ≥ 1.
        if (resolution !== undefined && resolution !== 1 && resolution !== 60)
          throw invalidValue(`The parameter ${field}.StorageResolution must be 1 or 60.`);
        const id = {
          namespace,
          metricName: d.MetricName as string,
          dimensions: readDimensions(d.Dimensions, `${field}.Dimensions`),
        };
        const put = (set: { sum: number; count: number; min: number; max: number }) =>
          metrics.put(id, at, set, {
            ...(d.Unit != null ? { unit: d.Unit } : {}),
            resolutionMs: resolution === 1 ? 1000 : 60_000,
          });
        const given = [d.Value, d.StatisticValues, d.Values].filter((v) => v !== undefined && v !== null);
        if (given.length > 1)
          throw invalidCombination(
            `The parameters ${field}.Value, ${field}.StatisticValues and ${field}.Values are mutually exclusive.`,
          );
        if (d.Value != null) put({ sum: d.Value, count: 1, min: d.Value, max: d.Value });
        else if (d.StatisticValues) {
          // The model requires all four members of a StatisticSet.
          const s = d.StatisticValues;
          put({
            sum: s.Sum as number,
            count: s.SampleCount as number,
            min: s.Minimum as number,
            max: s.Maximum as number,
          });
        } else if (d.Values) {
          const values = d.Values;
          const counts = d.Counts ?? values.map(() => 1);
          if (counts.length !== values.length)
            throw invalidValue(`The parameters ${field}.Values and ${field}.Counts must be the same length.`);
          values.forEach((v, j) => put({ sum: v * (counts[j] ?? 1), count: counts[j] ?? 1, min: v, max: v }));
        } else throw missingParameter(`${field}.Value`);
      });
      return {};
    },

    async GetMetricStatistics(input) {
      const namespace = input.Namespace as string;
      const metricName = input.MetricName as string;
      // StartTime, EndTime and Period are required members: the model has checked they are there.
      const start = time(input.StartTime, 'StartTime') as number;
      const end = time(input.EndTime, 'EndTime') as number;
      if (start >= end)
        throw invalidValue('The parameter StartTime must be less than the parameter EndTime.');
      // An integer ≥ 1 (the model); CloudWatch's own rule on top.
      const period = input.Period as number;
      if (period >= 60 ? period % 60 !== 0 : ![1, 5, 10, 30].includes(period))
        throw invalidValue('The parameter Period must be 1, 5, 10, 30 or a multiple of 60.');
      const statistics = input.Statistics ?? [];
      if (input.ExtendedStatistics !== undefined)
        throw wireError(
          'cloudwatch',
          'UnsupportedOperationException',
          'CloudWatch GetMetricStatistics with ExtendedStatistics (percentiles) is not supported by the local endpoint.',
        );
      // Optional in the model (ExtendedStatistics may stand in for it).
      if (statistics.length === 0) throw missingParameter('Statistics');
      // The statistics the metric store computes (the model's enum today; it lets a null entry through).
      if (statistics.some((s) => !STATISTICS.includes(s as Statistic)))
        throw invalidValue(`The parameter Statistics may contain only ${STATISTICS.join(', ')}.`);
      // "The maximum number of data points returned from a single call is 1,440."
      const requested = Math.ceil((end - start) / (period * 1000));
      if (requested > 1440)
        throw invalidCombination(
          `You have requested up to ${requested} datapoints, which exceeds the limit of 1,440. You may reduce the datapoints requested by increasing Period, or decreasing the time range.`,
        );
      const id = { namespace, metricName, dimensions: readDimensions(input.Dimensions) };
      const unit = input.Unit ?? undefined;
      const periods = periodServesStart(start, clock.now(), period)
        ? metrics.periods(id, start, end, period * 1000, unit)
        : [];
      // A series keeps the StandardUnit PutMetricData gave it.
      const seriesUnit = (metrics.unitOf(id) ?? 'None') as StandardUnit;
      return {
        Label: metricName,
        Datapoints: periods.map((p) => ({
          Timestamp: seconds(p.start),
          ...Object.fromEntries(statistics.map((s) => [s, statisticOf(p, s as Statistic)])),
          Unit: seriesUnit,
        })),
      };
    },

    async GetMetricData(input) {
      // StartTime, EndTime and MetricDataQueries are required members: the model has checked they are there.
      const start = time(input.StartTime, 'StartTime') as number;
      const end = time(input.EndTime, 'EndTime') as number;
      if (start >= end)
        throw invalidValue('The parameter StartTime must be less than the parameter EndTime.');
      const queries = readMetricQueries(input.MetricDataQueries ?? []);
      // ScanBy's values are the model's enum.
      const scanBy = input.ScanBy ?? 'TimestampDescending';
      return {
        MetricDataResults: metricDataResults(metrics, queries, start, end, scanBy, clock.now()),
        Messages: [],
      };
    },

    async ListMetrics(input) {
      const dimensions = input.Dimensions?.map((d: Wire<DimensionFilter> | null, i) => {
        // The model has checked each filter's Name, but lets a null entry through.
        if (d === null) throw missingParameter(`Dimensions.member.${i + 1}.Name`);
        return { Name: d.Name as string, ...(d.Value != null ? { Value: d.Value } : {}) };
      });
      // RecentlyActive's only value, PT3H, is the model's enum.
      const found = metrics.list({
        ...(input.Namespace != null ? { namespace: input.Namespace } : {}),
        ...(input.MetricName != null ? { metricName: input.MetricName } : {}),
        ...(dimensions ? { dimensions } : {}),
        ...(input.RecentlyActive === 'PT3H' ? { activeSinceMs: clock.now() - 3 * 3_600_000 } : {}),
      });
      // ListMetrics returns up to 500 results per call.
      const { page, next } = pageOf(found, input.NextToken, 500);
      return {
        Metrics: page.map((m) => ({
          Namespace: m.namespace,
          MetricName: m.metricName,
          Dimensions: [...m.dimensions],
        })),
        ...(next ? { NextToken: next } : {}),
      };
    },
  };
}
