// A metric alarm as PutMetricAlarm defines it, validated with the rules the CloudWatch API reference states for
// PutMetricAlarm (Period, EvaluationPeriods, DatapointsToAlarm, Statistic/ExtendedStatistic, TreatMissingData,
// ComparisonOperator, actions), answering what CloudWatch answers: MissingParameter, InvalidParameterValue,
// InvalidParameterCombination. Metric math alarms (`Metrics`) and anomaly detection are not served locally.
import type {
  Dimension as SdkDimension,
  PutMetricAlarmInput,
  StandardUnit,
} from '@aws-sdk/client-cloudwatch';
import type { Wire } from '../model/api';
import { STATISTICS, sortedDimensions, type Dimension, type Statistic } from './metric-store';
import { notSupported, wireError } from '../model/wire-errors';

export const COMPARISON_OPERATORS = {
  GreaterThanOrEqualToThreshold: 'greater than or equal to',
  GreaterThanThreshold: 'greater than',
  LessThanThreshold: 'less than',
  LessThanOrEqualToThreshold: 'less than or equal to',
} as const;
export type ComparisonOperator = keyof typeof COMPARISON_OPERATORS;

/** The anomaly-detection operators exist in CloudWatch but need a band (ThresholdMetricId): not served locally. */
const BAND_OPERATORS = [
  'LessThanLowerOrGreaterThanUpperThreshold',
  'LessThanLowerThreshold',
  'GreaterThanUpperThreshold',
];

const TREAT_MISSING_DATA = ['breaching', 'notBreaching', 'ignore', 'missing'] as const;
export type TreatMissingData = (typeof TREAT_MISSING_DATA)[number];

export interface AlarmDefinition {
  AlarmName: string;
  AlarmDescription?: string;
  ActionsEnabled: boolean;
  OKActions: string[];
  AlarmActions: string[];
  InsufficientDataActions: string[];
  MetricName: string;
  Namespace: string;
  Statistic: Statistic;
  Dimensions: Dimension[];
  Period: number;
  Unit?: StandardUnit;
  EvaluationPeriods: number;
  DatapointsToAlarm?: number;
  Threshold: number;
  ComparisonOperator: ComparisonOperator;
  TreatMissingData?: TreatMissingData;
}

export const missingParameter = (name: string) =>
  wireError('cloudwatch', 'MissingRequiredParameterException', `The parameter ${name} is required.`);

export const invalidValue = (message: string) =>
  wireError('cloudwatch', 'InvalidParameterValueException', message);

export const invalidCombination = (message: string) =>
  wireError('cloudwatch', 'InvalidParameterCombinationException', message);

/** Dimensions as CloudWatch takes them, sorted by name; the model has checked each Name and Value and the count. */
export function readDimensions(
  value: readonly (Wire<SdkDimension> | null)[] | null | undefined,
  field = 'Dimensions',
): Dimension[] {
  if (value === undefined || value === null) return [];
  const dimensions = value.map((d, i) => {
    // The model checks a list's entries but lets a null entry through.
    if (d === null) throw missingParameter(`${field}.member.${i + 1}.Name`);
    return { Name: d.Name as string, Value: d.Value as string };
  });
  const names = new Set(dimensions.map((d) => d.Name));
  if (names.size !== dimensions.length)
    throw invalidValue(`No metric may have duplicate dimension names (${field}).`);
  return sortedDimensions(dimensions);
}

/** An action list (the model has checked it holds at most 5 names): each an ARN. */
function actions(value: readonly (string | null)[] | null | undefined, key: string): string[] {
  if (value === undefined || value === null) return [];
  // A null entry passes the model.
  if (value.some((a) => typeof a !== 'string'))
    throw invalidValue(`The parameter ${key} must be a list of ARNs.`);
  for (const arn of value as string[]) {
    if (!/^arn:aws[a-z-]*:[a-z0-9-]+:/.test(arn))
      throw invalidValue(`Invalid arn syntax: ${arn} (in ${key}).`);
  }
  return value as string[];
}

/** A member PutMetricAlarm needs though the model leaves it optional (it also serves metric math alarms). */
function required<T>(value: T | null | undefined, key: string): T {
  if (value == null) throw missingParameter(key);
  return value;
}

/**
 * PutMetricAlarm's input → a validated definition (the API reference's rules, its error codes). The model has
 * checked AlarmName (1–255 characters), AlarmDescription (at most 1,024), the action lists (at most 5 each),
 * ComparisonOperator's values, and that EvaluationPeriods, Period and DatapointsToAlarm are integers ≥ 1.
 */
export function parseAlarmDefinition(input: Wire<PutMetricAlarmInput>): AlarmDefinition {
  const name = input.AlarmName as string;
  if (input.Metrics !== undefined && input.Metrics !== null)
    throw notSupported('CloudWatch', 'PutMetricAlarm with Metrics (metric math alarms)');
  if (input.ThresholdMetricId !== undefined || BAND_OPERATORS.includes(String(input.ComparisonOperator)))
    throw notSupported('CloudWatch', 'PutMetricAlarm with an anomaly detection band');
  const evaluationPeriods = required(input.EvaluationPeriods, 'EvaluationPeriods');
  // The band operators are refused above: what is left of the model's enum is COMPARISON_OPERATORS.
  const comparison = required(input.ComparisonOperator, 'ComparisonOperator') as ComparisonOperator;
  const metricName = required(input.MetricName, 'MetricName');
  const namespace = required(input.Namespace, 'Namespace');
  if (input.ExtendedStatistic !== undefined && input.Statistic !== undefined)
    throw invalidCombination('Exactly one of Statistic or ExtendedStatistic must be specified.');
  if (input.ExtendedStatistic !== undefined)
    throw notSupported('CloudWatch', 'PutMetricAlarm with ExtendedStatistic (percentiles)');
  if (input.Statistic === undefined) throw missingParameter('Statistic');
  // The statistics the metric store computes (the model's enum today; it also lets null through).
  if (!STATISTICS.includes(input.Statistic as Statistic))
    throw invalidValue(`The parameter Statistic must be one of ${STATISTICS.join(', ')}.`);
  const period = required(input.Period, 'Period');
  // "Valid values are 10, 20, 30, and any multiple of 60."
  if (![10, 20, 30].includes(period) && period % 60 !== 0)
    throw invalidValue('The parameter Period must be 10, 20, 30 or a multiple of 60.');
  // "Period multiplied by EvaluationPeriods can't be more than 604,800 seconds. For alarms with a period of less
  // than one hour (3,600 seconds), the total evaluation period can't be longer than one day (86,400 seconds)."
  const limit = period < 3600 ? 86_400 : 604_800;
  if (period * evaluationPeriods > limit)
    throw invalidValue(
      `The evaluation period of the alarm (Period × EvaluationPeriods = ${period * evaluationPeriods} s) must not exceed ${limit} seconds.`,
    );
  const datapointsToAlarm = input.DatapointsToAlarm ?? undefined;
  if (datapointsToAlarm !== undefined && datapointsToAlarm > evaluationPeriods)
    throw invalidValue('DatapointsToAlarm must be less than or equal to EvaluationPeriods.');
  // Optional in the model; a JSON number too large for a double parses as Infinity, which the model lets through.
  const threshold = input.Threshold;
  if (threshold == null || !Number.isFinite(threshold)) throw missingParameter('Threshold');
  // The model takes any string of 1–255 characters here.
  const treat = input.TreatMissingData;
  if (treat !== undefined && !TREAT_MISSING_DATA.includes(treat as TreatMissingData))
    throw invalidValue(`The parameter TreatMissingData must be one of ${TREAT_MISSING_DATA.join(', ')}.`);
  return {
    AlarmName: name,
    ...(input.AlarmDescription != null ? { AlarmDescription: input.AlarmDescription } : {}),
    ActionsEnabled: input.ActionsEnabled !== false,
    OKActions: actions(input.OKActions, 'OKActions'),
    AlarmActions: actions(input.AlarmActions, 'AlarmActions'),
    InsufficientDataActions: actions(input.InsufficientDataActions, 'InsufficientDataActions'),
    MetricName: metricName,
    Namespace: namespace,
    Statistic: input.Statistic as Statistic,
    Dimensions: readDimensions(input.Dimensions),
    Period: period,
    ...(input.Unit != null ? { Unit: input.Unit } : {}),
    EvaluationPeriods: evaluationPeriods,
    ...(datapointsToAlarm !== undefined ? { DatapointsToAlarm: datapointsToAlarm } : {}),
    Threshold: threshold,
    ComparisonOperator: comparison,
    ...(treat !== undefined ? { TreatMissingData: treat as TreatMissingData } : {}),
  };
}
