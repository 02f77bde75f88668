import { describe, test, expect } from '@jest/globals';
import { EXPERIMENTS, findExperiments } from './registry';
import { EXPERIMENT_NAMES, refuseStaleRows, TABLE_EFFECTS } from './table-effects';

describe('experiment registry', () => {
  test('Part 1, Part 2, then Part 3 (daily snapshots), names unique', () => {
    const parts = EXPERIMENTS.map((e) => e.part);
    expect(parts).toEqual([...parts].sort());
    expect(new Set(EXPERIMENTS.map((e) => e.name)).size).toBe(EXPERIMENTS.length);
  });

  test('finds experiments in the order asked; an unknown name lists the valid ones in order', () => {
    expect(findExperiments(['undo', 'load']).map((e) => e.name)).toEqual(['undo', 'load']);
    expect(() => findExperiments(['load', 'compact'])).toThrow(
      /No experiment named compact \(did you mean compaction\?\)\. Valid names, in order: load, time-travel, add-columns, delete, top-rejected/,
    );
  });

  test("every experiment declares what its figures depend on and what it changes, in the lab's order", () => {
    expect(EXPERIMENT_NAMES).toEqual(EXPERIMENTS.map((e) => e.name));
    for (const e of EXPERIMENTS) expect(TABLE_EFFECTS[e.name]).toBeDefined();
  });
});

describe('which rows lab run refuses on a lake it continues', () => {
  const order = EXPERIMENT_NAMES;
  const upTo = (name: string) => order.slice(0, order.indexOf(name) + 1);

  test('the lab in order, one step at a time, is never refused', () => {
    for (let i = 0; i < order.length; i++)
      expect(refuseStaleRows([order[i] as string], order.slice(0, i), order)).toEqual([]);
  });

  test('after a whole lab: one-hour (later bursts in the flow table) and a second load are refused, with who changed what', () => {
    const [oneHour] = refuseStaleRows(['one-hour'], order, order);
    expect(oneHour?.reason).toBe(
      "the flow table was changed since by bad-records, sort-order, tag-cleanup, daily-snapshot (at or after one-hour in the lab's order)",
    );
    expect(refuseStaleRows(['load'], upTo('load'), order)[0]?.reason).toMatch(/its own earlier run/);
    // Rows that compare what they measure themselves still run: the analyst asks the same tables as the deployer.
    expect(refuseStaleRows(['analyst-role', 'laptop-client'], order, order)).toEqual([]);
    // Time travel reads an old snapshot: later appends do not change it, the undo window's expiry does.
    expect(refuseStaleRows(['time-travel'], upTo('sort-order'), order)).toEqual([]);
    expect(refuseStaleRows(['time-travel'], upTo('undo-window'), order)[0]?.reason).toMatch(/undo-window/);
  });

  test('data the lab did not write in a table a row depends on refuses it; elsewhere it does not', () => {
    const loaded = [{ where: 'network.vpc_flow_logs', files: 4, bytes: 100 }];
    expect(refuseStaleRows(['add-columns'], upTo('time-travel'), order, loaded)[0]?.reason).toBe(
      'the flow table holds data the lab did not write (network.vpc_flow_logs: 4 files)',
    );
    expect(refuseStaleRows(['merge'], upTo('ref-tables'), order, loaded)).toEqual([]);
  });
});
