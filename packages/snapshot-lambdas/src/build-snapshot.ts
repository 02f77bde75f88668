// The CTAS step: build the snapshot of one complete day under a new, unique prefix, check it, then publish it
// by moving the Glue table's location in one compare-and-swap UpdateTable (dbt-athena's "ha" table swap is
// the prior art). Readers resolve the table either before or after that call, so they see the previous run or
// the new one in full, never a half-written one. Re-running for the published watermark changes nothing.
import { randomBytes } from 'node:crypto';
import type { AthenaClient } from '@aws-sdk/client-athena';
import type { GlueClient } from '@aws-sdk/client-glue';
import type { S3Client } from '@aws-sdk/client-s3';
import { rowObjects, runQuery, type QueryResult } from '@loglake/athena-sql';
import { findDefinition } from './definitions';
import { ENV_NAMES, LAMBDA_POLLING, type HandlerConfig } from './env';
import { EmptySnapshotError } from './errors';
import { dropStagingTable, publishRun, readPublishedState } from './glue-table';
import { type MetricsSink, watermarkLagSeconds } from './metrics';
import { isoDate, runId as checkRunId } from './params';
import { deleteRun, listRuns, runsToDelete } from './retention';
import { renderBuildSnapshot, renderCountRows } from './sql';

export interface BuildSnapshotInput {
  snapshot: string;
  watermark: string;
}

export interface BuildSnapshotOutput {
  snapshot: string;
  watermark: string;
  /** false when this watermark was already published (idempotent re-run): nothing was written or moved. */
  published: boolean;
  location: string;
  previousLocation: string | null;
  run: string | null;
  rows: number;
  bytesScanned: number;
  durationMs: number;
  deletedRuns: string[];
}

export interface BuildSnapshotDeps {
  athena: AthenaClient;
  glue: GlueClient;
  s3: S3Client;
  config: HandlerConfig;
  metrics: MetricsSink;
  now: () => Date;
  /** Unique part of the run id; random by default. */
  nonce?: () => string;
}

/** Removes what a failed attempt wrote (staging entry, partial or complete run files) so a retry starts clean —
 * unless the table points at this run after all (a publish whose reply was lost): then it stays, and the retry
 * finds the watermark published and changes nothing. Best effort: the original error is what matters. */
async function discardUnpublishedRun(
  deps: BuildSnapshotDeps,
  run: { stagingTable: string; prefix: string; location: string },
): Promise<void> {
  const { config } = deps;
  try {
    await dropStagingTable(deps.glue, config.snapshotDatabase, run.stagingTable);
    const name = run.prefix.split('/')[0] as string;
    const live = await readPublishedState(deps.glue, config.snapshotDatabase, name);
    if (live.location !== run.location) await deleteRun(deps.s3, config.snapshotBucket, run.prefix);
  } catch {
    // Leftovers are pruned by the next successful run's retention and the bucket's lifecycle expiry.
  }
}

/** `20261129t061502z-3f9a1c`: sortable by build time, unique by nonce, valid in S3 keys and Glue names. */
export function makeRunId(builtAt: Date, nonce: string): string {
  const stamp = builtAt
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'z')
    .toLowerCase();
  return checkRunId(`${stamp}-${nonce}`);
}

export async function buildSnapshot(
  deps: BuildSnapshotDeps,
  input: BuildSnapshotInput,
): Promise<BuildSnapshotOutput> {
  const started = Date.now();
  const { config } = deps;
  const definition = findDefinition(config.definitions, input.snapshot);
  const watermark = isoDate(input.watermark, 'watermark');
  const current = await readPublishedState(deps.glue, config.snapshotDatabase, definition.name);
  const now = deps.now();

  if (current.watermark === watermark) {
    deps.metrics.publish(definition.name, { watermarkLagSeconds: watermarkLagSeconds(watermark, now) });
    return {
      snapshot: definition.name,
      watermark,
      published: false,
      location: current.location ?? '',
      previousLocation: current.location,
      run: current.run,
      rows: 0,
      bytesScanned: 0,
      durationMs: Date.now() - started,
      deletedRuns: [],
    };
  }

  const run = makeRunId(now, deps.nonce?.() ?? randomBytes(3).toString('hex'));
  const prefix = `${definition.name}/run=${watermark}-${run}/`;
  const location = `s3://${config.snapshotBucket}/${prefix}`;
  const stagingTable = `${definition.name}__run_${run.replace(/-/g, '_')}`;
  const target = {
    client: deps.athena,
    workgroup: config.workgroup,
    catalog: 'AwsDataCatalog',
    database: config.snapshotDatabase,
  };
  const queryOptions = {
    ...LAMBDA_POLLING,
    timeoutMs: config.queryTimeoutMs,
    timeoutSetting: ENV_NAMES.queryTimeoutSeconds,
  };

  let ctas: QueryResult;
  let counted: QueryResult;
  let rows: number;
  try {
    ctas = await runQuery(
      target,
      renderBuildSnapshot({
        tableBucket: config.sourceTableBucket,
        definition,
        database: config.snapshotDatabase,
        stagingTable,
        location,
        watermark,
        builtAt: now,
      }),
      { ...queryOptions, purpose: `CTAS (${definition.name} ${watermark})` },
    );
    counted = await runQuery(
      target,
      renderCountRows({ database: config.snapshotDatabase, table: stagingTable }),
      { ...queryOptions, purpose: `row count (${definition.name} ${watermark})` },
    );
    rows = Number(rowObjects(counted)[0]?.row_count ?? 0);
    if (rows === 0) {
      throw new EmptySnapshotError(
        `The snapshot of ${definition.name} for ${watermark} has no rows, so it was not published (the previous snapshot stays). Check the definition's filters and the source for that day.`,
        { value: { snapshot: definition.name, watermark, location, filters: definition.filters } },
      );
    }
    await publishRun(deps.glue, {
      database: config.snapshotDatabase,
      current,
      location,
      watermark,
      run,
      rows,
      publishedAt: new Date(),
    });
  } catch (error) {
    await discardUnpublishedRun(deps, { stagingTable, prefix, location });
    throw error;
  }
  await dropStagingTable(deps.glue, config.snapshotDatabase, stagingTable);

  const doomed = runsToDelete(
    await listRuns(deps.s3, config.snapshotBucket, definition.name),
    prefix,
    definition.runsToKeep,
  );
  for (const old of doomed) await deleteRun(deps.s3, config.snapshotBucket, old.prefix);

  const bytesScanned = ctas.dataScannedInBytes + counted.dataScannedInBytes;
  const durationMs = Date.now() - started;
  deps.metrics.publish(definition.name, {
    rows,
    bytesScanned,
    durationMs,
    watermarkLagSeconds: watermarkLagSeconds(watermark, deps.now()),
  });
  return {
    snapshot: definition.name,
    watermark,
    published: true,
    location,
    previousLocation: current.location,
    run,
    rows,
    bytesScanned,
    durationMs,
    deletedRuns: doomed.map((d) => `s3://${config.snapshotBucket}/${d.prefix}`),
  };
}
