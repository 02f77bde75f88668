// Amazon CloudWatch metrics and alarms. The AWS SDK v3 client (3.1127) speaks CloudWatch's JSON protocol:
// awsJson1_0, `X-Amz-Target: GraniteServiceVersion20100801.<Op>`, timestamps as epoch seconds; the model is
// `@awsQueryCompatible`, so errors also carry `x-amzn-query-error: <Code>;Sender` (the codes of the old awsQuery
// API: MissingParameter, InvalidParameterValue, ResourceNotFound…). Served: PutMetricData, GetMetricData (MetricStat
// queries), GetMetricStatistics, ListMetrics, PutMetricAlarm, DescribeAlarms, DescribeAlarmHistory, DeleteAlarms,
// SetAlarmState. Alarms are evaluated every EVALUATE_EVERY_MS of wall time and whenever the clock is advanced.
// Services of the endpoint (Firehose) record their documented metrics through `metrics.put`.
import { AwsServiceError } from '../errors';
import { awsJsonService, type ServiceModule } from '../protocol';
import type { JsonStore } from '../store';
import {
  invalidCombination,
  invalidValue,
  missingParameter,
  parseAlarmDefinition,
  readDimensions,
} from './alarm-definition';
import type { AlarmState } from './alarm-evaluation';
import { Alarms, type AlarmRecord, type CapturedNotification, type HistoryItemType } from './alarms';
import { CloudWatchClock } from './clock';
import { readMetricQueries, metricDataResults } from './metric-data';
import { MetricStore, STATISTICS, statisticOf, type Statistic } from './metric-store';

export interface CloudWatchOptions {
  store: JsonStore;
  region: string;
  accountId: string;
  /** 'adjustable': POST /_local/cloudwatch/clock may move the clock forward (the lab's alarm experiment). */
  clock?: 'wall' | 'adjustable';
}

export interface CloudWatchService extends ServiceModule {
  readonly metrics: MetricStore;
  readonly clock: CloudWatchClock;
  /** Evaluates every alarm now (on the CloudWatch clock); returns the state changes. */
  evaluate(): { alarm: string; from: AlarmState; to: AlarmState }[];
  /** Moves the clock forward, then evaluates. */
  advanceClock(seconds: number): {
    now: Date;
    changes: { alarm: string; from: AlarmState; to: AlarmState }[];
  };
  notifications(): CapturedNotification[];
}

/** CloudWatch evaluates alarms about once a minute; locally every 10 s of wall time, so none waits long. */
const EVALUATE_EVERY_MS = 10_000;

/** The awsQuery code and fault of each CloudWatch exception (the model's @awsQueryError traits). */
const QUERY_ERRORS: Record<string, string> = {
  MissingRequiredParameterException: 'MissingParameter;Sender',
  InvalidParameterValueException: 'InvalidParameterValue;Sender',
  InvalidParameterCombinationException: 'InvalidParameterCombination;Sender',
  ResourceNotFound: 'ResourceNotFound;Sender',
  InvalidNextToken: 'InvalidNextToken;Sender',
  LimitExceededFault: 'LimitExceeded;Sender',
  InternalServiceFault: 'InternalServiceError;Receiver',
};

const seconds = (ms: number) => ms / 1000;

function time(value: unknown, name: string, required = true): number | undefined {
  if (value === undefined || value === null) {
    if (required) throw missingParameter(name);
    return undefined;
  }
  // The SDK sends epoch seconds; a date string is accepted too.
  const ms = typeof value === 'number' ? value * 1000 : Date.parse(String(value));
  if (!Number.isFinite(ms)) throw invalidValue(`The parameter ${name} must be a timestamp.`);
  return ms;
}

function pageOf<T>(items: T[], token: unknown, max: number): { page: T[]; next?: string } {
  const start = token === undefined || token === null ? 0 : Number.parseInt(String(token), 10);
  if (!Number.isInteger(start) || start < 0 || start > items.length)
    throw new AwsServiceError('InvalidNextToken', 400, 'The service returned an error: invalid NextToken.');
  const page = items.slice(start, start + max);
  return { page, ...(start + max < items.length ? { next: String(start + max) } : {}) };
}

function alarmView(a: AlarmRecord) {
  return {
    AlarmName: a.AlarmName,
    AlarmArn: a.AlarmArn,
    ...(a.AlarmDescription !== undefined ? { AlarmDescription: a.AlarmDescription } : {}),
    AlarmConfigurationUpdatedTimestamp: seconds(a.AlarmConfigurationUpdatedTimestamp),
    ActionsEnabled: a.ActionsEnabled,
    OKActions: a.OKActions,
    AlarmActions: a.AlarmActions,
    InsufficientDataActions: a.InsufficientDataActions,
    StateValue: a.StateValue,
    StateReason: a.StateReason,
    ...(a.StateReasonData ? { StateReasonData: a.StateReasonData } : {}),
    StateUpdatedTimestamp: seconds(a.StateUpdatedTimestamp),
    MetricName: a.MetricName,
    Namespace: a.Namespace,
    Statistic: a.Statistic,
    Dimensions: a.Dimensions,
    Period: a.Period,
    ...(a.Unit ? { Unit: a.Unit } : {}),
    EvaluationPeriods: a.EvaluationPeriods,
    ...(a.DatapointsToAlarm !== undefined ? { DatapointsToAlarm: a.DatapointsToAlarm } : {}),
    Threshold: a.Threshold,
    ComparisonOperator: a.ComparisonOperator,
    ...(a.TreatMissingData ? { TreatMissingData: a.TreatMissingData } : {}),
    StateTransitionedTimestamp: seconds(a.StateTransitionedTimestamp),
  };
}

export function createCloudWatchService(options: CloudWatchOptions): CloudWatchService {
  const clock = new CloudWatchClock(options.clock === 'adjustable');
  const metrics = new MetricStore(options.store);
  const alarms = new Alarms(
    options.store,
    metrics,
    (name) => `arn:aws:cloudwatch:${options.region}:${options.accountId}:alarm:${name}`,
    options.accountId,
    options.region,
  );
  const evaluate = () => alarms.evaluateAll(clock.now());
  const timer = setInterval(() => {
    try {
      evaluate();
    } catch {
      // A failed evaluation (a state folder that cannot be written) is retried at the next tick.
    }
  }, EVALUATE_EVERY_MS);
  timer.unref();

  const service = awsJsonService({
    name: 'CloudWatch',
    targetPrefix: 'GraniteServiceVersion20100801',
    messageKey: 'message',
    internalErrorCode: 'InternalServiceFault',
    protocol: 'awsJson1_0',
    queryErrors: QUERY_ERRORS,
    operations: {
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
              throw invalidValue(
                `The parameters ${field}.Values and ${field}.Counts must be the same length.`,
              );
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

      async PutMetricAlarm(input) {
        const definition = parseAlarmDefinition(input);
        alarms.put(definition, clock.now());
        return {};
      },

      async DescribeAlarms(input) {
        const names = Array.isArray(input.AlarmNames) ? (input.AlarmNames as string[]) : undefined;
        if (names && names.length > 100)
          throw invalidValue('The collection AlarmNames must not have a size greater than 100.');
        const prefix = typeof input.AlarmNamePrefix === 'string' ? input.AlarmNamePrefix : undefined;
        if (names && prefix !== undefined)
          throw invalidCombination('AlarmNames and AlarmNamePrefix cannot be specified together.');
        const state = input.StateValue;
        if (state !== undefined && !['OK', 'ALARM', 'INSUFFICIENT_DATA'].includes(String(state)))
          throw invalidValue('The parameter StateValue must be OK, ALARM or INSUFFICIENT_DATA.');
        const types = Array.isArray(input.AlarmTypes) ? (input.AlarmTypes as string[]) : ['MetricAlarm'];
        const actionPrefix = typeof input.ActionPrefix === 'string' ? input.ActionPrefix : undefined;
        const found = types.includes('MetricAlarm')
          ? alarms
              .all()
              .filter(
                (a) =>
                  (!names || names.includes(a.AlarmName)) &&
                  (prefix === undefined || a.AlarmName.startsWith(prefix)) &&
                  (state === undefined || a.StateValue === state) &&
                  (actionPrefix === undefined ||
                    [...a.AlarmActions, ...a.OKActions, ...a.InsufficientDataActions].some((x) =>
                      x.startsWith(actionPrefix),
                    )),
              )
          : [];
        const max = typeof input.MaxRecords === 'number' ? input.MaxRecords : 50;
        if (!Number.isInteger(max) || max < 1 || max > 100)
          throw invalidValue('The parameter MaxRecords must be between 1 and 100.');
        const { page, next } = pageOf(found, input.NextToken, max);
        return {
          MetricAlarms: page.map(alarmView),
          CompositeAlarms: [],
          ...(next ? { NextToken: next } : {}),
        };
      },

      async DescribeAlarmHistory(input) {
        const name = typeof input.AlarmName === 'string' ? input.AlarmName : undefined;
        const type = input.HistoryItemType as HistoryItemType | undefined;
        if (type !== undefined && !['ConfigurationUpdate', 'StateUpdate', 'Action'].includes(type))
          throw invalidValue(
            'The parameter HistoryItemType must be ConfigurationUpdate, StateUpdate or Action.',
          );
        const from = time(input.StartDate, 'StartDate', false);
        const to = time(input.EndDate, 'EndDate', false);
        const scanBy = input.ScanBy ?? 'TimestampDescending';
        const items = (name ? alarms.history(name) : alarms.all().flatMap((a) => alarms.history(a.AlarmName)))
          .filter(
            (h) =>
              (type === undefined || h.HistoryItemType === type) &&
              (from === undefined || h.Timestamp >= from) &&
              (to === undefined || h.Timestamp <= to),
          )
          .sort((a, b) =>
            scanBy === 'TimestampAscending' ? a.Timestamp - b.Timestamp : b.Timestamp - a.Timestamp,
          );
        const max = typeof input.MaxRecords === 'number' ? input.MaxRecords : 100;
        const { page, next } = pageOf(items, input.NextToken, max);
        return {
          AlarmHistoryItems: page.map((h) => ({ ...h, Timestamp: seconds(h.Timestamp) })),
          ...(next ? { NextToken: next } : {}),
        };
      },

      async DeleteAlarms(input) {
        const names = Array.isArray(input.AlarmNames) ? (input.AlarmNames as string[]) : undefined;
        if (!names || names.length === 0) throw missingParameter('AlarmNames');
        const missing = names.filter((n) => !alarms.get(n));
        if (missing.length > 0)
          throw new AwsServiceError('ResourceNotFound', 404, `Alarm ${missing.join(', ')} does not exist.`);
        for (const n of names) alarms.delete(n);
        return {};
      },

      async SetAlarmState(input) {
        const name = input.AlarmName;
        if (typeof name !== 'string' || name === '') throw missingParameter('AlarmName');
        const state = input.StateValue;
        if (typeof state !== 'string') throw missingParameter('StateValue');
        if (!['OK', 'ALARM', 'INSUFFICIENT_DATA'].includes(state))
          throw invalidValue('The parameter StateValue must be OK, ALARM or INSUFFICIENT_DATA.');
        if (typeof input.StateReason !== 'string') throw missingParameter('StateReason');
        const alarm = alarms.get(name);
        if (!alarm) throw new AwsServiceError('ResourceNotFound', 404, `Alarm ${name} does not exist.`);
        alarms.setState(
          alarm,
          {
            state: state as AlarmState,
            reason: input.StateReason,
            reasonData: typeof input.StateReasonData === 'string' ? input.StateReasonData : '',
          },
          clock.now(),
        );
        return {};
      },
    },
    close: async () => {
      clearInterval(timer);
      metrics.flush(clock.now());
    },
  });

  return Object.assign(service, {
    metrics,
    clock,
    evaluate,
    advanceClock(by: number) {
      const now = clock.advance(by);
      return { now: new Date(now), changes: evaluate() };
    },
    notifications: () => alarms.capturedNotifications(),
  });
}
