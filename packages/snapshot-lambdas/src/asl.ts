// The subset of the Amazon States Language this pipeline uses, as types, so the definition is checked by the
// compiler before it is checked by the validator.

export interface Retrier {
  ErrorEquals: string[];
  IntervalSeconds: number;
  MaxAttempts: number;
  BackoffRate: number;
}

export interface Catcher {
  ErrorEquals: string[];
  ResultPath: string;
  Next: string;
}

interface Common {
  Comment?: string;
}

type Transition = { Next: string; End?: never } | { End: true; Next?: never };

export type TaskState = Common &
  Transition & {
    Type: 'Task';
    Resource: string;
    Parameters?: Record<string, unknown>;
    ResultPath?: string | null;
    TimeoutSeconds?: number;
    Retry?: Retrier[];
    Catch?: Catcher[];
  };

export type PassState = Common &
  Transition & {
    Type: 'Pass';
    Parameters?: Record<string, unknown>;
    ResultPath?: string | null;
  };

export type FailState = Common & { Type: 'Fail'; Error: string; Cause: string };
export type SucceedState = Common & { Type: 'Succeed'; OutputPath?: string };

export type State = TaskState | PassState | FailState | SucceedState;

export interface StateMachineDefinition {
  Comment: string;
  StartAt: string;
  TimeoutSeconds?: number;
  States: Record<string, State>;
}
