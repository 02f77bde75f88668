// CloudWatch over loopback, driven by the AWS SDK v3 client (awsJson1_0, query-compatible errors): metric data in
// and out, alarms evaluated on an adjustable clock (state, reason, history, captured actions), the refusals
// CloudWatch answers, and Firehose's documented Iceberg metrics recorded as the stream delivers.
import { describe, test, expect, beforeAll, afterAll } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CloudWatchClient,
  DeleteAlarmsCommand,
  DescribeAlarmHistoryCommand,
  DescribeAlarmsCommand,
  GetMetricDataCommand,
  GetMetricStatisticsCommand,
  InvalidParameterCombinationException,
  InvalidParameterValueException,
  ListMetricsCommand,
  MissingRequiredParameterException,
  PutMetricAlarmCommand,
  PutMetricDataCommand,
  ResourceNotFound,
  SetAlarmStateCommand,
  type PutMetricAlarmCommandInput,
} from '@aws-sdk/client-cloudwatch';
import { CreateDeliveryStreamCommand, PutRecordBatchCommand } from '@aws-sdk/client-firehose';
import { startLocalEndpoint, type LocalEndpoint } from '../server';
import { advanceLocalCloudWatchClock, flushLocalFirehose, localAlarmNotifications } from '../admin-client';
import { localClientConfig } from '../client-config';
import { MemoryWarehouse } from '../../test/support/memory-warehouse';
import { localClients, type LocalClients } from '../../test/support/clients';
import { createFlowTable, icebergStreamInput } from '../../test/support/lab-setup';

const STREAM = 'cw-flows';
const failedRows = (name = STREAM) => ({
  Namespace: 'AWS/Firehose',
  MetricName: 'DeliveryToIceberg.FailedRowCount',
  Dimensions: [{ Name: 'DeliveryStreamName', Value: name }],
});

const alarmInput = (over: Partial<PutMetricAlarmCommandInput> = {}): PutMetricAlarmCommandInput => ({
  AlarmName: 'lab-failed-rows',
  ...failedRows(),
  Statistic: 'Sum',
  Period: 60,
  EvaluationPeriods: 1,
  Threshold: 0,
  ComparisonOperator: 'GreaterThanThreshold',
  TreatMissingData: 'notBreaching',
  AlarmActions: ['arn:aws:sns:us-east-1:123456789012:lab-alerts'],
  OKActions: ['arn:aws:sns:us-east-1:123456789012:lab-alerts'],
  ...over,
});

describe('CloudWatch over loopback (AWS SDK v3 client, JSON protocol)', () => {
  let dir: string;
  let endpoint: LocalEndpoint;
  let clients: LocalClients;
  let cw: CloudWatchClient;
  const warehouse = new MemoryWarehouse();

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'local-cloudwatch-'));
    endpoint = await startLocalEndpoint({
      dataDir: dir,
      engine: { openWarehouse: async () => warehouse },
      cloudWatchClock: 'adjustable',
      firehoseBufferIntervalOverrideSeconds: 0,
    });
    clients = localClients(endpoint.url);
    cw = new CloudWatchClient(localClientConfig(endpoint.url));
    await createFlowTable(clients.s3tables, 'lab-bucket', [
      { name: 'srcaddr', type: 'string' },
      { name: 'bytes', type: 'long', required: true },
    ]);
    await clients.firehose.send(
      new CreateDeliveryStreamCommand(
        icebergStreamInput({
          name: STREAM,
          bucket: 'lab-bucket',
          role: 'firehose',
          errorBucket: 'lab-errors',
          errorPrefix: 'errors/',
          sizeInMBs: 1,
          intervalInSeconds: 60,
        }),
      ),
    );
  });
  afterAll(async () => {
    cw.destroy();
    clients.destroy();
    await endpoint.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('PutMetricData, then GetMetricStatistics, GetMetricData and ListMetrics read it back', async () => {
    // Prepare: 10, then 20 once and 30 twice in one minute (sum 90 over 4 samples); a statistic set in the next.
    const minute = Math.floor(Date.now() / 60_000) * 60_000 - 10 * 60_000;
    const metric = {
      MetricName: 'Latency',
      Dimensions: [{ Name: 'Service', Value: 'api' }],
      Unit: 'Milliseconds' as const,
    };
    await cw.send(
      new PutMetricDataCommand({
        Namespace: 'Lab/Test',
        MetricData: [
          { ...metric, Timestamp: new Date(minute + 1_000), Value: 10 },
          { ...metric, Timestamp: new Date(minute + 2_000), Values: [20, 30], Counts: [1, 2] },
          {
            ...metric,
            Timestamp: new Date(minute + 61_000),
            StatisticValues: { SampleCount: 2, Sum: 8, Minimum: 3, Maximum: 5 },
          },
        ],
      }),
    );

    // Act
    const stats = await cw.send(
      new GetMetricStatisticsCommand({
        Namespace: 'Lab/Test',
        MetricName: 'Latency',
        Dimensions: metric.Dimensions,
        StartTime: new Date(minute),
        EndTime: new Date(minute + 120_000),
        Period: 60,
        Statistics: ['Sum', 'SampleCount', 'Maximum', 'Average'],
      }),
    );
    const data = await cw.send(
      new GetMetricDataCommand({
        StartTime: new Date(minute),
        EndTime: new Date(minute + 120_000),
        MetricDataQueries: [
          {
            Id: 'sum',
            MetricStat: { Metric: { Namespace: 'Lab/Test', ...metric }, Period: 60, Stat: 'Sum' },
          },
        ],
      }),
    );
    const listed = await cw.send(new ListMetricsCommand({ Namespace: 'Lab/Test' }));

    // Assess
    const points = [...(stats.Datapoints ?? [])].sort((a, b) => Number(a.Timestamp) - Number(b.Timestamp));
    expect(
      points.map((p) => [p.Timestamp?.getTime(), p.Sum, p.SampleCount, p.Maximum, p.Average, p.Unit]),
    ).toEqual([
      [minute, 90, 4, 30, 22.5, 'Milliseconds'],
      [minute + 60_000, 8, 2, 5, 4, 'Milliseconds'],
    ]);
    const result = data.MetricDataResults?.[0];
    expect(result?.Timestamps?.map((t) => t.getTime())).toEqual([minute + 60_000, minute]);
    expect(result?.Values).toEqual([8, 90]);
    expect(result?.StatusCode).toBe('Complete');
    expect(listed.Metrics).toEqual([
      { Namespace: 'Lab/Test', MetricName: 'Latency', Dimensions: metric.Dimensions },
    ]);
  });

  test('refuses as CloudWatch does, with its exception classes and awsQuery codes', async () => {
    const reserved = cw.send(
      new PutMetricDataCommand({ Namespace: 'AWS/Firehose', MetricData: [{ MetricName: 'x', Value: 1 }] }),
    );
    await expect(reserved).rejects.toBeInstanceOf(InvalidParameterValueException);
    await expect(reserved).rejects.toMatchObject({ Code: 'InvalidParameterValue', Type: 'Sender' });
    await expect(cw.send(new PutMetricAlarmCommand(alarmInput({ Period: 45 })))).rejects.toBeInstanceOf(
      InvalidParameterValueException,
    );
    await expect(
      cw.send(new PutMetricAlarmCommand(alarmInput({ Period: 60, EvaluationPeriods: 1441 }))),
    ).rejects.toThrow(/must not exceed 86400 seconds/);
    await expect(
      cw.send(new PutMetricAlarmCommand(alarmInput({ EvaluationPeriods: 2, DatapointsToAlarm: 3 }))),
    ).rejects.toBeInstanceOf(InvalidParameterValueException);
    await expect(
      cw.send(new PutMetricAlarmCommand(alarmInput({ Statistic: undefined }))),
    ).rejects.toBeInstanceOf(MissingRequiredParameterException);
    await expect(
      cw.send(
        new GetMetricStatisticsCommand({
          Namespace: 'Lab/Test',
          MetricName: 'Latency',
          StartTime: new Date(0),
          EndTime: new Date(86_401_000),
          Period: 60,
          Statistics: ['Sum'],
        }),
      ),
    ).rejects.toBeInstanceOf(InvalidParameterCombinationException);
    await expect(cw.send(new DeleteAlarmsCommand({ AlarmNames: ['no-such-alarm'] }))).rejects.toBeInstanceOf(
      ResourceNotFound,
    );
  });

  test('Firehose records its documented Iceberg metrics; the alarm on FailedRowCount goes to ALARM, then back to OK', async () => {
    // Prepare: the alarm, then 2 bad records among 3 good ones.
    await cw.send(new PutMetricAlarmCommand(alarmInput()));
    const created = (await cw.send(new DescribeAlarmsCommand({ AlarmNames: ['lab-failed-rows'] })))
      .MetricAlarms?.[0];
    const send = (records: string[]) =>
      clients.firehose.send(
        new PutRecordBatchCommand({
          DeliveryStreamName: STREAM,
          Records: records.map((r) => ({ Data: Buffer.from(r) })),
        }),
      );
    const good = (i: number) => JSON.stringify({ srcaddr: `10.0.0.${i}`, bytes: i });
    await send([good(1), '{"srcaddr":', good(2), '{"srcaddr":"x","bytes":"lots"}', good(3)]);
    await flushLocalFirehose(endpoint.url);
    const deliveredAt = Date.now();

    // Act: the period that holds the delivery ends; then a clean period.
    const toPeriodEnd = (ms: number) => (Math.floor(ms / 60_000) + 1) * 60_000 - ms + 1_000;
    const first = await advanceLocalCloudWatchClock(endpoint.url, toPeriodEnd(deliveredAt) / 1000);
    await send([good(4)]);
    await flushLocalFirehose(endpoint.url);
    const second = await advanceLocalCloudWatchClock(endpoint.url, toPeriodEnd(first.now.getTime()) / 1000);

    // Assess: the metrics of the delivery.
    const window = {
      StartTime: new Date(deliveredAt - 3_600_000),
      EndTime: new Date(second.now.getTime() + 60_000),
    };
    const sums = await cw.send(
      new GetMetricDataCommand({
        ...window,
        MetricDataQueries: [
          'DeliveryToIceberg.FailedRowCount',
          'DeliveryToIceberg.SuccessfulRowCount',
          'DeliveryToIceberg.IncomingRowCount',
          'DeliveryToIceberg.Success',
          'IncomingRecords',
        ].map((MetricName, i) => ({
          Id: `m${i}`,
          MetricStat: { Metric: { ...failedRows(), MetricName }, Period: 3600 * 2, Stat: 'Sum' },
        })),
      }),
    );
    const total = (i: number) => (sums.MetricDataResults?.[i]?.Values ?? []).reduce((a, b) => a + b, 0);
    expect([0, 1, 2, 3, 4].map(total)).toEqual([2, 4, 6, 2, 6]);
    const listed = await cw.send(
      new ListMetricsCommand({
        Namespace: 'AWS/Firehose',
        Dimensions: [{ Name: 'DeliveryStreamName', Value: STREAM }],
      }),
    );
    expect(listed.Metrics?.map((m) => m.MetricName)).toEqual(
      expect.arrayContaining([
        'DeliveryToIceberg.FailedRowCount',
        'DeliveryToIceberg.DataFreshness',
        'IncomingBytes',
      ]),
    );

    // The alarm: INSUFFICIENT_DATA at creation, ALARM once the bad period ended, OK after the clean one.
    expect(created?.StateValue).toBe('INSUFFICIENT_DATA');
    expect(first.changes).toEqual([{ alarm: 'lab-failed-rows', from: 'INSUFFICIENT_DATA', to: 'ALARM' }]);
    expect(second.changes).toEqual([{ alarm: 'lab-failed-rows', from: 'ALARM', to: 'OK' }]);
    const alarm = (await cw.send(new DescribeAlarmsCommand({ AlarmNames: ['lab-failed-rows'] })))
      .MetricAlarms?.[0];
    expect(alarm?.StateValue).toBe('OK');
    expect(alarm?.StateReason).toMatch(
      /^Threshold Crossed: 1 datapoint \[0\.0 \(.+\)\] was not greater than the threshold \(0\.0\)\.$/,
    );
    expect(JSON.parse(alarm?.StateReasonData ?? '{}')).toMatchObject({
      statistic: 'Sum',
      period: 60,
      recentDatapoints: [0],
    });
    const history = await cw.send(
      new DescribeAlarmHistoryCommand({ AlarmName: 'lab-failed-rows', ScanBy: 'TimestampAscending' }),
    );
    expect(history.AlarmHistoryItems?.map((h) => [h.HistoryItemType, h.HistorySummary])).toEqual([
      ['ConfigurationUpdate', 'Alarm "lab-failed-rows" created'],
      ['StateUpdate', 'Alarm updated from INSUFFICIENT_DATA to ALARM'],
      ['Action', 'Successfully executed action arn:aws:sns:us-east-1:123456789012:lab-alerts'],
      ['StateUpdate', 'Alarm updated from ALARM to OK'],
      ['Action', 'Successfully executed action arn:aws:sns:us-east-1:123456789012:lab-alerts'],
    ]);
    const alarmReason = JSON.parse(history.AlarmHistoryItems?.[1]?.HistoryData ?? '{}') as {
      newState: { stateReason: string; stateReasonData: { recentDatapoints: number[] } };
    };
    expect(alarmReason.newState.stateReason).toMatch(/^Threshold Crossed: 1 datapoint \[2\.0 \(/);
    expect(alarmReason.newState.stateReasonData.recentDatapoints).toEqual([2]);
    const notes = await localAlarmNotifications(endpoint.url);
    expect(notes.map((n) => [n.topicArn, n.newState, n.delivered])).toEqual([
      ['arn:aws:sns:us-east-1:123456789012:lab-alerts', 'ALARM', false],
      ['arn:aws:sns:us-east-1:123456789012:lab-alerts', 'OK', false],
    ]);
    expect(JSON.parse(notes[0]?.message ?? '{}')).toMatchObject({
      AlarmName: 'lab-failed-rows',
      NewStateValue: 'ALARM',
      OldStateValue: 'INSUFFICIENT_DATA',
      Trigger: { MetricName: 'DeliveryToIceberg.FailedRowCount', Namespace: 'AWS/Firehose' },
    });
  });

  test('SetAlarmState changes the state until the next evaluation; an unknown alarm is ResourceNotFound', async () => {
    await cw.send(
      new PutMetricAlarmCommand(
        alarmInput({ AlarmName: 'manual', TreatMissingData: 'missing', AlarmActions: [], OKActions: [] }),
      ),
    );
    await cw.send(
      new SetAlarmStateCommand({ AlarmName: 'manual', StateValue: 'ALARM', StateReason: 'testing' }),
    );
    const set = (await cw.send(new DescribeAlarmsCommand({ AlarmNames: ['manual'] }))).MetricAlarms?.[0];
    const after = await advanceLocalCloudWatchClock(endpoint.url, 60);
    expect(set?.StateValue).toBe('ALARM');
    expect(set?.StateReason).toBe('testing');
    // No data in the evaluated period, missing data "missing": INSUFFICIENT_DATA.
    expect(after.changes).toContainEqual({ alarm: 'manual', from: 'ALARM', to: 'INSUFFICIENT_DATA' });
    await expect(
      cw.send(new SetAlarmStateCommand({ AlarmName: 'nope', StateValue: 'OK', StateReason: 'x' })),
    ).rejects.toBeInstanceOf(ResourceNotFound);
    await cw.send(new DeleteAlarmsCommand({ AlarmNames: ['manual'] }));
    expect((await cw.send(new DescribeAlarmsCommand({ AlarmNames: ['manual'] }))).MetricAlarms).toEqual([]);
  });

  test('the clock moves only when the endpoint was started with an adjustable clock', async () => {
    const other = await startLocalEndpoint({
      dataDir: join(dir, 'wall'),
      engine: { openWarehouse: async () => new MemoryWarehouse() },
    });
    try {
      await expect(advanceLocalCloudWatchClock(other.url, 60)).rejects.toThrow(
        /cloudWatchClock "adjustable"/,
      );
    } finally {
      await other.stop();
    }
  });
});
