import { describe, test, expect, beforeEach } from '@jest/globals';
import { mockClient } from 'aws-sdk-client-mock';
import { DescribeExecutionCommand, SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import { runSnapshotOnAws } from './aws-run';
import { InvalidParameterError } from './errors';

const sfn = mockClient(SFNClient);
const arn = 'arn:aws:states:us-east-1:123456789012:stateMachine:loglake-01-snapshots';

beforeEach(() => {
  sfn.reset();
  sfn.on(StartExecutionCommand).resolves({ executionArn: `${arn}:manual`, startDate: new Date() });
});

describe('runSnapshotOnAws', () => {
  test('starts the state machine with the snapshot and date, then waits for the end', async () => {
    sfn
      .on(DescribeExecutionCommand)
      .resolvesOnce({
        status: 'RUNNING',
        executionArn: `${arn}:manual`,
        stateMachineArn: arn,
        startDate: new Date(),
      })
      .resolves({
        status: 'FAILED',
        error: 'SnapshotPipelineFailed',
        cause: 'see the alert',
        executionArn: `${arn}:manual`,
        stateMachineArn: arn,
        startDate: new Date(),
      });
    const result = await runSnapshotOnAws(new SFNClient({ region: 'us-east-1' }), {
      stateMachineArn: arn,
      snapshot: 'loglake_01_vpc_flow_logs_daily',
      date: '2026-11-27',
      pollMs: 1,
    });
    expect(JSON.parse(sfn.commandCalls(StartExecutionCommand)[0]!.args[0].input.input!)).toEqual({
      snapshot: 'loglake_01_vpc_flow_logs_daily',
      date: '2026-11-27',
    });
    expect(result).toMatchObject({ status: 'FAILED', error: 'SnapshotPipelineFailed' });
  });

  test('a date carrying SQL never reaches Step Functions', async () => {
    await expect(
      runSnapshotOnAws(new SFNClient({ region: 'us-east-1' }), {
        stateMachineArn: arn,
        snapshot: 'x',
        date: "1' OR 1=1",
      }),
    ).rejects.toThrow(InvalidParameterError);
    expect(sfn.commandCalls(StartExecutionCommand)).toHaveLength(0);
  });
});
