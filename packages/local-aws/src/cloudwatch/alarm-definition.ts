// A metric alarm as PutMetricAlarm defines it, validated with the rules the CloudWatch API reference states for
// PutMetricAlarm (Period, EvaluationPeriods, DatapointsToAlarm, Statistic/ExtendedStatistic, TreatMissingData,
// ComparisonOperator, actions), answering what CloudWatch answers: MissingParameter, InvalidParameterValue,
// InvalidParameterCombination. Metric math alarms (`Metrics`) and anomaly detection are not served locally.
import { AwsServiceError, notSupported } from '../errors';
import { STATISTICS, sortedDimensions, type Dimension, type Statistic } from './metric-store';

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

export const TREAT_MISSING_DATA = ['breaching', 'notBreaching', 'ignore', 'missing'] as const;
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
  Unit?: string;
  EvaluationPeriods: number;
  DatapointsToAlarm?: number;
  Threshold: number;
  ComparisonOperator: ComparisonOperator;
  TreatMissingData?: TreatMissingData;
}

export const missingParameter = (name: string) =>
  new AwsServiceError('MissingRequiredParameterException', 400, `The parameter ${name} is required.`);

export const invalidValue = (message: string) =>
  new AwsServiceError('InvalidParameterValueException', 400, message);

export const invalidCombination = (message: string) =>
  new AwsServiceError('InvalidParameterCombinationException', 400, message);

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Dimensions as CloudWatch takes them: at most 30, each a Name and a Value of 1–255 (1–1024) characters. */
export function readDimensions(value: unknown, field = 'Dimensions'): Dimension[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw invalidValue(`The parameter ${field} must be a list.`);
  if (value.length > 30) throw invalidValue(`The collection ${field} must not have a size greater than 30.`);
  const dimensions = value.map((d, i) => {
    if (!isRecord(d) || typeof d.Name !== 'string' || d.Name === '')
      throw missingParameter(`${field}.member.${i + 1}.Name`);
    if (typeof d.Value !== 'string' || d.Value === '')
      throw missingParameter(`${field}.member.${i + 1}.Value`);
    return { Name: d.Name, Value: d.Value };
  });
  const names = new Set(dimensions.map((d) => d.Name));
  if (names.size !== dimensions.length)
    throw invalidValue(`No metric may have duplicate dimension names (${field}).`);
  return sortedDimensions(dimensions);
}

function actions(input: Record<string, unknown>, key: string): string[] {
  const value = input[key];
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.some((a) => typeof a !== 'string'))
    throw invalidValue(`The parameter ${key} must be a list of ARNs.`);
  // PutMetricAlarm: each action list holds at most 5 ARNs.
  if (value.length > 5) throw invalidValue(`The collection ${key} must not have a size greater than 5.`);
  for (const arn of value as string[]) {
    if (!/^arn:aws[a-z-]*:[a-z0-9-]+:/.test(arn))
      throw invalidValue(`Invalid arn syntax: ${arn} (in ${key}).`);
  }
  return value as string[];
}

function integer(input: Record<string, unknown>, key: string, required: boolean): number | undefined {
  const value = input[key];
  if (value === undefined || value === null) {
    if (required) throw missingParameter(key);
    return undefined;
  }
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1)
    throw invalidValue(`The parameter ${key} must be an integer greater than or equal to 1.`);
  return value;
}

/** PutMetricAlarm's input → a validated definition (the API reference's rules, its error codes). */
export function parseAlarmDefinition(input: Record<string, unknown>): AlarmDefinition {
  const name = input.AlarmName;
  if (typeof name !== 'string' || name === '') throw missingParameter('AlarmName');
  if (name.length > 255) throw invalidValue('The parameter AlarmName must be 255 characters or fewer.');
  if (input.Metrics !== undefined && input.Metrics !== null)
    throw notSupported('CloudWatch', 'PutMetricAlarm with Metrics (metric math alarms)');
  if (input.ThresholdMetricId !== undefined || BAND_OPERATORS.includes(String(input.ComparisonOperator)))
    throw notSupported('CloudWatch', 'PutMetricAlarm with an anomaly detection band');
  const evaluationPeriods = integer(input, 'EvaluationPeriods', true) as number;
  const comparison = input.ComparisonOperator;
  if (comparison === undefined || comparison === null) throw missingParameter('ComparisonOperator');
  if (typeof comparison !== 'string' || !(comparison in COMPARISON_OPERATORS))
    throw invalidValue(
      `The parameter ComparisonOperator must be one of ${Object.keys(COMPARISON_OPERATORS).join(', ')}.`,
    );
  if (typeof input.MetricName !== 'string' || input.MetricName === '') throw missingParameter('MetricName');
  if (typeof input.Namespace !== 'string' || input.Namespace === '') throw missingParameter('Namespace');
  if (input.ExtendedStatistic !== undefined && input.Statistic !== undefined)
    throw invalidCombination('Exactly one of Statistic or ExtendedStatistic must be specified.');
  if (input.ExtendedStatistic !== undefined)
    throw notSupported('CloudWatch', 'PutMetricAlarm with ExtendedStatistic (percentiles)');
  if (input.Statistic === undefined) throw missingParameter('Statistic');
  if (!STATISTICS.includes(input.Statistic as Statistic))
    throw invalidValue(`The parameter Statistic must be one of ${STATISTICS.join(', ')}.`);
  const period = integer(input, 'Period', true) as number;
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
  const datapointsToAlarm = integer(input, 'DatapointsToAlarm', false);
  if (datapointsToAlarm !== undefined && datapointsToAlarm > evaluationPeriods)
    throw invalidValue('DatapointsToAlarm must be less than or equal to EvaluationPeriods.');
  if (typeof input.Threshold !== 'number' || !Number.isFinite(input.Threshold))
    throw missingParameter('Threshold');
  const treat = input.TreatMissingData;
  if (treat !== undefined && !TREAT_MISSING_DATA.includes(treat as TreatMissingData))
    throw invalidValue(`The parameter TreatMissingData must be one of ${TREAT_MISSING_DATA.join(', ')}.`);
  if (input.AlarmDescription !== undefined && typeof input.AlarmDescription !== 'string')
    throw invalidValue('The parameter AlarmDescription must be a string.');
  if (typeof input.AlarmDescription === 'string' && input.AlarmDescription.length > 1024)
    throw invalidValue('The parameter AlarmDescription must be 1024 characters or fewer.');
  return {
    AlarmName: name,
    ...(typeof input.AlarmDescription === 'string' ? { AlarmDescription: input.AlarmDescription } : {}),
    ActionsEnabled: input.ActionsEnabled !== false,
    OKActions: actions(input, 'OKActions'),
    AlarmActions: actions(input, 'AlarmActions'),
    InsufficientDataActions: actions(input, 'InsufficientDataActions'),
    MetricName: input.MetricName,
    Namespace: input.Namespace,
    Statistic: input.Statistic as Statistic,
    Dimensions: readDimensions(input.Dimensions),
    Period: period,
    ...(typeof input.Unit === 'string' ? { Unit: input.Unit } : {}),
    EvaluationPeriods: evaluationPeriods,
    ...(datapointsToAlarm !== undefined ? { DatapointsToAlarm: datapointsToAlarm } : {}),
    Threshold: input.Threshold,
    ComparisonOperator: comparison as ComparisonOperator,
    ...(treat !== undefined ? { TreatMissingData: treat as TreatMissingData } : {}),
  };
}
