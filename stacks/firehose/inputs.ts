// Inputs of the firehose unit: stream buffering, error bucket retention, log retention, the failed-rows alarm. Pure.
import type { InputsSpec, UnitContext } from '../lib/contract';
import { FieldReader } from '../lib/fields';

export interface FirehoseInputs {
  readonly streamName: string;
  /** Firehose Iceberg buffering: flush at this many MiB or this many seconds, whichever comes first. */
  readonly buffering: { readonly sizeMb: number; readonly intervalSeconds: number };
  readonly errorBucket: {
    readonly namePrefix: string;
    readonly errorPrefix: string;
    readonly expireAfterDays: number;
  };
  readonly logRetentionDays: number;
  readonly retryDurationSeconds: number;
  /**
   * The alarm on the stream's DeliveryToIceberg.FailedRowCount ("Number of failed rows delivered to S3 backup
   * bucket", Firehose developer guide, "Monitor metrics" for Apache Iceberg Tables): ALARM when the Sum over
   * `evaluationPeriods` periods of `periodSeconds` exceeds `threshold`, OK after periods without failures (missing
   * data is not breaching: a quiet stream is a healthy one). Actions: the lab's alerts topic.
   */
  readonly failedRowsAlarm: {
    readonly name: string;
    readonly periodSeconds: number;
    readonly evaluationPeriods: number;
    readonly threshold: number;
  };
}

/** Firehose's documented metric for rows an Iceberg destination could not deliver (namespace AWS/Firehose). */
export const FIREHOSE_FAILED_ROWS_METRIC = {
  namespace: 'AWS/Firehose',
  metricName: 'DeliveryToIceberg.FailedRowCount',
  dimension: 'DeliveryStreamName',
} as const;

/** The failed-rows alarm as CloudWatch's PutMetricAlarm takes it: what the stack deploys and the local lab creates. */
export interface FailedRowsAlarmDefinition {
  readonly AlarmName: string;
  readonly AlarmDescription: string;
  readonly Namespace: string;
  readonly MetricName: string;
  readonly Dimensions: readonly { readonly Name: string; readonly Value: string }[];
  readonly Statistic: 'Sum';
  readonly Period: number;
  readonly EvaluationPeriods: number;
  readonly DatapointsToAlarm: number;
  readonly Threshold: number;
  readonly ComparisonOperator: 'GreaterThanThreshold';
  readonly TreatMissingData: 'notBreaching';
  readonly AlarmActions: readonly string[];
  readonly OKActions: readonly string[];
}

export function failedRowsAlarmDefinition(
  inputs: Pick<FirehoseInputs, 'streamName' | 'failedRowsAlarm'>,
  alertsTopicArn: string,
): FailedRowsAlarmDefinition {
  const a = inputs.failedRowsAlarm;
  return {
    AlarmName: a.name,
    AlarmDescription:
      `Firehose stream ${inputs.streamName} sent more than ${a.threshold} rows to its error output in ` +
      `${a.evaluationPeriods * a.periodSeconds} s (DeliveryToIceberg.FailedRowCount); read the error bucket`,
    Namespace: FIREHOSE_FAILED_ROWS_METRIC.namespace,
    MetricName: FIREHOSE_FAILED_ROWS_METRIC.metricName,
    Dimensions: [{ Name: FIREHOSE_FAILED_ROWS_METRIC.dimension, Value: inputs.streamName }],
    Statistic: 'Sum',
    Period: a.periodSeconds,
    EvaluationPeriods: a.evaluationPeriods,
    DatapointsToAlarm: a.evaluationPeriods,
    Threshold: a.threshold,
    ComparisonOperator: 'GreaterThanThreshold',
    TreatMissingData: 'notBreaching',
    AlarmActions: [alertsTopicArn],
    OKActions: [alertsTopicArn],
  };
}

export const FIREHOSE_OUTPUTS = [
  'stream_name',
  'stream_arn',
  'error_bucket_name',
  'role_arn',
  'log_group_name',
  'failed_rows_alarm_name',
] as const;

export const spec: InputsSpec<FirehoseInputs> = {
  stack: 'firehose',
  outputs: FIREHOSE_OUTPUTS,
  resolveInputs(raw, unit: UnitContext): FirehoseInputs {
    const r = new FieldReader(unit.name, raw);
    const b = r.child('buffering');
    const e = r.child('errorBucket');
    const a = r.child('failedRowsAlarm');
    const prefixed = (what: string) => ({
      re: new RegExp(`^${unit.namePrefix}-[a-z0-9-]+$`),
      fix: `${what} must start with "${unit.namePrefix}-" and use a-z, 0-9 and -`,
    });
    const logRetentionDays = r.logRetentionDays('logRetentionDays', 7);
    // Firehose publishes its metrics per minute: a shorter period would mostly see no data (PutMetricAlarm: a 10,
    // 20 or 30 s period on a metric without sub-minute resolution "might often lapse into INSUFFICIENT_DATA").
    const periodSeconds = a.int('periodSeconds', 60, { min: 60, max: 86_400, why: 'a multiple of 60 s' });
    if (periodSeconds % 60 !== 0)
      a.fail(
        'periodSeconds',
        `is ${periodSeconds}`,
        'use a multiple of 60 (Firehose publishes per minute)',
        periodSeconds,
      );
    const evaluationPeriods = a.int('evaluationPeriods', 1, { min: 1 });
    // PutMetricAlarm: below an hour's period, Period × EvaluationPeriods may not exceed one day (else seven days).
    const evaluationLimit = periodSeconds < 3600 ? 86_400 : 604_800;
    if (periodSeconds * evaluationPeriods > evaluationLimit)
      a.fail(
        'evaluationPeriods',
        `is ${evaluationPeriods}: ${evaluationPeriods} × ${periodSeconds} s exceeds CloudWatch's ${evaluationLimit} s`,
        'use fewer periods',
        evaluationPeriods,
      );
    return {
      streamName: r.string('streamName', `${unit.namePrefix}-vpc-flow-logs`, prefixed('the stream name')),
      buffering: {
        sizeMb: b.int('sizeMb', 1, { min: 1, max: 128, why: 'Firehose buffers 1–128 MiB' }),
        intervalSeconds: b.int('intervalSeconds', 60, { min: 0, max: 900, why: 'Firehose buffers 0–900 s' }),
      },
      errorBucket: {
        namePrefix: e.string(
          'namePrefix',
          `${unit.namePrefix}-firehose-errors`,
          prefixed('the error bucket name prefix'),
        ),
        errorPrefix: e.string('errorPrefix', 'errors/', {
          re: /^[A-Za-z0-9!_.*'()\-/]+\/$/,
          fix: 'use a key prefix ending in "/"',
        }),
        expireAfterDays: e.int('expireAfterDays', 7, { min: 1 }),
      },
      logRetentionDays,
      retryDurationSeconds: r.int('retryDurationSeconds', 300, { min: 0, max: 7200 }),
      failedRowsAlarm: {
        name: a.string('name', `${unit.namePrefix}-firehose-failed-rows`, prefixed('the alarm name')),
        periodSeconds,
        evaluationPeriods,
        threshold: a.int('threshold', 0, { min: 0 }),
      },
    };
  },
};
