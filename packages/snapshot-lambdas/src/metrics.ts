// Snapshot metrics as CloudWatch Embedded Metric Format through Powertools. The names and dimensions here are
// also what the stack's alarms select, so they are exported constants rather than strings at call sites.
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { DIMENSION_SNAPSHOT, METRIC, METRICS_NAMESPACE, METRICS_SERVICE } from './metric-names';

export { DIMENSION_SNAPSHOT, METRIC, METRICS_NAMESPACE, METRICS_SERVICE };

export interface SnapshotMetricValues {
  rows?: number;
  bytesScanned?: number;
  durationMs?: number;
  watermarkLagSeconds?: number;
}

export interface MetricsSink {
  publish(snapshot: string, values: SnapshotMetricValues): void;
}

export function createMetrics(): Metrics {
  return new Metrics({ namespace: METRICS_NAMESPACE, serviceName: METRICS_SERVICE });
}

function addSnapshotMetrics(metrics: Metrics, snapshot: string, values: SnapshotMetricValues): void {
  metrics.addDimension(DIMENSION_SNAPSHOT, snapshot);
  if (values.rows !== undefined) metrics.addMetric(METRIC.rows, MetricUnit.Count, values.rows);
  if (values.bytesScanned !== undefined)
    metrics.addMetric(METRIC.bytesScanned, MetricUnit.Bytes, values.bytesScanned);
  if (values.durationMs !== undefined)
    metrics.addMetric(METRIC.duration, MetricUnit.Milliseconds, values.durationMs);
  if (values.watermarkLagSeconds !== undefined) {
    metrics.addMetric(METRIC.watermarkLag, MetricUnit.Seconds, values.watermarkLagSeconds);
  }
}

/** Sink writing one EMF document per call to stdout, where Lambda's log pipeline turns it into metrics. */
export function powertoolsSink(metrics: Metrics): MetricsSink {
  return {
    publish(snapshot, values) {
      addSnapshotMetrics(metrics, snapshot, values);
      metrics.publishStoredMetrics();
    },
  };
}

/** Seconds between the end of a watermark day (next midnight UTC) and `now`. */
export function watermarkLagSeconds(watermark: string, now: Date): number {
  const end = Date.parse(`${watermark}T00:00:00Z`) + 86_400_000;
  return Math.max(0, Math.round((now.getTime() - end) / 1000));
}

/** Offline sink: builds the same EMF documents through Powertools but hands them over instead of printing. */
export function capturingSink(
  onDocument: (emf: unknown, snapshot: string, values: SnapshotMetricValues) => void,
): MetricsSink {
  const metrics = createMetrics();
  return {
    publish(snapshot, values) {
      addSnapshotMetrics(metrics, snapshot, values);
      onDocument(metrics.serializeMetrics(), snapshot, values);
      metrics.clearMetrics();
      metrics.clearDimensions();
    },
  };
}
