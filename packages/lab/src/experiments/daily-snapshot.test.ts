import { describe, test, expect, afterEach } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetExecutionHistoryCommand, SFNClient } from '@aws-sdk/client-sfn';
import { mockClient } from 'aws-sdk-client-mock';
import {
  caughtError,
  deployedStateMachineArn,
  historyExecutionCounts,
  historyPerHour,
  offlineExecutionCounts,
} from './daily-snapshot';

const dirs: string[] = [];
const outputs = (content: unknown) => {
  const dir = mkdtempSync(join(tmpdir(), 'daily-snapshot-'));
  dirs.push(dir);
  const file = join(dir, 'cdktf-outputs.json');
  writeFileSync(file, JSON.stringify(content));
  return file;
};
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('daily-snapshot on --target aws', () => {
  test('the state machine ARN comes from the snapshots stack outputs; without it the experiment is skipped with the fix', () => {
    const arn = 'arn:aws:states:us-east-1:123456789012:stateMachine:loglake-01-snapshots';
    expect(deployedStateMachineArn(outputs({ snapshots: { state_machine_arn: arn } }), ['snapshots'])).toBe(
      arn,
    );
    expect(deployedStateMachineArn(outputs({ 'table-bucket': {} }), ['snapshots'])).toEqual({
      skip: expect.stringMatching(/has no snapshots\.state_machine_arn; deploy the snapshots unit/),
    });
    expect(deployedStateMachineArn('/nonexistent/outputs.json', ['snapshots'])).toEqual({
      skip: expect.stringMatching(/^no deployed-stack outputs at \/nonexistent\/outputs\.json/),
    });
  });

  test("a failed execution's own error is read from the alert the NotifyFailure state was given", async () => {
    // Prepare
    const sfn = mockClient(SFNClient);
    sfn.on(GetExecutionHistoryCommand).resolves({
      events: [
        { type: 'ExecutionFailed', id: 9, timestamp: new Date() },
        {
          type: 'TaskStateEntered',
          id: 7,
          timestamp: new Date(),
          stateEnteredEventDetails: {
            name: 'NotifyFailure',
            input: JSON.stringify({
              snapshot: 'vpc_flow_logs_daily',
              alert: {
                step: 'ResolveWatermark',
                error: 'NoCompleteDayError',
                cause: '{"errorMessage":"hours missing 00-19"}',
              },
            }),
          },
        },
      ],
    });
    // Act
    const error = await caughtError(
      new SFNClient({ region: 'us-east-1' }),
      'arn:aws:states:us-east-1:123456789012:execution:x:y',
    );
    // Assess
    expect(error).toEqual({ error: 'NoCompleteDayError', cause: '{"errorMessage":"hours missing 00-19"}' });
    expect(sfn.commandCalls(GetExecutionHistoryCommand)[0]?.args[0].input).toMatchObject({
      reverseOrder: true,
    });
    sfn.restore();
  });

  test('the extra history day is a tenth of the main hourly rate, at least 5 per hour', () => {
    expect(historyPerHour(50_000, 24)).toBe(208);
    expect(historyPerHour(1500, 24)).toBe(6);
    expect(historyPerHour(100, 24)).toBe(5);
  });
});

describe("what the snapshot pipeline used (the cost estimate's Step Functions and Lambda lines)", () => {
  test('offline: every state entered and every retry is a transition; a Lambda state entered or retried is an invocation', () => {
    const published = ['→ ResolveWatermark', '→ BuildSnapshot', '→ Published', '✓ execution SUCCEEDED'];
    expect(offlineExecutionCounts(published)).toEqual({ transitions: 3, lambdaInvocations: 2 });
    const refused = [
      '→ ResolveWatermark',
      '  ↻ ResolveWatermark retried',
      '  ✗ ResolveWatermark caught NoCompleteDayError',
      '→ ResolveWatermarkFailed',
      '→ NotifyFailure',
      '→ Failed',
      '✗ execution FAILED: SnapshotPipelineFailed',
    ];
    expect(offlineExecutionCounts(refused)).toEqual({ transitions: 5, lambdaInvocations: 2 });
  });

  test('on AWS: states entered and Lambda tasks scheduled, from the execution history', () => {
    const events = [
      { type: 'ExecutionStarted' },
      { type: 'TaskStateEntered' },
      { type: 'TaskScheduled' },
      { type: 'TaskStateEntered' },
      { type: 'TaskScheduled' },
      { type: 'SucceedStateEntered' },
      { type: 'ExecutionSucceeded' },
    ];
    expect(historyExecutionCounts(events)).toEqual({ transitions: 3, lambdaInvocations: 2 });
  });
});
