import { describe, test, expect } from '@jest/globals';
import { NoCompleteDayError, AthenaTransientError, StateMachineDefinitionError } from './errors';
import { runStateMachineLocally } from './local-run';
import {
  EXAMPLE_ARNS,
  STATE,
  snapshotStateMachine,
  structuralProblems,
  validateStateMachine,
} from './state-machine';

const definition = snapshotStateMachine(EXAMPLE_ARNS);

describe('snapshot state machine definition', () => {
  test('is valid ASL and structurally sound', () => {
    expect(() => validateStateMachine(definition)).not.toThrow();
    expect(structuralProblems(definition)).toEqual([]);
  });

  test('retries transient errors and catches everything else into a failure path that publishes to SNS', () => {
    const resolve = definition.States[STATE.resolve];
    const build = definition.States[STATE.build];
    const notify = definition.States[STATE.notify];
    for (const task of [resolve, build]) {
      if (task?.Type !== 'Task') throw new Error('expected a Task');
      expect(task.Retry?.[0]?.ErrorEquals).toContain('AthenaTransientError');
      expect(task.Retry?.[0]?.ErrorEquals).not.toContain('NoCompleteDayError');
      expect(task.Catch?.[0]).toMatchObject({ ErrorEquals: ['States.ALL'], ResultPath: '$.error' });
    }
    expect(notify).toMatchObject({
      Type: 'Task',
      Resource: 'arn:aws:states:::sns:publish',
      Next: STATE.failed,
    });
    expect(definition.States[STATE.failed]).toMatchObject({ Type: 'Fail' });
  });

  test('a broken definition is refused', () => {
    const broken = {
      ...definition,
      States: { ...definition.States, [STATE.build]: { ...definition.States[STATE.build], Next: 'Nowhere' } },
    };
    expect(() => validateStateMachine(broken as typeof definition)).toThrow(StateMachineDefinitionError);
    const noCatch = structuredClone(definition);
    const task = noCatch.States[STATE.resolve];
    if (task?.Type === 'Task') delete task.Catch;
    expect(structuralProblems(noCatch)).toContain('ResolveWatermark has no catch-all');
  });
});

describe('the definition run offline', () => {
  test('success: the watermark flows into the build step, no alert', async () => {
    const calls: unknown[] = [];
    const run = await runStateMachineLocally(
      definition,
      {
        resolveWatermark: async (e) => {
          calls.push(e);
          return { snapshot: 'daily', watermark: '2026-11-27' };
        },
        buildSnapshot: async (e) => {
          calls.push(e);
          return { published: true };
        },
      },
      { snapshot: 'daily' },
    );
    expect(run.status).toBe('SUCCEEDED');
    expect(calls).toEqual([{ snapshot: 'daily' }, { snapshot: 'daily', watermark: '2026-11-27' }]);
    expect(run.alerts).toEqual([]);
    expect(run.output).toMatchObject({ build: { published: true } });
  });

  test('failure: the alert names the step, the error and the evidence; the execution fails', async () => {
    const run = await runStateMachineLocally(
      definition,
      {
        resolveWatermark: async () => {
          throw new NoCompleteDayError('2026-11-27: hours missing 14-23');
        },
        buildSnapshot: async () => ({}),
      },
      { snapshot: 'daily' },
    );
    expect(run.status).toBe('FAILED');
    expect(run.error?.error).toBe('SnapshotPipelineFailed');
    expect(run.alerts).toHaveLength(1);
    expect(run.alerts[0]?.subject).toBe('loglake snapshot failed in ResolveWatermark');
    const message = run.alerts[0]?.message ?? '';
    expect(message).toContain('loglake snapshot daily failed in step ResolveWatermark.');
    expect(message).toContain('Error: NoCompleteDayError');
    expect(message).toContain('2026-11-27: hours missing 14-23');
    expect(message).toContain(
      `Execution: arn:aws:states:us-east-1:123456789012:execution:loglake-local-snapshots:${run.executionName}`,
    );
  });

  test('a transient error is retried, then succeeds', async () => {
    let attempts = 0;
    const run = await runStateMachineLocally(
      definition,
      {
        resolveWatermark: async () => ({ snapshot: 'daily', watermark: '2026-11-27' }),
        buildSnapshot: async () => {
          attempts++;
          if (attempts < 3) throw new AthenaTransientError('throttled');
          return { published: true };
        },
      },
      { snapshot: 'daily' },
    );
    expect(run.status).toBe('SUCCEEDED');
    expect(attempts).toBe(3);
    expect(run.events.filter((e) => e.includes('retried'))).toHaveLength(2);
  });
});
