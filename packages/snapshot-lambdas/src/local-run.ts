// Runs the real state-machine definition offline with aws-local-stepfunctions: the two Lambda tasks run the
// handlers in-process, the SNS publish task is captured instead of sent. A handler error reaches the state
// machine shaped as Lambda reports it on AWS (Error = errorType, Cause = JSON {errorType, errorMessage}), so the
// Retry/Catch matching and the alert text are the same offline and on AWS.
import { randomUUID } from 'node:crypto';
import { ExecutionError, StateMachine } from 'aws-local-stepfunctions';
import type { StateMachineDefinition } from './asl';
import { STATE } from './state-machine';

/** aws-local-stepfunctions uses Promise.withResolvers (Node 22+); this is the spec's behaviour for Node 20. */
export function polyfillPromiseWithResolvers(): void {
  const P = Promise as unknown as { withResolvers?: unknown };
  if (typeof P.withResolvers === 'function') return;
  P.withResolvers = function withResolvers<T>() {
    let resolve!: (value: T | PromiseLike<T>) => void;
    let reject!: (reason?: unknown) => void;
    const promise = new Promise<T>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    return { promise, resolve, reject };
  };
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export interface CapturedAlert {
  topicArn: string;
  subject: string;
  message: string;
}

export interface LocalHandlers {
  resolveWatermark: (event: never) => Promise<unknown>;
  buildSnapshot: (event: never) => Promise<unknown>;
}

export interface LocalRunResult {
  executionName: string;
  status: 'SUCCEEDED' | 'FAILED';
  output: Json | null;
  error: { error: string; cause: string } | null;
  alerts: CapturedAlert[];
  /** One line per state transition, retry and catch, for printing. */
  events: string[];
}

/** What the Lambda service hands Step Functions when a function throws. */
class LambdaFunctionError extends Error {
  constructor(error: Error) {
    super(JSON.stringify({ errorType: error.name, errorMessage: error.message }));
    this.name = error.name;
  }
}

function asLambda(fn: (event: never) => Promise<unknown>) {
  return async (input: unknown): Promise<Json> => {
    try {
      // JSON round trip: what crosses the Lambda boundary is JSON, never live objects.
      return JSON.parse(JSON.stringify(await fn(JSON.parse(JSON.stringify(input)) as never))) as Json;
    } catch (error) {
      throw new LambdaFunctionError(error instanceof Error ? error : new Error(String(error)));
    }
  };
}

export async function runStateMachineLocally(
  definition: StateMachineDefinition,
  handlers: LocalHandlers,
  input: Record<string, Json>,
  options: { executionName?: string; retryIntervalMs?: number } = {},
): Promise<LocalRunResult> {
  polyfillPromiseWithResolvers();
  const machine = new StateMachine(definition as unknown as ConstructorParameters<typeof StateMachine>[0]);
  const alerts: CapturedAlert[] = [];
  const executionName = options.executionName ?? `local-${randomUUID()}`;
  const retry = options.retryIntervalMs ?? 0;
  const execution = machine.run(input, {
    overrides: {
      taskResourceLocalHandlers: {
        [STATE.resolve]: asLambda(handlers.resolveWatermark),
        [STATE.build]: asLambda(handlers.buildSnapshot),
        [STATE.notify]: (params) => {
          const p = params as { TopicArn: string; Subject: string; Message: string };
          alerts.push({ topicArn: p.TopicArn, subject: p.Subject, message: p.Message });
          return { MessageId: randomUUID() };
        },
      },
      retryIntervalOverrides: { [STATE.resolve]: retry, [STATE.build]: retry, [STATE.notify]: retry },
    },
    context: {
      Execution: {
        Id: `arn:aws:states:us-east-1:123456789012:execution:loglake-local-snapshots:${executionName}`,
        Name: executionName,
        Input: input,
        StartTime: new Date().toISOString(),
      },
    },
  });
  const events: string[] = [];
  const collecting = (async () => {
    for await (const event of execution.eventLogs) {
      const e = event as {
        type: string;
        state?: { name: string };
        Error?: string;
        retry?: { retrier: unknown };
      };
      if (e.type === 'StateEntered' && e.state) events.push(`→ ${e.state.name}`);
      if (e.type === 'StateRetried' && e.state) events.push(`  ↻ ${e.state.name} retried`);
      if (e.type === 'StateCaught' && e.state)
        events.push(`  ✗ ${e.state.name} caught ${e.Error ?? ''}`.trimEnd());
      if (e.type === 'StateFailed' && e.state) events.push(`  ✗ ${e.state.name} failed: ${e.Error ?? ''}`);
      if (e.type === 'ExecutionSucceeded') events.push('✓ execution SUCCEEDED');
      if (e.type === 'ExecutionFailed') events.push(`✗ execution FAILED: ${e.Error ?? ''}`);
    }
  })();
  try {
    const output = (await execution.result) as Json;
    await collecting;
    return { executionName, status: 'SUCCEEDED', output, error: null, alerts, events };
  } catch (error) {
    await collecting.catch(() => undefined);
    if (!(error instanceof ExecutionError)) throw error;
    const cause = (error as Error & { cause?: { name?: string; message?: string } }).cause;
    return {
      executionName,
      status: 'FAILED',
      output: null,
      error: { error: cause?.name ?? 'Unknown', cause: cause?.message ?? error.message },
      alerts,
      events,
    };
  }
}
