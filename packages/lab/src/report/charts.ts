// The report's pictures, as data drawn from the experiments' measures: Part 1's headline (JSON vs Parquet), the
// files before and after compaction, the snapshots and bytes before and after the undo window, and the bytes read
// where the articles compare them. Every picture is always listed; one whose figures this run did not measure says
// why instead of drawing nothing (report/svg.ts draws them).
import { formatBytes, formatCount } from './format';
import type { ExperimentReport } from './lab-report';

export type ChartUnit = 'bytes' | 'files' | 'snapshots';

export interface ChartBar {
  label: string;
  /** Bars of one series share a colour (and a legend entry). */
  series: string;
  value: number;
}

/** Bars on one scale (a picture of files and bytes has a group for each). */
export interface ChartGroup {
  label: string;
  unit: ChartUnit;
  bars: ChartBar[];
}

export interface LabChart {
  id: string;
  title: string;
  /** The experiment whose measures it draws. */
  experiment: string;
  /** Every series, in legend order. */
  series: string[];
  groups: ChartGroup[];
  /** One sentence saying what the picture shows. */
  caption?: string;
  /** Why there is nothing to draw (present exactly when groups is empty). */
  missing?: string;
}

type Measures = ExperimentReport['measures'];

interface ChartSpec {
  id: string;
  experiment: string;
  title: string;
  series: string[];
  /** The measures it needs (all numbers). */
  needs: string[];
  /** Why the figures can be absent although the experiment ran (e.g. not measured on AWS). */
  absentBecause?: (m: Measures) => string | undefined;
  draw(m: Record<string, number>, raw: Measures): { groups: ChartGroup[]; caption?: string };
}

const ratio = (a: number, b: number) => (b > 0 ? `${(a / b).toFixed(1)}×` : '∞×');

export const CHART_SPECS: readonly ChartSpec[] = [
  {
    id: 'load',
    experiment: 'load',
    title: "Part 1's headline: the main load's JSON and the Parquet it became",
    series: ['JSON sent', 'Parquet written'],
    needs: ['jsonBytes', 'parquetBytes'],
    draw: (m) => ({
      groups: [
        {
          label: 'the main load',
          unit: 'bytes',
          bars: [
            { label: 'JSON sent to Firehose', series: 'JSON sent', value: m.jsonBytes as number },
            { label: 'Parquet in the table', series: 'Parquet written', value: m.parquetBytes as number },
          ],
        },
      ],
      caption:
        `${formatBytes(m.jsonBytes as number)} of JSON became ${formatBytes(m.parquetBytes as number)} of Parquet, ` +
        `${ratio(m.jsonBytes as number, m.parquetBytes as number)} smaller (the article: 15.1 MiB → ~1 MB).`,
    }),
  },
  {
    id: 'compaction',
    experiment: 'compaction',
    title: "Files before and after compaction (the flow table's live files)",
    series: ['before', 'after'],
    needs: ['dataFilesBefore', 'dataFilesAfter', 'deleteFilesBefore', 'deleteFilesAfter'],
    draw: (m) => ({
      groups: [
        {
          label: 'data files',
          unit: 'files',
          bars: [
            { label: 'before', series: 'before', value: m.dataFilesBefore as number },
            { label: 'after', series: 'after', value: m.dataFilesAfter as number },
          ],
        },
        {
          label: 'delete files',
          unit: 'files',
          bars: [
            { label: 'before', series: 'before', value: m.deleteFilesBefore as number },
            { label: 'after', series: 'after', value: m.deleteFilesAfter as number },
          ],
        },
      ],
      caption:
        `${formatCount(m.dataFilesBefore as number)} data and ${formatCount(m.deleteFilesBefore as number)} delete files before, ` +
        `${formatCount(m.dataFilesAfter as number)} and ${formatCount(m.deleteFilesAfter as number)} after.`,
    }),
  },
  {
    id: 'undo-window',
    experiment: 'undo-window',
    title: 'Snapshots and bytes before and after the undo window closed',
    series: ['before', 'after'],
    needs: ['snapshotsBefore', 'snapshotsAfter', 'storedBytesBefore', 'storedBytesAfter'],
    absentBecause: (m) =>
      m.snapshotsAfter === undefined
        ? 'on AWS the lab does not close the window: snapshot management runs on S3 Tables’ own schedule'
        : undefined,
    draw: (m) => ({
      groups: [
        {
          label: 'snapshots',
          unit: 'snapshots',
          bars: [
            { label: 'before', series: 'before', value: m.snapshotsBefore as number },
            { label: 'after', series: 'after', value: m.snapshotsAfter as number },
          ],
        },
        {
          label: 'bytes held (after: the kept snapshot’s files)',
          unit: 'bytes',
          bars: [
            { label: 'before', series: 'before', value: m.storedBytesBefore as number },
            { label: 'after', series: 'after', value: m.storedBytesAfter as number },
          ],
        },
      ],
      caption:
        `${formatCount(m.snapshotsBefore as number)} snapshots → ${formatCount(m.snapshotsAfter as number)}; ` +
        `${formatBytes((m.storedBytesBefore as number) - (m.storedBytesAfter as number))} freed: the files, manifests ` +
        'and manifest lists only the expired snapshots reached.',
    }),
  },
  {
    id: 'one-hour',
    experiment: 'one-hour',
    title: 'The one-hour question: bytes read, both tables',
    series: ['unpartitioned', 'partitioned'],
    needs: ['unpartitionedBytes', 'partitionedBytes'],
    draw: (m, raw) => ({
      groups: [
        {
          label: `the hour ${String(raw.hourStart ?? '').slice(0, 16)}`,
          unit: 'bytes',
          bars: [
            {
              label: 'network.vpc_flow_logs',
              series: 'unpartitioned',
              value: m.unpartitionedBytes as number,
            },
            {
              label: 'enriched (by hour)',
              series: 'partitioned',
              value: m.partitionedBytes as number,
            },
          ],
        },
      ],
      caption: `Same answer, ${ratio(m.unpartitionedBytes as number, m.partitionedBytes as number)} less read on the partitioned table (the article: 5.5×).`,
    }),
  },
  {
    id: 'sort-order',
    experiment: 'sort-order',
    title: 'A declared sort order: stored bytes and the one-hour read, before and after sorted compaction',
    series: ['before', 'after'],
    needs: ['storedBytesBefore', 'storedBytesAfter', 'oneHourBytesBefore', 'oneHourBytesAfter'],
    absentBecause: (m) =>
      m.storedBytesAfter === undefined
        ? 'on AWS S3 Tables compacts on its own schedule, so there is no "after" to measure in this run'
        : undefined,
    draw: (m) => ({
      groups: [
        {
          label: 'stored',
          unit: 'bytes',
          bars: [
            { label: 'before', series: 'before', value: m.storedBytesBefore as number },
            { label: 'after', series: 'after', value: m.storedBytesAfter as number },
          ],
        },
        {
          label: 'one hour read',
          unit: 'bytes',
          bars: [
            { label: 'before', series: 'before', value: m.oneHourBytesBefore as number },
            { label: 'after', series: 'after', value: m.oneHourBytesAfter as number },
          ],
        },
      ],
    }),
  },
  {
    id: 'daily-snapshot',
    experiment: 'daily-snapshot',
    title: "The analysts' query: the daily snapshot vs the full history",
    series: ['full history', 'daily snapshot'],
    needs: ['historyBytes', 'snapshotBytes'],
    absentBecause: (m) =>
      typeof m.skipped === 'string' ? `the experiment was skipped: ${m.skipped}` : undefined,
    draw: (m, raw) => ({
      groups: [
        {
          label: `the day ${String(raw.watermark ?? '')}`,
          unit: 'bytes',
          bars: [
            { label: 'network.vpc_flow_logs', series: 'full history', value: m.historyBytes as number },
            { label: 'the daily snapshot', series: 'daily snapshot', value: m.snapshotBytes as number },
          ],
        },
      ],
      caption: `Same answer, ${ratio(m.historyBytes as number, m.snapshotBytes as number)} less read on the snapshot.`,
    }),
  },
];

const numeric = (v: number | string | undefined): number | undefined => {
  if (v === undefined || v === '') return undefined;
  const n = typeof v === 'number' ? v : Number(v);
  return Number.isFinite(n) ? n : undefined;
};

/** Why a spec cannot be drawn from this run, or its figures as numbers. */
function figuresFor(spec: ChartSpec, experiments: readonly ExperimentReport[]) {
  const e = experiments.find((x) => x.name === spec.experiment);
  if (!e) return { missing: `${spec.experiment} did not run in this report` };
  if (e.error) return { missing: `${spec.experiment} failed (${e.error.slice(0, 160)})` };
  const absent = spec.absentBecause?.(e.measures);
  if (absent) return { missing: absent };
  const values: Record<string, number> = {};
  const lacking: string[] = [];
  for (const key of spec.needs) {
    const n = numeric(e.measures[key]);
    if (n === undefined) lacking.push(key);
    else values[key] = n;
  }
  if (lacking.length > 0)
    return { missing: `${spec.experiment} recorded no ${lacking.join(', ')} in this run` };
  return { values, raw: e.measures };
}

/** Every picture, drawn from the experiments' measures, or saying why it cannot be. */
export function labCharts(experiments: readonly ExperimentReport[]): LabChart[] {
  return CHART_SPECS.map((spec) => {
    const base = { id: spec.id, title: spec.title, experiment: spec.experiment, series: spec.series };
    const figures = figuresFor(spec, experiments);
    if ('missing' in figures) return { ...base, groups: [], missing: figures.missing };
    const { groups, caption } = spec.draw(figures.values, figures.raw);
    return { ...base, groups, ...(caption ? { caption } : {}) };
  });
}
