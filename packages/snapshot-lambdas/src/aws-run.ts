// `pnpm lab snapshot --target aws`: starts the deployed state machine for one snapshot (what the daily schedule
// does) and waits for the execution with backoff, returning its status, output or error as Step Functions reports
// it. The alert itself goes to the SNS topic's subscribers, as on any scheduled run.
import { DescribeExecutionCommand, type SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import { SnapshotError } from './errors';
import { identifier, isoDate } from './params';

export interface AwsRunInput {
  stateMachineArn: string;
  snapshot: string;
  date?: string;
  timeoutMs?: number;
  pollMs?: number;
}

export interface AwsRunResult {
  executionArn: string;
  status: string;
  output: unknown;
  error: string | null;
  cause: string | null;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function runSnapshotOnAws(sfn: SFNClient, input: AwsRunInput): Promise<AwsRunResult> {
  const payload: Record<string, string> = { snapshot: identifier(input.snapshot, 'snapshot') };
  if (input.date !== undefined) payload.date = isoDate(input.date, 'date');
  const started = await sfn.send(
    new StartExecutionCommand({
      stateMachineArn: input.stateMachineArn,
      name: `manual-${payload.date ?? 'latest'}-${Date.now()}`,
      input: JSON.stringify(payload),
    }),
  );
  const executionArn = started.executionArn as string;
  const deadline = Date.now() + (input.timeoutMs ?? 30 * 60_000);
  let delay = input.pollMs ?? 2000;
  for (;;) {
    const d = await sfn.send(new DescribeExecutionCommand({ executionArn }));
    if (d.status !== 'RUNNING' && d.status !== 'PENDING_REDRIVE') {
      return {
        executionArn,
        status: d.status ?? 'UNKNOWN',
        output: d.output ? (JSON.parse(d.output) as unknown) : null,
        error: d.error ?? null,
        cause: d.cause ?? null,
      };
    }
    if (Date.now() + delay > deadline) {
      throw new SnapshotError(
        `Execution ${executionArn} is still running after ${Math.round((input.timeoutMs ?? 1_800_000) / 1000)} s; follow it in the Step Functions console.`,
        { value: { executionArn } },
      );
    }
    await sleep(delay);
    delay = Math.min(delay * 2, 15_000);
  }
}
