// The bad-records experiment: every check fed a passing measurement and then, one at a time, a contradicting one;
// the error output reader on both layouts; and the --target aws path with the AWS SDK clients mocked, pinning the
// requests it makes (PutRecordBatch with the bad records, the error bucket's listing, GetMetricData, DescribeAlarms
// polled until ALARM and then OK, the alarm's history) on a clock that moves only when the experiment sleeps.
import { beforeEach, describe, expect, test } from '@jest/globals';
import { expectOnlyFailing } from '../../test/support/checks';
import { gzipSync } from 'node:zlib';
import {
  CloudWatchClient,
  DescribeAlarmHistoryCommand,
  DescribeAlarmsCommand,
  GetMetricDataCommand,
} from '@aws-sdk/client-cloudwatch';
import { FirehoseClient, PutRecordBatchCommand } from '@aws-sdk/client-firehose';
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { FlowGenerator } from '@loglake/flowgen';
import { failedRowsAlarmDefinition } from '@loglake/units';
import type { LabTarget } from '../target/lab-target';
import type { LabResources } from '../target/resources';
import { badRecordsChecks, type BadRecordsFacts } from './bad-records-checks';
import { BAD_RECORDS, badRecordsExperiment, interleave } from './bad-records';
import { DEFAULT_WAITS, FULL_SCALE, type ExperimentContext } from './context';
import { jsonDocuments, failedRecordOf } from './error-output';

const passing: BadRecordsFacts = {
  goodSent: 200,
  goodLanded: 200,
  badSent: 10,
  badInErrorOutput: 10,
  errorCodes: Array.from({ length: 10 }, () => 'Iceberg.SchemaMismatch'),
  failedRowCount: 10,
  alarmStates: ['OK', 'ALARM', 'OK'],
};

describe('badRecordsChecks: each claim fails on a result that contradicts it', () => {
  test('a passing run passes every check', () => {
    expect(Object.values(badRecordsChecks(passing)).every(Boolean)).toBe(true);
  });

  test.each([
    ['goodRowsLanded', { goodLanded: 199 }],
    ['badRowsInErrorOutput', { badInErrorOutput: 9, errorCodes: passing.errorCodes.slice(1) }],
    ['errorCodeOnEach', { errorCodes: [...passing.errorCodes.slice(1), ''] }],
    ['metricCountedBadRows', { failedRowCount: 7 }],
    // In ALARM before the bad batch: it did not fire because of it.
    ['alarmFired', { alarmStates: ['ALARM', 'OK'] }],
    ['alarmClearedAfterCleanPeriod', { alarmStates: ['OK', 'ALARM'] }],
  ] as [string, Partial<BadRecordsFacts>][])('%s', (check, contradiction) => {
    expectOnlyFailing(badRecordsChecks({ ...passing, ...contradiction }), check);
  });

  test('an alarm that never left OK neither fired nor cleared', () => {
    const checks = badRecordsChecks({ ...passing, alarmStates: ['OK', 'OK'] });
    expect([checks.alarmFired, checks.alarmClearedAfterCleanPeriod]).toEqual([false, false]);
  });
});

describe('the error output reader', () => {
  test('reads documents newline-separated or concatenated, with either spelling of the error code', () => {
    const a = {
      errorCode: 'Iceberg.NoSuchTable',
      errorMessage: 'x',
      rawData: Buffer.from('{"a":"}"}').toString('base64'),
    };
    const b = {
      ErrorCode: 'S3.AccessDenied',
      ErrorMessage: 'y',
      rawData: Buffer.from('b').toString('base64'),
    };
    const docs = jsonDocuments(`${JSON.stringify(a)}${JSON.stringify(b)}\n${JSON.stringify(a)}\n`);
    expect(docs.map((d) => failedRecordOf(d, 'k')).map((f) => [f?.errorCode, f?.raw.toString()])).toEqual([
      ['Iceberg.NoSuchTable', '{"a":"}"}'],
      ['S3.AccessDenied', 'b'],
      ['Iceberg.NoSuchTable', '{"a":"}"}'],
    ]);
  });

  test('interleave spreads the bad records among the good ones', () => {
    const rec = (id: string) => ({ id, data: Buffer.from(id) });
    const out = interleave(['g1', 'g2', 'g3', 'g4'].map(rec), ['b1', 'b2'].map(rec)).map((r) => r.id);
    expect(out).toEqual(['g1', 'g2', 'b1', 'g3', 'g4', 'b2']);
  });
});

const firehoseMock = mockClient(FirehoseClient);
const s3Mock = mockClient(S3Client);
const cwMock = mockClient(CloudWatchClient);
beforeEach(() => {
  firehoseMock.reset();
  s3Mock.reset();
  cwMock.reset();
});

describe('bad records on --target aws (SDK mocked, requests pinned)', () => {
  const T0 = Date.parse('2026-12-01T14:00:10Z');
  const alarm = failedRowsAlarmDefinition(
    {
      streamName: 'loglake-01-vpc-flow-logs',
      failedRowsAlarm: {
        name: 'loglake-01-firehose-failed-rows',
        periodSeconds: 60,
        evaluationPeriods: 1,
        threshold: 0,
      },
    },
    'arn:aws:sns:us-east-1:123456789012:loglake-01-alerts',
  );
  const resources = {
    region: 'us-east-1',
    streamName: 'loglake-01-vpc-flow-logs',
    errorBucketName: 'loglake-01-firehose-errors-123456789012',
    errorPrefix: 'errors/',
    failedRowsAlarm: alarm,
  } as LabResources;

  function context() {
    let t = T0;
    const slept: number[] = [];
    const lines: string[] = [];
    let rows = 1000;
    const target = {
      kind: 'aws',
      resources,
      firehose: new FirehoseClient({ region: 'us-east-1' }),
      s3: new S3Client({ region: 'us-east-1' }),
      cloudwatch: new CloudWatchClient({ region: 'us-east-1' }),
    } as unknown as LabTarget;
    const ctx = {
      target,
      scale: { ...FULL_SCALE, burstSize: 40 },
      state: {},
      waits: { ...DEFAULT_WAITS, alarmMs: 600_000 },
      log: (l: string) => lines.push(l),
      generator: () => new FlowGenerator({ seed: 7 }),
      recordSend: () => undefined,
    } as unknown as ExperimentContext;
    const deps = {
      now: () => t,
      sleep: async (ms: number) => {
        slept.push(ms);
        t += ms;
      },
      rowCount: async () => rows,
      delivered: async (_t: LabTarget, expected: number) => {
        rows = expected;
      },
    };
    return { ctx, deps, slept, lines };
  }

  test('waits for the error output, the metric, ALARM and OK by polling, and reports what it read', async () => {
    // Prepare: Firehose accepts everything; the error output holds the bad records once the second listing comes.
    const sentBad: string[] = [];
    firehoseMock.on(PutRecordBatchCommand).callsFake((input: { Records: { Data: Uint8Array }[] }) => {
      for (const r of input.Records) {
        const text = Buffer.from(r.Data).toString('utf8');
        if (
          !text.startsWith('{"version":2') ||
          !text.endsWith('}') ||
          text.includes('"lots"') ||
          text.includes('"yesterday"')
        )
          sentBad.push(text);
      }
      return { FailedPutCount: 0, RequestResponses: input.Records.map(() => ({ RecordId: 'r' })) };
    });
    const errorObject = () =>
      gzipSync(
        sentBad
          .map((raw) =>
            JSON.stringify({
              attemptsMade: 1,
              errorCode: 'Iceberg.SomeCode',
              errorMessage: 'bad record',
              rawData: Buffer.from(raw).toString('base64'),
            }),
          )
          .join('\n'),
      );
    s3Mock
      .on(ListObjectsV2Command)
      .resolvesOnce({ Contents: [] })
      .resolves({
        Contents: [{ Key: 'errors/2026/12/01/14/obj-1.gz', LastModified: new Date(T0 + 90_000) }],
      });
    // The SDK's body: the reader only asks it for its bytes.
    s3Mock.on(GetObjectCommand).callsFake(() => ({
      Body: { transformToByteArray: async () => new Uint8Array(errorObject()) },
    }));
    const minute = (m: number) => new Date(Date.parse('2026-12-01T14:00:00Z') + m * 60_000);
    cwMock
      .on(GetMetricDataCommand)
      .resolvesOnce({ MetricDataResults: [{ Id: 'failedRows', Timestamps: [], Values: [] }] })
      .resolves({
        MetricDataResults: [{ Id: 'failedRows', Timestamps: [minute(1)], Values: [BAD_RECORDS] }],
      });
    const describe = (StateValue: 'OK' | 'ALARM', StateReason = 'r') => ({
      MetricAlarms: [{ AlarmName: alarm.AlarmName, StateValue, StateReason }],
    });
    cwMock
      .on(DescribeAlarmsCommand)
      .resolvesOnce(describe('OK'))
      .resolvesOnce(describe('OK'))
      .resolvesOnce(describe('ALARM', 'Threshold Crossed: 1 datapoint [10.0 (01/12/26 14:01:00)]'))
      .resolvesOnce(describe('ALARM'))
      .resolves(describe('OK'));
    const transition = (from: string, to: string) => ({
      HistoryItemType: 'StateUpdate' as const,
      HistoryData: JSON.stringify({ oldState: { stateValue: from }, newState: { stateValue: to } }),
    });
    cwMock
      .on(DescribeAlarmHistoryCommand, { HistoryItemType: 'StateUpdate' })
      .resolves({ AlarmHistoryItems: [transition('OK', 'ALARM'), transition('ALARM', 'OK')] });
    cwMock.on(DescribeAlarmHistoryCommand, { HistoryItemType: 'Action' }).resolves({
      AlarmHistoryItems: [{ HistoryItemType: 'Action' as const }, { HistoryItemType: 'Action' as const }],
    });
    const { ctx, deps, slept } = context();

    // Act
    const outcome = await badRecordsExperiment(deps).run(ctx);

    // Assess: what it measured.
    expect(outcome.measures).toMatchObject({
      goodSent: 40,
      goodLanded: 40,
      badSent: BAD_RECORDS,
      badInErrorOutput: BAD_RECORDS,
      errorCodes: `Iceberg.SomeCode ×${BAD_RECORDS}`,
      failedRowCount: BAD_RECORDS,
      alarmStates: 'OK → ALARM → OK',
      notifications: 2,
    });
    expect(Object.entries(outcome.checks).filter(([, ok]) => !ok)).toEqual([]);
    // It waited by polling every 30 s: the error output once, the metric once, ALARM once, OK once.
    expect(slept).toEqual([30_000, 30_000, 30_000, 30_000]);
    // The requests: the bad records went out among the good ones; the error bucket and prefix; the metric query.
    const records = firehoseMock
      .commandCalls(PutRecordBatchCommand)
      .flatMap((c) => c.args[0].input.Records ?? []);
    expect(records).toHaveLength(40 + BAD_RECORDS + 10);
    expect(firehoseMock.commandCalls(PutRecordBatchCommand)[0]!.args[0].input.DeliveryStreamName).toBe(
      'loglake-01-vpc-flow-logs',
    );
    expect(s3Mock.commandCalls(ListObjectsV2Command)[0]!.args[0].input).toMatchObject({
      Bucket: 'loglake-01-firehose-errors-123456789012',
      Prefix: 'errors/',
    });
    expect(cwMock.commandCalls(GetMetricDataCommand)[0]!.args[0].input.MetricDataQueries).toEqual([
      {
        Id: 'failedRows',
        MetricStat: {
          Metric: {
            Namespace: 'AWS/Firehose',
            MetricName: 'DeliveryToIceberg.FailedRowCount',
            Dimensions: [{ Name: 'DeliveryStreamName', Value: 'loglake-01-vpc-flow-logs' }],
          },
          Period: 60,
          Stat: 'Sum',
        },
      },
    ]);
    expect(cwMock.commandCalls(DescribeAlarmsCommand).map((c) => c.args[0].input)).toContainEqual({
      AlarmNames: ['loglake-01-firehose-failed-rows'],
    });
    expect(cwMock.commandCalls(DescribeAlarmHistoryCommand).map((c) => c.args[0].input.AlarmName)).toEqual([
      'loglake-01-firehose-failed-rows',
      'loglake-01-firehose-failed-rows',
    ]);
  });

  test('an alarm that never fires within --alarm-wait: the checks say so, nothing is claimed', async () => {
    firehoseMock.on(PutRecordBatchCommand).callsFake((input: { Records: unknown[] }) => ({
      FailedPutCount: 0,
      RequestResponses: input.Records.map(() => ({ RecordId: 'r' })),
    }));
    s3Mock.on(ListObjectsV2Command).resolves({ Contents: [] });
    cwMock
      .on(GetMetricDataCommand)
      .resolves({ MetricDataResults: [{ Id: 'failedRows', Timestamps: [], Values: [] }] });
    cwMock
      .on(DescribeAlarmsCommand)
      .resolves({ MetricAlarms: [{ AlarmName: alarm.AlarmName, StateValue: 'OK' }] });
    cwMock.on(DescribeAlarmHistoryCommand).resolves({ AlarmHistoryItems: [] });
    const { ctx, deps } = context();
    const outcome = await badRecordsExperiment(deps).run(ctx);
    expect(
      Object.entries(outcome.checks)
        .filter(([, ok]) => !ok)
        .map(([k]) => k),
    ).toEqual(['badRowsInErrorOutput', 'metricCountedBadRows', 'alarmFired', 'alarmClearedAfterCleanPeriod']);
    expect(outcome.measures.alarmStates).toBe('OK → OK → OK');
  });

  test('without the alarm in the deployed outputs the experiment is skipped, saying what is missing', async () => {
    const { ctx, deps } = context();
    const bare = {
      ...ctx,
      target: { ...ctx.target, resources: { ...resources, failedRowsAlarm: undefined } },
    };
    const outcome = await badRecordsExperiment(deps).run(bare as unknown as ExperimentContext);
    expect(outcome.result).toMatch(/^skipped: .*failed_rows_alarm_name and alerts_topic_arn/);
    expect(outcome.checks).toEqual({});
  });
});
