// The metric store keeps data as CloudWatch does (user guide, "Metrics retention"; GetMetricStatistics, StartTime).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from '@jest/globals';
import { JsonStore } from '../store';
import { MetricStore, periodServesStart } from './metric-store';

const NOW = Date.parse('2026-12-01T14:00:00Z');
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const ID = { namespace: 'Lab', metricName: 'Rows', dimensions: [] };
const one = (v: number) => ({ sum: v, count: 1, min: v, max: v });

const dirs: string[] = [];
function store(): MetricStore {
  const dir = mkdtempSync(join(tmpdir(), 'loglake-metrics-'));
  dirs.push(dir);
  return new MetricStore(new JsonStore(dir));
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('CloudWatch metric data, kept as CloudWatch keeps it', () => {
  test('one-second points are one-minute points once they are 3 hours old; 15 days on they are gone', () => {
    const metrics = store();
    const old = NOW - 4 * HOUR;
    for (const s of [1, 2, 3]) metrics.put(ID, old + s * 1000, one(s), { resolutionMs: 1000 });
    const recent = NOW - HOUR;
    for (const s of [1, 2]) metrics.put(ID, recent + s * 1000, one(s), { resolutionMs: 1000 });
    metrics.put(ID, NOW - 16 * 24 * HOUR, one(9));
    metrics.flush(NOW);
    // At one-second periods only the recent seconds are still apart.
    expect(metrics.periods(ID, recent, NOW, 1000).map((p) => p.sum)).toEqual([1, 2]);
    expect(metrics.periods(ID, old, old + MINUTE, 1000)).toEqual([
      { start: old, sum: 6, count: 3, min: 1, max: 3 },
    ]);
    expect(metrics.periods(ID, NOW - 20 * 24 * HOUR, NOW - 15 * 24 * HOUR, MINUTE)).toEqual([]);
  });

  test('points arriving out of order land in their slots, in time order', () => {
    const metrics = store();
    for (const m of [5, 1, 3, 1]) metrics.put(ID, NOW - m * MINUTE, one(m));
    expect(metrics.periods(ID, NOW - HOUR, NOW, MINUTE).map((p) => [p.start, p.sum])).toEqual([
      [NOW - 5 * MINUTE, 5],
      [NOW - 3 * MINUTE, 3],
      [NOW - MINUTE, 2],
    ]);
  });

  test('a start older than 3 hours needs a period of whole minutes (5 after 15 days, an hour after 63), or no data', () => {
    expect(periodServesStart(NOW - 2 * HOUR, NOW, 1)).toBe(true);
    expect(periodServesStart(NOW - 4 * HOUR, NOW, 10)).toBe(false);
    expect(periodServesStart(NOW - 4 * HOUR, NOW, 120)).toBe(true);
    expect(periodServesStart(NOW - 20 * 24 * HOUR, NOW, 60)).toBe(false);
    expect(periodServesStart(NOW - 20 * 24 * HOUR, NOW, 300)).toBe(true);
    expect(periodServesStart(NOW - 70 * 24 * HOUR, NOW, 300)).toBe(false);
    expect(periodServesStart(NOW - 70 * 24 * HOUR, NOW, 3600)).toBe(true);
  });
});
