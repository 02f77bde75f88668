// The CloudWatch operations as the endpoint serves them, typed from the AWS SDK's input and output types on the
// wire (model/api.ts `Wire`), and the wire helpers they share: timestamps as the JSON protocol sends them (epoch
// seconds), and the NextToken paging of CloudWatch's list operations.
import type {
  DeleteAlarmsInput,
  DescribeAlarmHistoryInput,
  DescribeAlarmHistoryOutput,
  DescribeAlarmsInput,
  DescribeAlarmsOutput,
  GetMetricDataInput,
  GetMetricDataOutput,
  GetMetricStatisticsInput,
  GetMetricStatisticsOutput,
  ListMetricsInput,
  ListMetricsOutput,
  PutMetricAlarmInput,
  PutMetricDataInput,
  SetAlarmStateInput,
  ListTagsForResourceInput,
  ListTagsForResourceOutput,
  TagResourceInput,
  UntagResourceInput,
} from '@aws-sdk/client-cloudwatch';
import type { Wire } from '../model/api';
import type { WireOperation } from '../protocol';
import { invalidValue } from './alarm-definition';
import { wireError } from '../model/wire-errors';

/**
 * A handler sees input the model layer (protocol.ts awsJsonService → checkInput) has already checked against
 * CloudWatch's model: required members present, JSON types, enums, lengths and ranges. What is left to it are
 * CloudWatch's rules beyond the model. The model lets null through where a member is optional (null = absent)
 * and as a list's entry, so handlers still meet those.
 */
/** PutMetricData, PutMetricAlarm, DeleteAlarms and SetAlarmState answer an empty body (the SDK's output is metadata). */
type NoOutput = Record<string, never>;

export interface CloudWatchOperations {
  [operation: string]: WireOperation<never, unknown>;
  PutMetricData: WireOperation<PutMetricDataInput, NoOutput>;
  GetMetricData: WireOperation<GetMetricDataInput, GetMetricDataOutput>;
  GetMetricStatistics: WireOperation<GetMetricStatisticsInput, GetMetricStatisticsOutput>;
  ListMetrics: WireOperation<ListMetricsInput, ListMetricsOutput>;
  PutMetricAlarm: WireOperation<PutMetricAlarmInput, NoOutput>;
  DescribeAlarms: WireOperation<DescribeAlarmsInput, DescribeAlarmsOutput>;
  DescribeAlarmHistory: WireOperation<DescribeAlarmHistoryInput, DescribeAlarmHistoryOutput>;
  DeleteAlarms: WireOperation<DeleteAlarmsInput, NoOutput>;
  SetAlarmState: WireOperation<SetAlarmStateInput, NoOutput>;
  ListTagsForResource: WireOperation<ListTagsForResourceInput, ListTagsForResourceOutput>;
  TagResource: WireOperation<TagResourceInput, NoOutput>;
  UntagResource: WireOperation<UntagResourceInput, NoOutput>;
}

export type MetricOperations = Pick<
  CloudWatchOperations,
  'PutMetricData' | 'GetMetricData' | 'GetMetricStatistics' | 'ListMetrics'
>;
export type AlarmOperations = Pick<
  CloudWatchOperations,
  | 'PutMetricAlarm'
  | 'DescribeAlarms'
  | 'DescribeAlarmHistory'
  | 'DeleteAlarms'
  | 'SetAlarmState'
  | 'ListTagsForResource'
  | 'TagResource'
  | 'UntagResource'
>;

export const seconds = (ms: number) => ms / 1000;

/**
 * A timestamp member in ms since the epoch (undefined when absent). The model checks it is a number or a string;
 * whether a string is a date is left here.
 */
export function time(value: Wire<Date> | null | undefined, name: string): number | undefined {
  if (value == null) return undefined;
  // The SDK sends epoch seconds; a date string is accepted too.
  const ms = typeof value === 'number' ? value * 1000 : Date.parse(value);
  if (!Number.isFinite(ms)) throw invalidValue(`The parameter ${name} must be a timestamp.`);
  return ms;
}

export function pageOf<T>(
  items: T[],
  token: string | null | undefined,
  max: number,
): { page: T[]; next?: string } {
  const start = token === undefined || token === null ? 0 : Number.parseInt(token, 10);
  if (!Number.isInteger(start) || start < 0 || start > items.length)
    throw wireError('cloudwatch', 'InvalidNextToken', 'The service returned an error: invalid NextToken.');
  const page = items.slice(start, start + max);
  return { page, ...(start + max < items.length ? { next: String(start + max) } : {}) };
}
