// The pictures come from the experiments' measures; one whose figures are missing says why.
import { describe, expect, test } from '@jest/globals';
import { CHART_SPECS, labCharts } from './charts';
import type { ExperimentReport } from './lab-report';

const row = (
  name: string,
  measures: ExperimentReport['measures'],
  extra: Partial<ExperimentReport> = {},
) => ({
  name,
  title: name,
  part: 1 as const,
  article: '',
  result: '',
  measures,
  comparisons: [],
  checks: {},
  durationMs: 1,
  ...extra,
});

const full: ExperimentReport[] = [
  row('load', { jsonBytes: 14_543_421, parquetBytes: 1_210_912 }),
  row('compaction', { dataFilesBefore: 15, dataFilesAfter: 1, deleteFilesBefore: 3, deleteFilesAfter: 0 }),
  row('undo-window', {
    snapshotsBefore: 21,
    snapshotsAfter: 1,
    storedBytesBefore: 3_500_000,
    storedBytesAfter: 920_000,
  }),
  row('one-hour', {
    unpartitionedBytes: 359_997,
    partitionedBytes: 22_360,
    hourStart: '2026-12-01 13:00:00',
  }),
  row('sort-order', {
    storedBytesBefore: 1_130_885,
    storedBytesAfter: 919_368,
    oneHourBytesBefore: 359_997,
    oneHourBytesAfter: 324_908,
  }),
  row('daily-snapshot', { historyBytes: 52_200, snapshotBytes: 30_189, watermark: '2026-11-29' }),
];

describe('the pictures', () => {
  test('every picture is drawn from its measures: a bar for every figure, in its series', () => {
    const charts = labCharts(full);
    expect(charts.map((c) => c.id)).toEqual(CHART_SPECS.map((s) => s.id));
    for (const c of charts) {
      expect([c.id, c.missing]).toEqual([c.id, undefined]);
      const bars = c.groups.flatMap((g) => g.bars);
      expect(new Set(bars.map((b) => b.series))).toEqual(new Set(c.series));
    }
    const load = charts.find((c) => c.id === 'load');
    expect(load?.groups[0]?.bars.map((b) => b.value)).toEqual([14_543_421, 1_210_912]);
    expect(load?.caption).toBe(
      '13.9 MiB of JSON became 1.15 MiB of Parquet, 12.0× smaller (the article: 15.1 MiB → ~1 MB).',
    );
    const compaction = charts.find((c) => c.id === 'compaction');
    expect(compaction?.groups.map((g) => [g.label, g.unit, g.bars.map((b) => b.value)])).toEqual([
      ['data files', 'files', [15, 1]],
      ['delete files', 'files', [3, 0]],
    ]);
    expect(charts.find((c) => c.id === 'undo-window')?.groups.map((g) => g.unit)).toEqual([
      'snapshots',
      'bytes',
    ]);
  });

  test('the tag chart is gone: held and freed bytes are equal by its own check, a sentence says it', () => {
    expect(CHART_SPECS.map((s) => s.experiment)).not.toContain('tag-cleanup');
  });

  test.each<[string, ExperimentReport[], RegExp]>([
    [
      'an experiment that did not run',
      full.filter((e) => e.name !== 'load'),
      /^load did not run in this report$/,
    ],
    [
      'a failed experiment',
      full.map((e) => (e.name === 'load' ? { ...e, measures: {}, error: 'ExperimentFailedError: boom' } : e)),
      /^load failed \(ExperimentFailedError: boom\)$/,
    ],
    [
      'a figure the run did not record',
      full.map((e) => (e.name === 'load' ? { ...e, measures: { jsonBytes: 10 } } : e)),
      /^load recorded no parquetBytes in this run$/,
    ],
    [
      'a figure that is not a number',
      full.map((e) => (e.name === 'load' ? { ...e, measures: { jsonBytes: 10, parquetBytes: 'x' } } : e)),
      /^load recorded no parquetBytes in this run$/,
    ],
  ])('%s: the picture says why it is missing, and draws nothing', (_what, experiments, why) => {
    const load = labCharts(experiments).find((c) => c.id === 'load');
    expect(load?.groups).toEqual([]);
    expect(load?.missing).toMatch(why);
  });

  test('on AWS the undo window and the sorted compaction are not measured, and the pictures say so', () => {
    const aws = full.map((e) =>
      e.name === 'undo-window'
        ? { ...e, measures: { snapshots: 21 } }
        : e.name === 'sort-order'
          ? { ...e, measures: { storedBytesBefore: 1 } }
          : e,
    );
    const charts = labCharts(aws);
    expect(charts.find((c) => c.id === 'undo-window')?.missing).toMatch(
      /^on AWS the lab does not close the window/,
    );
    expect(charts.find((c) => c.id === 'sort-order')?.missing).toMatch(
      /^on AWS S3 Tables compacts on its own/,
    );
  });
});
