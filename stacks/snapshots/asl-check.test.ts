import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXAMPLE_ARNS, snapshotStateMachine } from '@loglake/snapshot-lambdas/deploy';
import { checkStateMachine } from './asl-check';

describe('checkStateMachine', () => {
  let cacheDir: string;
  beforeAll(() => {
    cacheDir = mkdtempSync(join(tmpdir(), 'asl-check-'));
  });
  afterAll(() => rmSync(cacheDir, { recursive: true, force: true }));

  test('runs the full validator once per distinct definition, then only the structural rules', () => {
    // Prepare
    const def = snapshotStateMachine(EXAMPLE_ARNS);
    const other = snapshotStateMachine({ ...EXAMPLE_ARNS, buildTimeoutSeconds: 600 });

    // Act
    const first = checkStateMachine(def, { cacheDir });
    const again = checkStateMachine(snapshotStateMachine(EXAMPLE_ARNS), { cacheDir });
    const changed = checkStateMachine(other, { cacheDir });

    // Assess
    expect(first.fullValidation).toBe(true);
    expect(again).toEqual({ key: first.key, fullValidation: false });
    expect(changed.fullValidation).toBe(true);
    expect(changed.key).not.toBe(first.key);
    expect(readdirSync(cacheDir)).toHaveLength(2);
  });

  test('a definition the ASL validator rejects fails and is not recorded', () => {
    // Prepare: structurally sound (every transition lands), but Retry is not ASL.
    const def = snapshotStateMachine(EXAMPLE_ARNS);
    const bad = {
      ...def,
      States: { ...def.States, Published: { Type: 'Succeed' as const, Retry: 'often' } as never },
    };
    const before = readdirSync(cacheDir).length;

    // Act / Assess
    expect(() => checkStateMachine(bad, { cacheDir })).toThrow(/not valid ASL/);
    expect(readdirSync(cacheDir)).toHaveLength(before);
  });

  test('an earlier pass does not let a changed, broken definition through', () => {
    // Prepare
    const def = snapshotStateMachine(EXAMPLE_ARNS);
    checkStateMachine(def, { cacheDir });
    const broken = {
      ...def,
      States: { ...def.States, BuildSnapshot: { ...def.States.BuildSnapshot, Next: 'Nowhere' } as never },
    };

    // Act / Assess
    expect(() => checkStateMachine(broken, { cacheDir })).toThrow(/Nowhere/);
  });
});
