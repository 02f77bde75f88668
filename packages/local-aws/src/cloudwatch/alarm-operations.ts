// CloudWatch's alarm operations: PutMetricAlarm, DescribeAlarms, DescribeAlarmHistory, DeleteAlarms, SetAlarmState,
// over the endpoint's alarms (state, reason, history, actions: alarms.ts).
import type { MetricAlarm } from '@aws-sdk/client-cloudwatch';
import type { Wire } from '../model/api';
import { invalidCombination, invalidValue, missingParameter, parseAlarmDefinition } from './alarm-definition';
import type { AlarmState } from './alarm-evaluation';
import type { AlarmRecord, Alarms } from './alarms';
import type { CloudWatchClock } from './clock';
import { pageOf, seconds, time, type AlarmOperations } from './wire';
import { tagList, tagsFromList, withoutTags, withTags } from '../tags';
import { wireError } from '../model/wire-errors';

function alarmView(a: AlarmRecord): Wire<MetricAlarm> {
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

export function alarmOperations(alarms: Alarms, clock: CloudWatchClock): AlarmOperations {
  /**
   * The alarm a tagging call's ARN names (`arn:aws:cloudwatch:<region>:<account>:alarm:<name>`); Contributor
   * Insights rules, which CloudWatch tags too, are not kept locally. ResourceNotFoundException as CloudWatch answers.
   */
  const alarmOfArn = (arn: string): AlarmRecord => {
    const match = /^arn:aws[a-z-]*:cloudwatch:[^:]*:[^:]*:alarm:(.+)$/.exec(arn);
    const alarm = match ? alarms.get(match[1] as string) : undefined;
    if (!alarm)
      throw wireError(
        'cloudwatch',
        'ResourceNotFoundException',
        match
          ? `The alarm ${match[1]} does not exist.`
          : `Resource ${arn} was not found: the local CloudWatch keeps tags of metric alarms (arn:aws:cloudwatch:<region>:<account>:alarm:<name>).`,
        { fields: { ResourceType: 'alarm', ResourceId: arn } },
      );
    return alarm;
  };

  return {
    async PutMetricAlarm(input) {
      const definition = parseAlarmDefinition(input);
      alarms.put(definition, clock.now(), withTags({}, tagsFromList(input.Tags), invalidValue));
      return {};
    },

    async ListTagsForResource(input) {
      return { Tags: tagList(alarmOfArn(input.ResourceARN as string).tags) };
    },

    async TagResource(input) {
      const alarm = alarmOfArn(input.ResourceARN as string);
      alarms.setTags(alarm, withTags(alarm.tags, tagsFromList(input.Tags), invalidValue));
      return {};
    },

    async UntagResource(input) {
      const alarm = alarmOfArn(input.ResourceARN as string);
      alarms.setTags(alarm, withoutTags(alarm.tags, input.TagKeys ?? []));
      return {};
    },

    async DescribeAlarms(input) {
      // The model has checked AlarmNames (at most 100), StateValue's and AlarmTypes' values, MaxRecords (1–100).
      const names = input.AlarmNames ?? undefined;
      const prefix = input.AlarmNamePrefix ?? undefined;
      if (names && prefix !== undefined)
        throw invalidCombination('AlarmNames and AlarmNamePrefix cannot be specified together.');
      const state = input.StateValue ?? undefined;
      const types = input.AlarmTypes ?? ['MetricAlarm'];
      const actionPrefix = input.ActionPrefix ?? undefined;
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
      const { page, next } = pageOf(found, input.NextToken, input.MaxRecords ?? 50);
      return {
        MetricAlarms: page.map(alarmView),
        CompositeAlarms: [],
        ...(next ? { NextToken: next } : {}),
      };
    },

    async DescribeAlarmHistory(input) {
      const name = input.AlarmName ?? undefined;
      const type = input.HistoryItemType;
      // The model's enum also has the contributor items of multi-time-series alarms, which are not kept locally.
      if (type !== undefined && !['ConfigurationUpdate', 'StateUpdate', 'Action'].includes(type))
        throw invalidValue(
          'The parameter HistoryItemType must be ConfigurationUpdate, StateUpdate or Action.',
        );
      const from = time(input.StartDate, 'StartDate');
      const to = time(input.EndDate, 'EndDate');
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
      const { page, next } = pageOf(items, input.NextToken, input.MaxRecords ?? 100);
      return {
        AlarmHistoryItems: page.map((h) => ({ ...h, Timestamp: seconds(h.Timestamp) })),
        ...(next ? { NextToken: next } : {}),
      };
    },

    async DeleteAlarms(input) {
      const names = input.AlarmNames as string[];
      // Required by the model, which allows an empty list.
      if (names.length === 0) throw missingParameter('AlarmNames');
      const missing = names.filter((n) => !alarms.get(n));
      if (missing.length > 0)
        throw wireError('cloudwatch', 'ResourceNotFound', `Alarm ${missing.join(', ')} does not exist.`);
      for (const n of names) alarms.delete(n);
      return {};
    },

    async SetAlarmState(input) {
      // AlarmName, StateValue (one of its enum) and StateReason are required members the model has checked.
      const name = input.AlarmName as string;
      const alarm = alarms.get(name);
      if (!alarm) throw wireError('cloudwatch', 'ResourceNotFound', `Alarm ${name} does not exist.`);
      alarms.setState(
        alarm,
        {
          state: input.StateValue as AlarmState,
          reason: input.StateReason as string,
          reasonData: input.StateReasonData ?? '',
        },
        clock.now(),
      );
      return {};
    },
  };
}
