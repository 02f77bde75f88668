import { describe, test, expect } from '@jest/globals';
import { EXPERIMENTS, findExperiments } from './registry';

describe('experiment registry', () => {
  test('Part 1, Part 2, then Part 3 (daily snapshots), names unique', () => {
    const parts = EXPERIMENTS.map((e) => e.part);
    expect(parts).toEqual([...parts].sort());
    expect(new Set(EXPERIMENTS.map((e) => e.name)).size).toBe(EXPERIMENTS.length);
  });

  test('finds experiments in the order asked; an unknown name lists the valid ones in order', () => {
    expect(findExperiments(['undo', 'load']).map((e) => e.name)).toEqual(['undo', 'load']);
    expect(() => findExperiments(['load', 'compact'])).toThrow(
      /No experiment named compact. Valid names, in order: load, time-travel, add-columns, delete, top-rejected/,
    );
  });
});
