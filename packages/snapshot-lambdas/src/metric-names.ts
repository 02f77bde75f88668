// Names of the snapshot metrics and their dimension: what the handlers emit and what the stack's alarms select.
// Kept apart from ./metrics (which loads Powertools) so a synth can read them without loading runtime code.
export const METRICS_NAMESPACE = 'loglake/snapshots';
export const METRICS_SERVICE = 'snapshots';
export const DIMENSION_SNAPSHOT = 'Snapshot';

export const METRIC = {
  rows: 'SnapshotRows',
  bytesScanned: 'SnapshotBytesScanned',
  duration: 'SnapshotBuildDuration',
  /** Seconds from the end of the published watermark day to now: emitted by every run, so it grows while the
   * pipeline fails, and goes missing when the pipeline does not run at all (the alarm treats missing as bad). */
  watermarkLag: 'WatermarkLagSeconds',
} as const;
