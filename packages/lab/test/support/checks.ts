// TEST SUPPORT: asserting that exactly one check of a set failed (a contradicting fact flips that one alone).
import { expect } from '@jest/globals';

export function expectOnlyFailing(checks: Record<string, boolean>, failing: string): void {
  expect(
    Object.entries(checks)
      .filter(([, ok]) => !ok)
      .map(([name]) => name),
  ).toEqual([failing]);
}
