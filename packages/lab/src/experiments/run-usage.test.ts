// What a run used, from the tables' Iceberg metadata and the experiments' timings: each rule with known figures.
import { describe, expect, test } from '@jest/globals';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ListObjectsV2Command, NoSuchBucket, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import type { TableMetadata } from 'iceberg-js';
import type { TimelineEvent } from '../report/lab-report';
import {
  attributeCommits,
  bucketUse,
  commitsSince,
  commitUse,
  compactionUse,
  mergeTimelines,
  metricHoursSent,
  tableStorage,
  timelineOf,
  type LabTable,
} from './run-usage';

const snapshot = (id: number, ms: number, operation: string, summary: Record<string, string>) => ({
  'snapshot-id': id,
  'timestamp-ms': ms,
  'manifest-list': `m${id}.avro`,
  summary: { operation, ...summary },
});

const metadata = (location: string, snapshots: ReturnType<typeof snapshot>[]) =>
  ({
    location,
    snapshots,
    'current-snapshot-id': snapshots[snapshots.length - 1]?.['snapshot-id'],
  }) as unknown as TableMetadata;

const T0 = Date.parse('2026-12-01T10:00:00.000Z');
const flows: LabTable = {
  name: 'network.vpc_flow_logs',
  metadata: metadata('s3://bucket/flows', [
    snapshot(1, T0, 'append', { 'added-records': '10', 'added-data-files': '1', 'added-files-size': '900' }),
    snapshot(2, T0 + 5000, 'delete', { 'added-delete-files': '3', 'added-files-size': '300' }),
    snapshot(3, T0 + 9000, 'replace', {
      'added-data-files': '1',
      'deleted-data-files': '10',
      'removed-delete-files': '3',
      'removed-files-size': '5000',
      'total-data-files': '1',
      'total-delete-files': '0',
      'total-files-size': '4000',
    }),
  ]),
};

describe("a run's usage", () => {
  test('the timeline: every commit with what it added and removed, oldest first', () => {
    const events = timelineOf([flows]);
    expect(
      events.map((e) => [e.snapshotId, e.operation, e.addedFiles, e.removedFiles, e.removedBytes]),
    ).toEqual([
      ['1', 'append', 1, 0, 0],
      ['2', 'delete', 3, 0, 0],
      ['3', 'replace', 1, 13, 5000],
    ]);
    expect(events[0]).toMatchObject({
      committedAt: '2026-12-01T10:00:00.000Z',
      addedRecords: 10,
      addedBytes: 900,
    });
  });

  test('commits read before the undo window and gone at the end are kept, marked expired', () => {
    const early = timelineOf([flows]);
    const late = early.slice(2);
    const merged = mergeTimelines(early, late);
    expect(merged.map((e) => [e.snapshotId, e.expired ?? false])).toEqual([
      ['1', true],
      ['2', true],
      ['3', false],
    ]);
    expect(mergeTimelines(early, early).some((e) => e.expired)).toBe(false);
  });

  test('each commit is named with the experiment running when it was made', () => {
    const events = attributeCommits(timelineOf([flows]), [
      { name: 'load', startedAt: new Date(T0 - 100).toISOString(), durationMs: 200 },
      { name: 'delete', startedAt: new Date(T0 + 4000).toISOString(), durationMs: 2000 },
      { name: 'sort-order', startedAt: new Date(T0 + 8000).toISOString(), durationMs: 1500 },
    ]);
    expect(events.map((e) => e.experiment)).toEqual(['load', 'delete', 'sort-order']);
    // Outside every experiment's span: no name.
    expect(attributeCommits(timelineOf([flows]), [])[0]?.experiment).toBeUndefined();
  });

  test('PUTs: the files each non-compaction commit added and three metadata files; compactions by strategy', () => {
    const events = timelineOf([flows]);
    expect(commitUse(events)).toEqual({ commits: 2, objectsWritten: 1 + 3 + (3 + 3) });
    const byExperiment = (name: string): TimelineEvent[] => events.map((e) => ({ ...e, experiment: name }));
    expect(compactionUse(byExperiment('compaction'))).toEqual([
      { strategy: 'binpack', commits: 1, objects: 13, bytes: 5000 },
    ]);
    expect(compactionUse(byExperiment('sort-order'))).toEqual([
      { strategy: 'sort', commits: 1, objects: 13, bytes: 5000 },
    ]);
  });

  test("this run's commits: those at or after its start, not an earlier run's kept in the history (B3)", () => {
    const events = timelineOf([flows]);
    expect(commitsSince(events, new Date(T0 + 5000)).map((e) => e.snapshotId)).toEqual(['2', '3']);
    expect(commitUse(commitsSince(events, new Date(T0 + 1)))).toEqual({ commits: 1, objectsWritten: 3 + 3 });
    expect(commitsSince(events, new Date(T0 + 10_000))).toEqual([]);
  });

  test('metric-hours: each metric counted once in each clock hour an execution that sent it ran (B4)', () => {
    const run = (metrics: string[], startedAt: string, finishedAt: string) => ({
      metrics,
      startedAt,
      finishedAt,
    });
    // Two metrics in one hour: 2.
    expect(metricHoursSent([run(['a', 'b'], '2026-12-01T10:10:00Z', '2026-12-01T10:12:00Z')])).toBe(2);
    // A second execution in the same hour sends them again: still 2; one across 10:59–11:01 adds hour 11.
    expect(
      metricHoursSent([
        run(['a', 'b'], '2026-12-01T10:10:00Z', '2026-12-01T10:12:00Z'),
        run(['a', 'b'], '2026-12-01T10:59:00Z', '2026-12-01T11:01:00Z'),
      ]),
    ).toBe(4);
    expect(metricHoursSent([run([], '2026-12-01T10:10:00Z', '2026-12-01T10:12:00Z')])).toBe(0);
  });

  test('storage: locally every object in the table folder; on AWS counted from Iceberg metadata', () => {
    const dir = mkdtempSync(join(tmpdir(), 'usage-'));
    try {
      mkdirSync(join(dir, 'data'));
      mkdirSync(join(dir, 'metadata'));
      writeFileSync(join(dir, 'data', 'a.parquet'), Buffer.alloc(1000));
      writeFileSync(join(dir, 'metadata', 'v1.metadata.json'), Buffer.alloc(24));
      const local: LabTable = { name: 'x.y', metadata: metadata(pathToFileURL(dir).href, []) };
      expect(tableStorage([local])).toEqual({
        objects: 2,
        bytes: 1024,
        source: 'every object in the table folders',
      });
      writeFileSync(join(dir, 'data', 'b.parquet'), Buffer.alloc(1));
      expect(tableStorage([local])).toMatchObject({ objects: 3, bytes: 1025 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    // 1 data file of the current snapshot + 2 metadata files for each of 3 snapshots + the metadata.json.
    expect(tableStorage([flows])).toEqual({
      objects: 1 + 3 * 2 + 1,
      bytes: 4000,
      source: "counted from Iceberg's metadata: the current files, and the metadata of every kept snapshot",
    });
  });
});

describe('the general purpose buckets', () => {
  const s3 = new S3Client({ region: 'us-east-1' });
  const mock = mockClient(s3);

  const start = new Date('2026-12-01T10:00:00.500Z');
  const earlier = new Date('2026-12-01T09:00:00Z');
  // AWS lists LastModified to the second: 10:00:00 reads as before a start at 10:00:00.500, so it is not counted.
  const firstSecond = new Date('2026-12-01T10:00:00Z');

  test("objects and bytes over every page, and this run's writes (modified since its start); a bucket never created holds nothing", async () => {
    mock.reset();
    mock
      .on(ListObjectsV2Command, { Bucket: 'b', ContinuationToken: undefined })
      .resolves({
        Contents: [
          { Size: 10, LastModified: earlier },
          { Size: 5, LastModified: firstSecond },
        ],
        NextContinuationToken: 't',
      })
      .on(ListObjectsV2Command, { Bucket: 'b', ContinuationToken: 't' })
      .resolves({ Contents: [{ Size: 1, LastModified: new Date('2026-12-01T10:05:00Z') }] });
    expect(await bucketUse({ s3 }, 'b', 'snapshots', start)).toEqual({
      role: 'snapshots',
      objects: 3,
      bytes: 16,
      written: 1,
    });
    mock.reset();
    mock.on(ListObjectsV2Command).rejects(new NoSuchBucket({ message: 'no', $metadata: {} }));
    expect(await bucketUse({ s3 }, 'gone', 'snapshots', start)).toEqual({
      role: 'snapshots',
      objects: 0,
      bytes: 0,
      written: 0,
    });
  });

  test('any other error is not taken for an empty bucket', async () => {
    mock.reset();
    const denied = new S3ServiceException({
      name: 'AccessDenied',
      $fault: 'client',
      $metadata: {},
      message: 'no',
    });
    mock.on(ListObjectsV2Command).rejects(denied);
    await expect(bucketUse({ s3 }, 'b', 'snapshots', new Date())).rejects.toBe(denied);
  });
});
