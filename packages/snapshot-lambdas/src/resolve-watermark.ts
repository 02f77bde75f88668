// The pre-processor's job: find the newest COMPLETE day of the source (see completeness.ts for the rule) newer
// than the published watermark, from the data. Reads the published watermark from the snapshot's Glue table
// parameters (written atomically with the location by the publish step), asks Athena for records per hour
// since the scan window start, and decides. Fails with NoCompleteDayError + evidence when nothing is ready.
import type { AthenaClient } from '@aws-sdk/client-athena';
import type { GlueClient } from '@aws-sdk/client-glue';
import { rowObjects, runQuery } from '@loglake/athena-sql';
import { decideWatermark, type HourCount, type WatermarkEvidence } from './completeness';
import { findDefinition } from './definitions';
import { ENV_NAMES, LAMBDA_POLLING, type HandlerConfig } from './env';
import { NoCompleteDayError, SnapshotError } from './errors';
import { readPublishedState } from './glue-table';
import type { MetricsSink } from './metrics';
import { watermarkLagSeconds } from './metrics';
import { isoDate } from './params';
import { renderHoursPresent } from './sql';

/** What the state machine passes in: the snapshot to build and, optionally, the day asked for. */
export interface ResolveWatermarkInput {
  snapshot: string;
  date?: string | null;
}

export interface ResolveWatermarkOutput {
  snapshot: string;
  watermark: string;
  alreadyPublished: boolean;
  lastPublished: string | null;
  evidence: WatermarkEvidence;
  bytesScanned: number;
}

export interface ResolveWatermarkDeps {
  athena: AthenaClient;
  glue: GlueClient;
  config: HandlerConfig;
  metrics: MetricsSink;
  now: () => Date;
}

const DAY_MS = 86_400_000;

/** Parses Athena's timestamp text ("2026-11-28 23:59:59.123", no zone = UTC) and ISO strings. */
export function parseAthenaTimestamp(text: string): Date {
  const iso = text.includes('T') ? text : text.replace(' ', 'T');
  const withZone = /([zZ]|[+-]\d{2}:?\d{2})$/.test(iso) ? iso : `${iso}Z`;
  const parsed = new Date(withZone.replace(' UTC', 'Z'));
  if (Number.isNaN(parsed.getTime())) {
    throw new SnapshotError(`Athena returned a timestamp this code cannot read: ${JSON.stringify(text)}`, {
      value: { text },
    });
  }
  return parsed;
}

export async function resolveWatermark(
  deps: ResolveWatermarkDeps,
  input: ResolveWatermarkInput,
): Promise<ResolveWatermarkOutput> {
  const { config } = deps;
  const definition = findDefinition(config.definitions, input.snapshot);
  const requestedDay =
    input.date === undefined || input.date === null ? undefined : isoDate(input.date, 'date');
  const published = await readPublishedState(deps.glue, config.snapshotDatabase, definition.name);
  const now = deps.now();
  if (published.watermark !== null) {
    // Reported on every run, failed or not: the staleness alarm watches this, not the inbox.
    deps.metrics.publish(definition.name, {
      watermarkLagSeconds: watermarkLagSeconds(published.watermark, now),
    });
  }

  // The scan window only bounds cost; the day chosen comes from the data inside it.
  const windowStart = new Date(
    Math.floor(now.getTime() / DAY_MS) * DAY_MS - definition.lookbackDays * DAY_MS,
  );
  const afterPublished = published.watermark
    ? new Date(Date.parse(`${published.watermark}T00:00:00Z`) + DAY_MS)
    : null;
  let from = afterPublished && afterPublished > windowStart ? afterPublished : windowStart;
  if (requestedDay !== undefined) from = new Date(`${requestedDay}T00:00:00Z`);

  const sql = renderHoursPresent({ tableBucket: config.sourceTableBucket, definition, from });
  const outcome = await runQuery({ client: deps.athena, workgroup: config.workgroup }, sql, {
    ...LAMBDA_POLLING,
    timeoutMs: config.queryTimeoutMs,
    timeoutSetting: ENV_NAMES.queryTimeoutSeconds,
    purpose: `hours-present (${definition.name})`,
  });
  const hours: HourCount[] = rowObjects(outcome).map((row) => ({
    day: String(row.day).slice(0, 10),
    hour: Number(row.hour),
    records: Number(row.records),
    lastRecord: parseAthenaTimestamp(String(row.last_record)),
  }));
  try {
    const decision = decideWatermark({
      hours,
      scannedFrom: from,
      lastPublished: published.watermark,
      latenessGraceMinutes: definition.latenessGraceMinutes,
      minRecordsPerHour: definition.minRecordsPerHour,
      requestedDay,
    });
    return {
      snapshot: definition.name,
      watermark: decision.watermark,
      alreadyPublished: decision.alreadyPublished,
      lastPublished: published.watermark,
      evidence: decision.evidence,
      bytesScanned: outcome.dataScannedInBytes,
    };
  } catch (error) {
    if (error instanceof NoCompleteDayError) error.value.snapshot = definition.name;
    throw error;
  }
}
