// Reading the failed-rows alarm and its metric through the CloudWatch API, on either target. On AWS CloudWatch
// evaluates on its own schedule, so the lab polls (DescribeAlarms every 30 s, within --alarm-wait). Locally the
// endpoint's CloudWatch clock is adjustable: the lab moves it to the end of the period that holds the data, the
// endpoint evaluates, and the state is read at once — the same alarm, the same rule, minutes turned into seconds.
import {
  DescribeAlarmHistoryCommand,
  DescribeAlarmsCommand,
  GetMetricDataCommand,
  type CloudWatchClient,
} from '@aws-sdk/client-cloudwatch';
import { advanceLocalCloudWatchClock, evaluateLocalAlarms } from '@loglake/local-aws';
import type { FailedRowsAlarmDefinition } from '@loglake/units';

export const ALARM_POLL_MS = 30_000;

export interface Waiting {
  readonly now: () => number;
  readonly sleep: (ms: number) => Promise<void>;
  readonly timeoutMs: number;
  readonly onWait?: (line: string) => void;
}

export interface AlarmReading {
  state: string;
  reason: string;
  waitedMs: number;
}

/** Where CloudWatch's time comes from and how the lab waits for an alarm state on this target. */
export interface AlarmWatch {
  /** CloudWatch's time (ms since the epoch). */
  now(): Promise<number>;
  /** Waits for the alarm to reach `state` after data stamped `dataAt` (ms); returns what it last read. */
  until(state: 'ALARM' | 'OK', dataAt: number): Promise<AlarmReading>;
}

export async function alarmState(
  cw: CloudWatchClient,
  alarmName: string,
): Promise<{ state: string; reason: string }> {
  const found = await cw.send(new DescribeAlarmsCommand({ AlarmNames: [alarmName] }));
  const alarm = found.MetricAlarms?.[0];
  return { state: alarm?.StateValue ?? 'MISSING', reason: alarm?.StateReason ?? '' };
}

/** Locally: the end of the period holding `dataAt` is reached by moving the endpoint's CloudWatch clock. */
export function localAlarmWatch(
  cw: CloudWatchClient,
  endpointUrl: string,
  alarm: FailedRowsAlarmDefinition,
): AlarmWatch {
  return {
    now: async () => (await evaluateLocalAlarms(endpointUrl)).now.getTime(),
    async until(_state, dataAt) {
      const periodMs = alarm.Period * 1000;
      const periodEnd = (Math.floor(dataAt / periodMs) + 1) * periodMs;
      const now = (await evaluateLocalAlarms(endpointUrl)).now.getTime();
      // One second past the period's end: the period is complete and is the one evaluated.
      if (periodEnd + 1000 > now)
        await advanceLocalCloudWatchClock(endpointUrl, (periodEnd + 1000 - now) / 1000);
      return { ...(await alarmState(cw, alarm.AlarmName)), waitedMs: 0 };
    },
  };
}

/** On AWS: CloudWatch evaluates on its own; poll DescribeAlarms until the state or the bound. */
export function awsAlarmWatch(
  cw: CloudWatchClient,
  alarm: FailedRowsAlarmDefinition,
  waiting: Waiting,
): AlarmWatch {
  return {
    now: async () => waiting.now(),
    async until(state) {
      const started = waiting.now();
      for (;;) {
        const read = await alarmState(cw, alarm.AlarmName);
        const waitedMs = waiting.now() - started;
        if (read.state === state || waitedMs >= waiting.timeoutMs) return { ...read, waitedMs };
        waiting.onWait?.(
          `waiting for ${alarm.AlarmName} to be ${state}: it is ${read.state}; ${Math.round(waitedMs / 1000)} s of ${Math.round(waiting.timeoutMs / 1000)} s`,
        );
        await waiting.sleep(Math.min(ALARM_POLL_MS, waiting.timeoutMs - waitedMs));
      }
    },
  };
}

export interface MetricSum {
  sum: number;
  /** Start of the latest period with data (ms), or undefined when there was none. */
  latestAt?: number;
}

/** The Sum of the alarm's metric (DeliveryToIceberg.FailedRowCount) in [startMs, endMs), per alarm period. */
export async function metricSum(
  cw: CloudWatchClient,
  alarm: FailedRowsAlarmDefinition,
  startMs: number,
  endMs: number,
): Promise<MetricSum> {
  const data = await cw.send(
    new GetMetricDataCommand({
      StartTime: new Date(startMs),
      EndTime: new Date(endMs),
      MetricDataQueries: [
        {
          Id: 'failedRows',
          MetricStat: {
            Metric: {
              Namespace: alarm.Namespace,
              MetricName: alarm.MetricName,
              Dimensions: [...alarm.Dimensions],
            },
            Period: alarm.Period,
            Stat: 'Sum',
          },
        },
      ],
      ScanBy: 'TimestampDescending',
    }),
  );
  const result = data.MetricDataResults?.[0];
  const values = result?.Values ?? [];
  const latest = result?.Timestamps?.[0];
  return { sum: values.reduce((a, b) => a + b, 0), ...(latest ? { latestAt: latest.getTime() } : {}) };
}

/** The alarm's states since `sinceMs`, from its StateUpdate history: the state before, then each new one. */
export async function stateHistory(
  cw: CloudWatchClient,
  alarmName: string,
  sinceMs: number,
): Promise<string[]> {
  const history = await cw.send(
    new DescribeAlarmHistoryCommand({
      AlarmName: alarmName,
      HistoryItemType: 'StateUpdate',
      StartDate: new Date(sinceMs),
      ScanBy: 'TimestampAscending',
    }),
  );
  const states: string[] = [];
  for (const item of history.AlarmHistoryItems ?? []) {
    const data = JSON.parse(item.HistoryData ?? '{}') as {
      oldState?: { stateValue?: string };
      newState?: { stateValue?: string };
    };
    if (states.length === 0 && data.oldState?.stateValue) states.push(data.oldState.stateValue);
    if (data.newState?.stateValue) states.push(data.newState.stateValue);
  }
  return states;
}

/** How many alarm actions ran since `sinceMs` (the history's Action items: notifications to the alerts topic). */
export async function actionsRun(cw: CloudWatchClient, alarmName: string, sinceMs: number): Promise<number> {
  const history = await cw.send(
    new DescribeAlarmHistoryCommand({
      AlarmName: alarmName,
      HistoryItemType: 'Action',
      StartDate: new Date(sinceMs),
    }),
  );
  return (history.AlarmHistoryItems ?? []).length;
}
