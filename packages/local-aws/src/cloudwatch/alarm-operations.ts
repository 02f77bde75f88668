// CloudWatch's alarm operations: PutMetricAlarm, DescribeAlarms, DescribeAlarmHistory, DeleteAlarms, SetAlarmState,
// over the endpoint's alarms (state, reason, history, actions: alarms.ts).
import { AwsServiceError } from '../errors';
// Handlers read their input as a plain record: the model layer (protocol.ts) has already checked it against
// CloudWatch's model; the checks here are CloudWatch's own rules beyond the model.
type CloudWatchOperation = (input: Record<string, unknown>) => Promise<unknown>;
import { invalidCombination, invalidValue, missingParameter, parseAlarmDefinition } from './alarm-definition';
import type { AlarmState } from './alarm-evaluation';
import type { AlarmRecord, Alarms, HistoryItemType } from './alarms';
import type { CloudWatchClock } from './clock';
import { pageOf, seconds, time } from './wire';

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

export function alarmOperations(alarms: Alarms, clock: CloudWatchClock): Record<string, CloudWatchOperation> {
  return {
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
  };
}
