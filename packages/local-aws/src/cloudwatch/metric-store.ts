// CloudWatch's metric data, as the service keeps it: a series per (namespace, metric name, dimension set), its
// datapoints stored at the metric's resolution as statistic sets (CloudWatch user guide, "Metrics concepts":
// standard-resolution data has one-minute granularity, high-resolution data one second). Queries aggregate them
// into periods aligned to the epoch. Persisted in the endpoint's state folder, at most once a second.
import type { JsonStore } from '../store';

export interface Dimension {
  readonly Name: string;
  readonly Value: string;
}

export interface MetricId {
  readonly namespace: string;
  readonly metricName: string;
  /** Sorted by name: the same set in any order is the same series, as in CloudWatch. */
  readonly dimensions: readonly Dimension[];
}

/** Sum, count, minimum and maximum of what arrived in one storage slot. */
export interface StatisticSet {
  sum: number;
  count: number;
  min: number;
  max: number;
}

interface StoredPoint extends StatisticSet {
  /** Start of the storage slot (ms since the epoch). */
  t: number;
}

interface Series extends MetricId {
  unit?: string;
  points: StoredPoint[];
}

export const STATISTICS = ['SampleCount', 'Average', 'Sum', 'Minimum', 'Maximum'] as const;
export type Statistic = (typeof STATISTICS)[number];

export interface PeriodValue extends StatisticSet {
  /** Start of the period (ms since the epoch). */
  start: number;
}

/** One minute: CloudWatch keeps standard-resolution data at this granularity. */
export const STANDARD_RESOLUTION_MS = 60_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
/**
 * CloudWatch user guide, "Metrics retention": "Data points with a period of less than 60 seconds are available for
 * 3 hours", then as one-minute data, kept 15 days. (Five-minute and one-hour aggregates after that are not kept.)
 */
const HIGH_RESOLUTION_MS = 3 * HOUR_MS;
const RETENTION_MS = 15 * DAY_MS;

/**
 * Whether a query starting at `startMs` gets data points at `periodSeconds` (GetMetricStatistics, StartTime: a start
 * "greater than 3 hours ago" needs a multiple of 60 seconds, between 15 and 63 days a multiple of 300, beyond 63
 * days a multiple of 3600, "or no data points in that time range is returned").
 */
export function periodServesStart(startMs: number, nowMs: number, periodSeconds: number): boolean {
  const age = nowMs - startMs;
  if (age > 63 * DAY_MS) return periodSeconds % 3600 === 0;
  if (age > 15 * DAY_MS) return periodSeconds % 300 === 0;
  if (age > HIGH_RESOLUTION_MS) return periodSeconds % 60 === 0;
  return true;
}
const STORE_KEY = ['cloudwatch', 'metrics'];

const seriesKey = (m: MetricId) =>
  JSON.stringify([m.namespace, m.metricName, m.dimensions.map((d) => [d.Name, d.Value])]);

export function sortedDimensions(dimensions: readonly Dimension[]): Dimension[] {
  return [...dimensions].sort((a, b) => (a.Name < b.Name ? -1 : a.Name > b.Name ? 1 : 0));
}

export function statisticOf(set: StatisticSet, statistic: Statistic): number {
  switch (statistic) {
    case 'SampleCount':
      return set.count;
    case 'Average':
      return set.count === 0 ? 0 : set.sum / set.count;
    case 'Sum':
      return set.sum;
    case 'Minimum':
      return set.min;
    case 'Maximum':
      return set.max;
  }
}

export class MetricStore {
  private readonly series = new Map<string, Series>();
  private dirty = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly store: JsonStore) {
    for (const s of store.read<Series[]>(STORE_KEY) ?? []) this.series.set(seriesKey(s), s);
  }

  /** Adds a statistic set at `timestampMs` to the series (created on first use). */
  put(
    id: MetricId,
    timestampMs: number,
    set: StatisticSet,
    options: { unit?: string; resolutionMs?: number } = {},
  ): void {
    const metric = { ...id, dimensions: sortedDimensions(id.dimensions) };
    const key = seriesKey(metric);
    let series = this.series.get(key);
    if (!series) {
      series = { ...metric, points: [] };
      this.series.set(key, series);
    }
    if (options.unit && options.unit !== 'None') series.unit = options.unit;
    const resolution = options.resolutionMs ?? STANDARD_RESOLUTION_MS;
    const t = Math.floor(timestampMs / resolution) * resolution;
    addTo(series.points, t, set);
    this.changed();
  }

  /** Series matching the filters (namespace, name, dimensions by name and optionally value). */
  list(filter: {
    namespace?: string;
    metricName?: string;
    dimensions?: readonly { Name: string; Value?: string }[];
    activeSinceMs?: number;
  }): MetricId[] {
    return [...this.series.values()]
      .filter(
        (s) =>
          (filter.namespace === undefined || s.namespace === filter.namespace) &&
          (filter.metricName === undefined || s.metricName === filter.metricName) &&
          (filter.dimensions ?? []).every((f) =>
            s.dimensions.some((d) => d.Name === f.Name && (f.Value === undefined || d.Value === f.Value)),
          ) &&
          (filter.activeSinceMs === undefined || s.points.some((p) => p.t >= (filter.activeSinceMs ?? 0))),
      )
      .map(({ namespace, metricName, dimensions }) => ({ namespace, metricName, dimensions }))
      .sort((a, b) => seriesKey(a).localeCompare(seriesKey(b)));
  }

  /**
   * The series' data in periods of `periodMs` aligned to the epoch, for periods that start in [startMs, endMs):
   * only periods with data, oldest first. The series is the one with exactly `id`'s dimensions, as CloudWatch matches
   * a metric.
   */
  periods(id: MetricId, startMs: number, endMs: number, periodMs: number, unit?: string): PeriodValue[] {
    const series = this.series.get(seriesKey({ ...id, dimensions: sortedDimensions(id.dimensions) }));
    if (!series || (unit !== undefined && series.unit !== undefined && unit !== series.unit)) return [];
    const first = Math.floor(startMs / periodMs) * periodMs;
    const byPeriod = new Map<number, PeriodValue>();
    for (const p of series.points) {
      const start = Math.floor(p.t / periodMs) * periodMs;
      if (start < first || start >= endMs) continue;
      const v = byPeriod.get(start);
      if (!v) byPeriod.set(start, { start, sum: p.sum, count: p.count, min: p.min, max: p.max });
      else {
        v.sum += p.sum;
        v.count += p.count;
        v.min = Math.min(v.min, p.min);
        v.max = Math.max(v.max, p.max);
      }
    }
    return [...byPeriod.values()].sort((a, b) => a.start - b.start);
  }

  unitOf(id: MetricId): string | undefined {
    return this.series.get(seriesKey({ ...id, dimensions: sortedDimensions(id.dimensions) }))?.unit;
  }

  /** Drops data past CloudWatch's retention, then writes what is pending. */
  flush(nowMs: number = Date.now()): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    for (const s of this.series.values()) s.points = retained(s.points, nowMs);
    if (!this.dirty) return;
    this.dirty = false;
    this.store.write(STORE_KEY, [...this.series.values()]);
  }

  private changed(): void {
    this.dirty = true;
    if (this.timer) return;
    this.timer = setTimeout(() => this.flush(), 1000);
    this.timer.unref();
  }
}

/**
 * Adds `set` to the slot starting at `t` in time-ordered `points` (created when missing). Data mostly arrives in time
 * order, so the slot is looked for from the end.
 */
function addTo(points: StoredPoint[], t: number, set: StatisticSet): void {
  let i = points.length - 1;
  while (i >= 0 && (points[i] as StoredPoint).t > t) i--;
  let point = i >= 0 && (points[i] as StoredPoint).t === t ? (points[i] as StoredPoint) : undefined;
  if (!point) {
    point = { t, sum: 0, count: 0, min: Infinity, max: -Infinity };
    points.splice(i + 1, 0, point);
  }
  point.sum += set.sum;
  point.count += set.count;
  point.min = Math.min(point.min, set.min);
  point.max = Math.max(point.max, set.max);
}

/** What CloudWatch still has at `nowMs`: high-resolution points older than 3 hours rolled into their minute. */
function retained(points: readonly StoredPoint[], nowMs: number): StoredPoint[] {
  const kept: StoredPoint[] = [];
  for (const p of points) {
    if (p.t < nowMs - RETENTION_MS) continue;
    const t =
      p.t < nowMs - HIGH_RESOLUTION_MS
        ? Math.floor(p.t / STANDARD_RESOLUTION_MS) * STANDARD_RESOLUTION_MS
        : p.t;
    addTo(kept, t, p);
  }
  return kept;
}
