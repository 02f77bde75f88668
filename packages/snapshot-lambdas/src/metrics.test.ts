import { describe, test, expect } from '@jest/globals';
import { capturingSink, watermarkLagSeconds } from './metrics';

describe('snapshot metrics (EMF)', () => {
  test('documents carry the namespace, the dimensions the staleness alarm selects, and the metric units', () => {
    const docs: unknown[] = [];
    capturingSink((emf) => docs.push(emf)).publish('daily', {
      rows: 42,
      bytesScanned: 1000,
      durationMs: 5,
      watermarkLagSeconds: 60,
    });
    const doc = docs[0] as {
      _aws: {
        CloudWatchMetrics: {
          Namespace: string;
          Dimensions: string[][];
          Metrics: { Name: string; Unit: string }[];
        }[];
      };
    } & Record<string, unknown>;
    const directive = doc._aws.CloudWatchMetrics[0]!;
    expect(directive.Namespace).toBe('loglake/snapshots');
    expect(directive.Dimensions[0]!.sort()).toEqual(['Snapshot', 'service']);
    expect(directive.Metrics).toEqual(
      expect.arrayContaining([
        { Name: 'SnapshotRows', Unit: 'Count' },
        { Name: 'SnapshotBytesScanned', Unit: 'Bytes' },
        { Name: 'WatermarkLagSeconds', Unit: 'Seconds' },
      ]),
    );
    expect(doc).toMatchObject({
      Snapshot: 'daily',
      service: 'snapshots',
      SnapshotRows: 42,
      WatermarkLagSeconds: 60,
    });
  });

  test('watermark lag counts from the end of the watermark day', () => {
    expect(watermarkLagSeconds('2026-11-27', new Date('2026-11-28T06:00:00Z'))).toBe(6 * 3600);
  });
});
