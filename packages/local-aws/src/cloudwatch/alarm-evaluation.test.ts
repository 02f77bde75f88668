// One evaluation, as the CloudWatch user guide describes it: M of N breaching datapoints, and each way of treating
// missing data.
import { describe, expect, test } from '@jest/globals';
import type { AlarmDefinition } from './alarm-definition';
import { evaluateAlarm, evaluatedPeriodStarts } from './alarm-evaluation';
import type { PeriodValue } from './metric-store';

const NOW = Date.parse('2026-12-01T14:17:30Z');
const alarm = (over: Partial<AlarmDefinition> = {}): AlarmDefinition => ({
  AlarmName: 'a',
  ActionsEnabled: true,
  OKActions: [],
  AlarmActions: [],
  InsufficientDataActions: [],
  MetricName: 'DeliveryToIceberg.FailedRowCount',
  Namespace: 'AWS/Firehose',
  Statistic: 'Sum',
  Dimensions: [],
  Period: 60,
  EvaluationPeriods: 1,
  Threshold: 0,
  ComparisonOperator: 'GreaterThanThreshold',
  ...over,
});
const sum = (start: number, value: number): PeriodValue => ({
  start,
  sum: value,
  count: 1,
  min: value,
  max: value,
});

describe('evaluateAlarm', () => {
  test('evaluates the most recent complete periods: 14:16 for a one-minute alarm at 14:17:30', () => {
    expect(
      evaluatedPeriodStarts(alarm({ EvaluationPeriods: 3 }), NOW).map((t) => new Date(t).toISOString()),
    ).toEqual(['2026-12-01T14:14:00.000Z', '2026-12-01T14:15:00.000Z', '2026-12-01T14:16:00.000Z']);
  });

  test('a breaching datapoint is ALARM, a good one OK, with the datapoint in the reason', () => {
    const [start] = evaluatedPeriodStarts(alarm(), NOW) as [number];
    expect(evaluateAlarm(alarm(), [sum(start, 5)], NOW)).toMatchObject({
      state: 'ALARM',
      reason:
        'Threshold Crossed: 1 datapoint [5.0 (01/12/26 14:16:00)] was greater than the threshold (0.0).',
    });
    expect(evaluateAlarm(alarm(), [sum(start, 0)], NOW)?.state).toBe('OK');
  });

  test("large and small numbers print as Java's Double.toString does: 1.0E7, not 10000000.0", () => {
    // Prepare
    const big = alarm({ Threshold: 1e7 });
    const [start] = evaluatedPeriodStarts(big, NOW) as [number];

    // Act
    const evaluation = evaluateAlarm(big, [sum(start, 12345678.9)], NOW);

    // Assess
    expect(evaluation?.reason).toBe(
      'Threshold Crossed: 1 datapoint [1.23456789E7 (01/12/26 14:16:00)] was greater than the threshold (1.0E7).',
    );
  });

  test('M of N: 2 breaching of 3 is ALARM when 2 are needed, OK when 3 are', () => {
    const starts = evaluatedPeriodStarts(alarm({ EvaluationPeriods: 3 }), NOW);
    const data = [sum(starts[0] as number, 1), sum(starts[1] as number, 0), sum(starts[2] as number, 4)];
    expect(evaluateAlarm(alarm({ EvaluationPeriods: 3, DatapointsToAlarm: 2 }), data, NOW)?.state).toBe(
      'ALARM',
    );
    expect(evaluateAlarm(alarm({ EvaluationPeriods: 3 }), data, NOW)?.state).toBe('OK');
  });

  test('missing data: INSUFFICIENT_DATA ("missing"), OK ("notBreaching"), ALARM ("breaching"), state kept ("ignore")', () => {
    expect(evaluateAlarm(alarm(), [], NOW)?.state).toBe('INSUFFICIENT_DATA');
    expect(evaluateAlarm(alarm({ TreatMissingData: 'notBreaching' }), [], NOW)).toMatchObject({
      state: 'OK',
      reason:
        'Threshold Crossed: no datapoints were received for 1 period and 1 missing datapoint was treated as [NonBreaching].',
    });
    expect(evaluateAlarm(alarm({ TreatMissingData: 'breaching' }), [], NOW)?.state).toBe('ALARM');
    expect(evaluateAlarm(alarm({ TreatMissingData: 'ignore' }), [], NOW)).toBeUndefined();
  });

  test('a datapoint outside the evaluated periods does not count', () => {
    const [start] = evaluatedPeriodStarts(alarm(), NOW) as [number];
    expect(evaluateAlarm(alarm(), [sum(start - 60_000, 9)], NOW)?.state).toBe('INSUFFICIENT_DATA');
  });
});
