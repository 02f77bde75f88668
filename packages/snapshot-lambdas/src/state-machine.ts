// The daily snapshot state machine, generated from typed code:
//
//   ResolveWatermark ──► BuildSnapshot ──► Published (Succeed)
//        │ Catch              │ Catch
//        ▼                    ▼
//   ResolveWatermarkFailed  BuildSnapshotFailed   (Pass: name the step, keep the error and its evidence)
//        └────────► NotifyFailure (SNS publish) ──► Failed (Fail: the execution FAILS, so the alarm sees it)
//
// Transient errors (Lambda service hiccups, Athena throttling or system failures) are retried with backoff;
// everything else — above all NoCompleteDayError — goes straight to the failure path.
import { createRequire } from 'node:module';
import type { StateMachine as AslStateMachine } from 'aws-local-stepfunctions';
import type { Catcher, PassState, Retrier, StateMachineDefinition, TaskState } from './asl';
import { RETRYABLE_ERROR_NAMES, StateMachineDefinitionError } from './errors';

export type { StateMachineDefinition } from './asl';

export const STATE = {
  resolve: 'ResolveWatermark',
  build: 'BuildSnapshot',
  resolveFailed: 'ResolveWatermarkFailed',
  buildFailed: 'BuildSnapshotFailed',
  notify: 'NotifyFailure',
  failed: 'Failed',
  published: 'Published',
} as const;

export const SNS_PUBLISH = 'arn:aws:states:::sns:publish';
/** Step Functions' SNS integration in a partition (the stacks pass `data.aws_partition`'s). */
export const snsPublish = (partition = 'aws') => `arn:${partition}:states:::sns:publish`;
const isSnsPublish = (resource: string) => /^arn:[^:]+:states:::sns:publish$/.test(resource);
export const FAILURE_ERROR = 'SnapshotPipelineFailed';

export interface SnapshotStateMachineProps {
  resolveWatermarkFunctionArn: string;
  buildSnapshotFunctionArn: string;
  alertTopicArn: string;
  /** The partition of the service integration ARNs (default aws). */
  partition?: string;
  /** Task timeouts; the Lambdas' own timeouts should be a little lower. */
  resolveTimeoutSeconds?: number;
  buildTimeoutSeconds?: number;
  retry?: Partial<Pick<Retrier, 'IntervalSeconds' | 'MaxAttempts' | 'BackoffRate'>>;
}

function retrier(props: SnapshotStateMachineProps): Retrier[] {
  return [
    {
      ErrorEquals: [...RETRYABLE_ERROR_NAMES],
      IntervalSeconds: props.retry?.IntervalSeconds ?? 10,
      MaxAttempts: props.retry?.MaxAttempts ?? 3,
      BackoffRate: props.retry?.BackoffRate ?? 2,
    },
  ];
}

const catchAll = (next: string): Catcher[] => [
  { ErrorEquals: ['States.ALL'], ResultPath: '$.error', Next: next },
];

/** Names the failed step and keeps Error and Cause (the Lambda's errorType and message, which carries the evidence). */
function failurePass(step: string): PassState {
  return {
    Type: 'Pass',
    Comment: `Shape the alert for a failure in ${step}`,
    Parameters: {
      step,
      'snapshot.$': '$.snapshot',
      'error.$': '$.error.Error',
      'cause.$': '$.error.Cause',
      'execution.$': '$$.Execution.Id',
      'startedAt.$': '$$.Execution.StartTime',
    },
    ResultPath: '$.alert',
    Next: STATE.notify,
  };
}

export function snapshotStateMachine(props: SnapshotStateMachineProps): StateMachineDefinition {
  const resolve: TaskState = {
    Type: 'Task',
    Comment: 'Resolve the newest complete day of the source (fails with the evidence when there is none)',
    Resource: props.resolveWatermarkFunctionArn,
    TimeoutSeconds: props.resolveTimeoutSeconds ?? 600,
    ResultPath: '$.watermark',
    Retry: retrier(props),
    Catch: catchAll(STATE.resolveFailed),
    Next: STATE.build,
  };
  const build: TaskState = {
    Type: 'Task',
    Comment: 'CTAS the day to a new prefix, then publish it by moving the Glue table location',
    Resource: props.buildSnapshotFunctionArn,
    Parameters: { 'snapshot.$': '$.watermark.snapshot', 'watermark.$': '$.watermark.watermark' },
    TimeoutSeconds: props.buildTimeoutSeconds ?? 900,
    ResultPath: '$.build',
    Retry: retrier(props),
    Catch: catchAll(STATE.buildFailed),
    Next: STATE.published,
  };
  const notify: TaskState = {
    Type: 'Task',
    Comment: 'Mail the failure: step, error and evidence',
    Resource: snsPublish(props.partition),
    Parameters: {
      TopicArn: props.alertTopicArn,
      'Subject.$': "States.Format('loglake snapshot failed in {}', $.alert.step)",
      // Plain text for the mail: Cause is the Lambda's {errorType, errorMessage} JSON, whose message holds the evidence.
      'Message.$':
        "States.Format('loglake snapshot {} failed in step {}.\n\nError: {}\n\nCause: {}\n\nExecution: {} (started {})', $.alert.snapshot, $.alert.step, $.alert.error, $.alert.cause, $.alert.execution, $.alert.startedAt)",
    },
    ResultPath: '$.notified',
    Retry: [{ ErrorEquals: ['States.TaskFailed'], IntervalSeconds: 5, MaxAttempts: 3, BackoffRate: 2 }],
    Next: STATE.failed,
  };
  return {
    Comment:
      'loglake daily snapshot: resolve the latest complete day, build and publish its snapshot, alert on failure',
    StartAt: STATE.resolve,
    TimeoutSeconds: 3600,
    States: {
      [STATE.resolve]: resolve,
      [STATE.build]: build,
      [STATE.published]: { Type: 'Succeed' },
      [STATE.resolveFailed]: failurePass(STATE.resolve),
      [STATE.buildFailed]: failurePass(STATE.build),
      [STATE.notify]: notify,
      [STATE.failed]: {
        Type: 'Fail',
        Error: FAILURE_ERROR,
        Cause: 'A snapshot step failed; the SNS alert names the step, the error and the evidence',
      },
    },
  };
}

/** Placeholder ARNs for validating the shape when the real ones are Terraform tokens. */
export const EXAMPLE_ARNS = {
  resolveWatermarkFunctionArn: 'arn:aws:lambda:us-east-1:123456789012:function:loglake-01-resolve-watermark',
  buildSnapshotFunctionArn: 'arn:aws:lambda:us-east-1:123456789012:function:loglake-01-build-snapshot',
  alertTopicArn: 'arn:aws:sns:us-east-1:123456789012:loglake-01-alerts',
};

/** Structural rules beyond the ASL schema: every transition lands, every state is reachable, every Lambda task
 * retries transient errors and catches the rest into the failure path. */
export function structuralProblems(def: StateMachineDefinition): string[] {
  const problems: string[] = [];
  const names = new Set(Object.keys(def.States));
  const edges = (name: string): string[] => {
    const s = def.States[name];
    if (!s) return [];
    const out: string[] = [];
    if ('Next' in s && s.Next) out.push(s.Next);
    if (s.Type === 'Task') for (const c of s.Catch ?? []) out.push(c.Next);
    return out;
  };
  for (const name of names) {
    for (const target of edges(name))
      if (!names.has(target)) problems.push(`${name} goes to missing state ${target}`);
    const s = def.States[name];
    if (s?.Type === 'Task' && !isSnsPublish(s.Resource)) {
      if (!s.Retry?.some((r) => r.ErrorEquals.includes('AthenaTransientError')))
        problems.push(`${name} does not retry transient errors`);
      if (!s.Catch?.some((c) => c.ErrorEquals.includes('States.ALL')))
        problems.push(`${name} has no catch-all`);
    }
  }
  const seen = new Set<string>();
  const queue = [def.StartAt];
  while (queue.length > 0) {
    const name = queue.shift() as string;
    if (seen.has(name)) continue;
    seen.add(name);
    queue.push(...edges(name));
  }
  for (const name of names) if (!seen.has(name)) problems.push(`${name} is unreachable`);
  return problems;
}

// The ASL validator (aws-local-stepfunctions → asl-validator → ajv) costs ~0.3 s to load and compiles its schemas
// on every call: loaded on first validation only, so importing the builder (as every synth does) stays cheap.
let aslStateMachine: typeof AslStateMachine | undefined;
function loadAslStateMachine(): typeof AslStateMachine {
  aslStateMachine ??= (
    createRequire(import.meta.url)('aws-local-stepfunctions') as { StateMachine: typeof AslStateMachine }
  ).StateMachine;
  return aslStateMachine;
}

/** Validates with aws-local-stepfunctions (asl-validator underneath) and the structural rules above. */
export function validateStateMachine(def: StateMachineDefinition): void {
  try {
    const StateMachine = loadAslStateMachine();
    new StateMachine(def as unknown as ConstructorParameters<typeof StateMachine>[0]);
  } catch (error) {
    throw new StateMachineDefinitionError(
      `The snapshot state machine is not valid ASL: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
  const problems = structuralProblems(def);
  if (problems.length > 0) {
    throw new StateMachineDefinitionError(`The snapshot state machine is malformed: ${problems.join('; ')}`, {
      value: { problems },
    });
  }
}
