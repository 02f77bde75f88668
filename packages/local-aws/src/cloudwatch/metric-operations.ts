// CloudWatch's metric operations: PutMetricData, GetMetricStatistics, GetMetricData (MetricStat queries),
// ListMetrics, over the endpoint's metric store, with CloudWatch's limits and refusals.
import { AwsServiceError } from '../errors';
// Handlers read their input as a plain record: the model layer (protocol.ts) has already checked it against
// CloudWatch's model; the checks here are CloudWatch's own rules beyond the model.
type CloudWatchOperation = (input: Record<string, unknown>) => Promise<unknown>;
import { invalidCombination, invalidValue, missingParameter, readDimensions } from './alarm-definition';
import type { CloudWatchClock } from './clock';
import { metricDataResults, readMetricQueries } from './metric-data';
import { STATISTICS, statisticOf, type MetricStore, type Statistic } from './metric-store';
import { pageOf, seconds, time } from './wire';

export function metricOperations(
  metrics: MetricStore,
  clock: CloudWatchClock,
): Record<string, CloudWatchOperation> {
  return {
    async PutMetricData(input) {
      const namespace = input.Namespace;
      if (typeof namespace !== 'string' || namespace === '') throw missingParameter('Namespace');
      // PutMetricData: "You cannot specify a namespace that begins with 'AWS/'" (reserved for AWS services).
      if (namespace.startsWith('AWS/'))
        throw invalidValue(`The value ${namespace} for parameter Namespace is invalid.`);
      const data = input.MetricData;
      if (!Array.isArray(data) || data.length === 0) throw missingParameter('MetricData');
      // "Each PutMetricData request is limited to ... 1000 different metrics."
      if (data.length > 1000)
        throw invalidValue('The collection MetricData must not have a size greater than 1000.');
      const now = clock.now();
      data.forEach((raw, i) => {
        const d = (raw ?? {}) as Record<string, unknown>;
        const field = `MetricData.member.${i + 1}`;
        if (typeof d.MetricName !== 'string' || d.MetricName === '')
          throw missingParameter(`${field}.MetricName`);
        const at = time(d.Timestamp, `${field}.Timestamp`, false) ?? now;
        const resolution = d.StorageResolution;
        if (resolution !== undefined && resolution !== 1 && resolution !== 60)
          throw invalidValue(`The parameter ${field}.StorageResolution must be 1 or 60.`);
        const id = {
          namespace,
          metricName: d.MetricName,
          dimensions: readDimensions(d.Dimensions, `${field}.Dimensions`),
        };
        const put = (set: { sum: number; count: number; min: number; max: number }) =>
          metrics.put(id, at, set, {
            ...(typeof d.Unit === 'string' ? { unit: d.Unit } : {}),
            resolutionMs: resolution === 1 ? 1000 : 60_000,
          });
        const given = [d.Value, d.StatisticValues, d.Values].filter((v) => v !== undefined && v !== null);
        if (given.length > 1)
          throw invalidCombination(
            `The parameters ${field}.Value, ${field}.StatisticValues and ${field}.Values are mutually exclusive.`,
          );
        if (typeof d.Value === 'number') put({ sum: d.Value, count: 1, min: d.Value, max: d.Value });
        else if (d.StatisticValues && typeof d.StatisticValues === 'object') {
          const s = d.StatisticValues as Record<string, unknown>;
          const nums = ['SampleCount', 'Sum', 'Minimum', 'Maximum'].map((k) => s[k]);
          if (nums.some((v) => typeof v !== 'number'))
            throw missingParameter(`${field}.StatisticValues (SampleCount, Sum, Minimum, Maximum)`);
          const [count, sum, min, max] = nums as number[];
          put({ sum: sum as number, count: count as number, min: min as number, max: max as number });
        } else if (Array.isArray(d.Values)) {
          const counts = Array.isArray(d.Counts) ? (d.Counts as number[]) : d.Values.map(() => 1);
          if (counts.length !== d.Values.length)
            throw invalidValue(`The parameters ${field}.Values and ${field}.Counts must be the same length.`);
          (d.Values as number[]).forEach((v, j) =>
            put({ sum: v * (counts[j] ?? 1), count: counts[j] ?? 1, min: v, max: v }),
          );
        } else throw missingParameter(`${field}.Value`);
      });
      return {};
    },

    async GetMetricStatistics(input) {
      const namespace = input.Namespace;
      if (typeof namespace !== 'string' || namespace === '') throw missingParameter('Namespace');
      if (typeof input.MetricName !== 'string' || input.MetricName === '')
        throw missingParameter('MetricName');
      const start = time(input.StartTime, 'StartTime') as number;
      const end = time(input.EndTime, 'EndTime') as number;
      if (start >= end)
        throw invalidValue('The parameter StartTime must be less than the parameter EndTime.');
      const period = input.Period;
      if (typeof period !== 'number') throw missingParameter('Period');
      if (
        !Number.isInteger(period) ||
        period < 1 ||
        (period >= 60 && period % 60 !== 0) ||
        (period < 60 && ![1, 5, 10, 30].includes(period))
      )
        throw invalidValue('The parameter Period must be 1, 5, 10, 30 or a multiple of 60.');
      const statistics = Array.isArray(input.Statistics) ? (input.Statistics as string[]) : [];
      if (input.ExtendedStatistics !== undefined)
        throw new AwsServiceError(
          'UnsupportedOperationException',
          400,
          'CloudWatch GetMetricStatistics with ExtendedStatistics (percentiles) is not supported by the local endpoint.',
        );
      if (statistics.length === 0) throw missingParameter('Statistics');
      if (statistics.some((s) => !STATISTICS.includes(s as Statistic)))
        throw invalidValue(`The parameter Statistics may contain only ${STATISTICS.join(', ')}.`);
      // "The maximum number of data points returned from a single call is 1,440."
      const requested = Math.ceil((end - start) / (period * 1000));
      if (requested > 1440)
        throw invalidCombination(
          `You have requested up to ${requested} datapoints, which exceeds the limit of 1,440. You may reduce the datapoints requested by increasing Period, or decreasing the time range.`,
        );
      const id = { namespace, metricName: input.MetricName, dimensions: readDimensions(input.Dimensions) };
      const unit = typeof input.Unit === 'string' ? input.Unit : undefined;
      const periods = metrics.periods(id, start, end, period * 1000, unit);
      const seriesUnit = metrics.unitOf(id) ?? 'None';
      return {
        Label: input.MetricName,
        Datapoints: periods.map((p) => ({
          Timestamp: seconds(p.start),
          ...Object.fromEntries(statistics.map((s) => [s, statisticOf(p, s as Statistic)])),
          Unit: seriesUnit,
        })),
      };
    },

    async GetMetricData(input) {
      const start = time(input.StartTime, 'StartTime') as number;
      const end = time(input.EndTime, 'EndTime') as number;
      if (start >= end)
        throw invalidValue('The parameter StartTime must be less than the parameter EndTime.');
      const queries = readMetricQueries(input.MetricDataQueries);
      const scanBy = input.ScanBy ?? 'TimestampDescending';
      if (scanBy !== 'TimestampDescending' && scanBy !== 'TimestampAscending')
        throw invalidValue('The parameter ScanBy must be TimestampDescending or TimestampAscending.');
      return {
        MetricDataResults: metricDataResults(metrics, queries, start, end, scanBy),
        Messages: [],
      };
    },

    async ListMetrics(input) {
      const dimensions = Array.isArray(input.Dimensions)
        ? (input.Dimensions as Record<string, unknown>[]).map((d, i) => {
            if (typeof d?.Name !== 'string') throw missingParameter(`Dimensions.member.${i + 1}.Name`);
            return { Name: d.Name, ...(typeof d.Value === 'string' ? { Value: d.Value } : {}) };
          })
        : undefined;
      if (input.RecentlyActive !== undefined && input.RecentlyActive !== 'PT3H')
        throw invalidValue('The parameter RecentlyActive must be PT3H.');
      const found = metrics.list({
        ...(typeof input.Namespace === 'string' ? { namespace: input.Namespace } : {}),
        ...(typeof input.MetricName === 'string' ? { metricName: input.MetricName } : {}),
        ...(dimensions ? { dimensions } : {}),
        ...(input.RecentlyActive === 'PT3H' ? { activeSinceMs: clock.now() - 3 * 3_600_000 } : {}),
      });
      // ListMetrics returns up to 500 results per call.
      const { page, next } = pageOf(found, input.NextToken, 500);
      return {
        Metrics: page.map((m) => ({
          Namespace: m.namespace,
          MetricName: m.metricName,
          Dimensions: m.dimensions,
        })),
        ...(next ? { NextToken: next } : {}),
      };
    },
  };
}
