// Amazon CloudWatch metrics and alarms, in the three protocols its model lists (protocol.ts awsJsonService): the
// JSON protocol the AWS SDK v3 client 3.1127 speaks (awsJson1_0, `X-Amz-Target: GraniteServiceVersion20100801.<Op>`,
// timestamps as epoch seconds), awsQuery (form posts, XML replies: the AWS CLI v2 and Terraform's provider 5.x) and
// rpcv2Cbor (newer SDKs). The model is `@awsQueryCompatible`, so JSON and CBOR errors also carry
// `x-amzn-query-error: <Code>;Sender` (the model's awsQuery codes: MissingParameter, InvalidParameterValue,
// ResourceNotFound…). Served: PutMetricData, GetMetricData (MetricStat
// queries), GetMetricStatistics, ListMetrics, PutMetricAlarm, DescribeAlarms, DescribeAlarmHistory, DeleteAlarms,
// SetAlarmState. Alarms are evaluated every EVALUATE_EVERY_MS of wall time and whenever the clock is advanced.
// Services of the endpoint (Firehose) record their documented metrics through `metrics.put`.
import { serviceApi } from '../model/api';
import { awsJsonService, type ServiceModule } from '../protocol';
import type { JsonStore } from '../store';
import { alarmOperations } from './alarm-operations';
import type { AlarmState } from './alarm-evaluation';
import { Alarms, type CapturedNotification } from './alarms';
import { CloudWatchClock } from './clock';
import { metricOperations } from './metric-operations';
import { MetricStore } from './metric-store';
import type { CloudWatchOperations } from './wire';
import { wireError } from '../model/wire-errors';

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

/**
 * CloudWatch answers input that breaks its model's constraints with ValidationError ("1 validation error detected:
 * Value … at '…' failed to satisfy constraint: …"; CloudWatch API reference, Common Errors: "The input fails to
 * satisfy the constraints specified by an AWS service", 400). It has no separate serialization error; a member of
 * the wrong type fails the same way.
 */
export const CLOUDWATCH_API = serviceApi('cloudwatch', {
  invalid: (message) => wireError('cloudwatch', 'ValidationError', message),
  malformed: (message) => wireError('cloudwatch', 'ValidationError', message),
});

/** Operations of CloudWatch's model the local endpoint does not serve: the lab uses metrics and metric alarms. */
const NOT_SERVED_REASON =
  'the local CloudWatch serves metrics (PutMetricData, GetMetricData, GetMetricStatistics, ListMetrics) and metric alarms (PutMetricAlarm, DescribeAlarms, DescribeAlarmHistory, DeleteAlarms, SetAlarmState, and their tags) only';

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

  const operations: CloudWatchOperations = {
    ...metricOperations(metrics, clock),
    ...alarmOperations(alarms, clock),
  };
  const service = awsJsonService({
    name: 'CloudWatch',
    api: CLOUDWATCH_API,
    notServed: () => NOT_SERVED_REASON,
    messageKey: 'message',
    internalErrorCode: 'InternalServiceFault',
    protocol: 'awsJson1_0',
    operations,
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
