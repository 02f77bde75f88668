// The metric alarms of the endpoint's account: their definitions and states, each state change in the alarm's
// history (DescribeAlarmHistory's ConfigurationUpdate, StateUpdate and Action items), and the actions a change
// runs. CloudWatch publishes to the SNS topics in the alarm's actions; the local endpoint serves no SNS, so it
// keeps the message it would publish (GET /_local/cloudwatch/notifications) and records the action in the
// history as CloudWatch does. Persisted in the endpoint's state folder.
import type { TagMap } from '../tags';
import type { JsonStore } from '../store';
import type { AlarmDefinition } from './alarm-definition';
import { evaluateAlarm, evaluatedPeriodStarts, type AlarmState, type Evaluation } from './alarm-evaluation';
import type { MetricStore } from './metric-store';

export interface AlarmRecord extends AlarmDefinition {
  AlarmArn: string;
  AlarmConfigurationUpdatedTimestamp: number;
  StateValue: AlarmState;
  StateReason: string;
  StateReasonData?: string;
  StateUpdatedTimestamp: number;
  StateTransitionedTimestamp: number;
  /** The alarm's tags: given when it is created, changed by TagResource and UntagResource only. */
  tags?: TagMap;
}

export type HistoryItemType = 'ConfigurationUpdate' | 'StateUpdate' | 'Action';

export interface HistoryItem {
  AlarmName: string;
  AlarmType: 'MetricAlarm';
  Timestamp: number;
  HistoryItemType: HistoryItemType;
  HistorySummary: string;
  HistoryData: string;
}

/** A message CloudWatch would have published to an SNS topic of the alarm's actions. */
export interface CapturedNotification {
  topicArn: string;
  alarmName: string;
  oldState: AlarmState;
  newState: AlarmState;
  at: string;
  /** The alarm notification's JSON body, in the shape CloudWatch publishes to SNS. */
  message: string;
  delivered: false;
}

const alarmKey = (name: string) => ['cloudwatch', 'alarms', name];
const historyKey = (name: string) => ['cloudwatch', 'history', name];
/** CloudWatch keeps alarm history for 30 days. */
const HISTORY_RETENTION_MS = 30 * 86_400_000;

export class Alarms {
  private readonly notifications: CapturedNotification[] = [];

  constructor(
    private readonly store: JsonStore,
    private readonly metrics: MetricStore,
    private readonly arnOf: (name: string) => string,
    private readonly accountId: string,
    private readonly region: string,
  ) {}

  get(name: string): AlarmRecord | undefined {
    return this.store.read<AlarmRecord>(alarmKey(name));
  }

  all(): AlarmRecord[] {
    return this.store
      .list(['cloudwatch', 'alarms'])
      .map((name) => this.store.read<AlarmRecord>(alarmKey(name)))
      .filter((a): a is AlarmRecord => a !== undefined)
      .sort((a, b) => a.AlarmName.localeCompare(b.AlarmName));
  }

  /**
   * PutMetricAlarm: creates the alarm in INSUFFICIENT_DATA with its tags, or replaces an alarm's configuration (state
   * and tags kept: "If you are using this operation to update an existing alarm, any tags you specify in this
   * parameter are ignored", API reference).
   */
  put(definition: AlarmDefinition, nowMs: number, tags: TagMap = {}): AlarmRecord {
    const existing = this.get(definition.AlarmName);
    const record: AlarmRecord = existing
      ? {
          ...pickState(existing),
          ...definition,
          AlarmArn: existing.AlarmArn,
          AlarmConfigurationUpdatedTimestamp: nowMs,
          ...(existing.tags ? { tags: existing.tags } : {}),
        }
      : {
          ...definition,
          AlarmArn: this.arnOf(definition.AlarmName),
          AlarmConfigurationUpdatedTimestamp: nowMs,
          StateValue: 'INSUFFICIENT_DATA',
          StateReason: 'Unchecked: Initial alarm creation',
          StateUpdatedTimestamp: nowMs,
          StateTransitionedTimestamp: nowMs,
          ...(Object.keys(tags).length > 0 ? { tags } : {}),
        };
    this.store.write(alarmKey(record.AlarmName), record);
    this.addHistory({
      AlarmName: record.AlarmName,
      AlarmType: 'MetricAlarm',
      Timestamp: nowMs,
      HistoryItemType: 'ConfigurationUpdate',
      HistorySummary: `Alarm "${record.AlarmName}" ${existing ? 'updated' : 'created'}`,
      HistoryData: JSON.stringify({
        version: '1.0',
        type: existing ? 'Update' : 'Create',
        [existing ? 'updatedAlarm' : 'createdAlarm']: definitionView(record),
      }),
    });
    return record;
  }

  /** Replaces an alarm's tags (TagResource and UntagResource compute the new set). */
  setTags(alarm: AlarmRecord, tags: TagMap): void {
    this.store.write(alarmKey(alarm.AlarmName), { ...alarm, tags });
  }

  delete(name: string): boolean {
    if (!this.get(name)) return false;
    this.store.delete(alarmKey(name));
    this.store.delete(historyKey(name));
    return true;
  }

  history(name: string): HistoryItem[] {
    return this.store.read<HistoryItem[]>(historyKey(name)) ?? [];
  }

  capturedNotifications(): CapturedNotification[] {
    return [...this.notifications];
  }

  /** Evaluates every alarm at `nowMs` (what CloudWatch does about once a minute); returns the changes made. */
  evaluateAll(nowMs: number): { alarm: string; from: AlarmState; to: AlarmState }[] {
    const changes: { alarm: string; from: AlarmState; to: AlarmState }[] = [];
    for (const alarm of this.all()) {
      const starts = evaluatedPeriodStarts(alarm, nowMs);
      const periodMs = alarm.Period * 1000;
      const data = this.metrics.periods(
        { namespace: alarm.Namespace, metricName: alarm.MetricName, dimensions: alarm.Dimensions },
        starts[0] as number,
        (starts[starts.length - 1] as number) + periodMs,
        periodMs,
        alarm.Unit,
      );
      const evaluation = evaluateAlarm(alarm, data, nowMs);
      if (!evaluation) continue;
      const from = alarm.StateValue;
      if (this.setState(alarm, evaluation, nowMs))
        changes.push({ alarm: alarm.AlarmName, from, to: evaluation.state });
    }
    return changes;
  }

  /** SetAlarmState, or an evaluation: a change of state is recorded and its actions run; returns whether it changed. */
  setState(alarm: AlarmRecord, evaluation: Evaluation, nowMs: number): boolean {
    const old = alarm.StateValue;
    // The same state: CloudWatch keeps the first reason of the state (no history item, no action).
    if (old === evaluation.state) return false;
    const updated: AlarmRecord = {
      ...alarm,
      StateValue: evaluation.state,
      StateReason: evaluation.reason,
      ...(evaluation.reasonData ? { StateReasonData: evaluation.reasonData } : {}),
      StateUpdatedTimestamp: nowMs,
      StateTransitionedTimestamp: nowMs,
    };
    this.store.write(alarmKey(alarm.AlarmName), updated);
    this.addHistory({
      AlarmName: alarm.AlarmName,
      AlarmType: 'MetricAlarm',
      Timestamp: nowMs,
      HistoryItemType: 'StateUpdate',
      HistorySummary: `Alarm updated from ${old} to ${evaluation.state}`,
      HistoryData: JSON.stringify({
        version: '1.0',
        oldState: { stateValue: old, stateReason: alarm.StateReason },
        newState: {
          stateValue: evaluation.state,
          stateReason: evaluation.reason,
          ...(evaluation.reasonData ? { stateReasonData: JSON.parse(evaluation.reasonData) as unknown } : {}),
        },
      }),
    });
    if (updated.ActionsEnabled) this.runActions(updated, old, nowMs);
    return true;
  }

  private runActions(alarm: AlarmRecord, old: AlarmState, nowMs: number): void {
    const targets =
      alarm.StateValue === 'ALARM'
        ? alarm.AlarmActions
        : alarm.StateValue === 'OK'
          ? alarm.OKActions
          : alarm.InsufficientDataActions;
    for (const arn of targets) {
      const message = JSON.stringify({
        AlarmName: alarm.AlarmName,
        AlarmDescription: alarm.AlarmDescription ?? null,
        AWSAccountId: this.accountId,
        AlarmConfigurationUpdatedTimestamp: new Date(alarm.AlarmConfigurationUpdatedTimestamp).toISOString(),
        NewStateValue: alarm.StateValue,
        NewStateReason: alarm.StateReason,
        StateChangeTime: new Date(nowMs).toISOString(),
        Region: this.region,
        AlarmArn: alarm.AlarmArn,
        OldStateValue: old,
        Trigger: {
          MetricName: alarm.MetricName,
          Namespace: alarm.Namespace,
          StatisticType: 'Statistic',
          Statistic: alarm.Statistic.toUpperCase(),
          Unit: alarm.Unit ?? null,
          Dimensions: alarm.Dimensions.map((d) => ({ value: d.Value, name: d.Name })),
          Period: alarm.Period,
          EvaluationPeriods: alarm.EvaluationPeriods,
          ComparisonOperator: alarm.ComparisonOperator,
          Threshold: alarm.Threshold,
          TreatMissingData: alarm.TreatMissingData ?? 'missing',
        },
      });
      this.notifications.push({
        topicArn: arn,
        alarmName: alarm.AlarmName,
        oldState: old,
        newState: alarm.StateValue,
        at: new Date(nowMs).toISOString(),
        message,
        delivered: false,
      });
      if (this.notifications.length > 500) this.notifications.shift();
      this.addHistory({
        AlarmName: alarm.AlarmName,
        AlarmType: 'MetricAlarm',
        Timestamp: nowMs,
        HistoryItemType: 'Action',
        HistorySummary: `Successfully executed action ${arn}`,
        HistoryData: JSON.stringify({
          actionState: 'Succeeded',
          stateUpdateTimestamp: nowMs,
          notificationResource: arn,
          publishedMessage: message,
          localNote: 'captured by the local endpoint, not sent (it serves no SNS)',
        }),
      });
    }
  }

  private addHistory(item: HistoryItem): void {
    const items = [...this.history(item.AlarmName), item].filter(
      (h) => h.Timestamp >= item.Timestamp - HISTORY_RETENTION_MS,
    );
    this.store.write(historyKey(item.AlarmName), items);
  }
}

function pickState(a: AlarmRecord) {
  return {
    StateValue: a.StateValue,
    StateReason: a.StateReason,
    ...(a.StateReasonData ? { StateReasonData: a.StateReasonData } : {}),
    StateUpdatedTimestamp: a.StateUpdatedTimestamp,
    StateTransitionedTimestamp: a.StateTransitionedTimestamp,
  };
}

function definitionView(a: AlarmRecord): Record<string, unknown> {
  return {
    alarmName: a.AlarmName,
    actionsEnabled: a.ActionsEnabled,
    alarmActions: a.AlarmActions,
    okActions: a.OKActions,
    namespace: a.Namespace,
    metricName: a.MetricName,
    dimensions: a.Dimensions.map((d) => ({ name: d.Name, value: d.Value })),
    statistic: a.Statistic.toUpperCase(),
    period: a.Period,
    evaluationPeriods: a.EvaluationPeriods,
    threshold: a.Threshold,
    comparisonOperator: a.ComparisonOperator,
    treatMissingData: a.TreatMissingData ?? 'missing',
  };
}
