// The offline snapshot run behind `pnpm lab snapshot`: the real state machine on aws-local-stepfunctions, both
// handlers in-process against the local endpoint, the SNS publish and the EMF metrics captured for printing.
// Also the analysts' query on the snapshot vs on the source (same answer, bytes scanned side by side).
import { GetTableCommand } from '@aws-sdk/client-glue';
import { rowObjects, runQuery } from '@loglake/athena-sql';
import { findDefinition, type SnapshotDefinition } from './definitions';
import { ENV_NAMES, type HandlerConfig } from './env';
import { PARAM_RUN, PARAM_WATERMARK } from './glue-table';
import { localHandlers, type LocalClients } from './local-lab';
import { runStateMachineLocally, type LocalRunResult } from './local-run';
import { capturingSink, type SnapshotMetricValues } from './metrics';
import { renderAnalystsQuery, sourceReference, tableReference } from './sql';
import { EXAMPLE_ARNS, snapshotStateMachine, validateStateMachine } from './state-machine';

export interface PublishedSnapshot {
  location: string | null;
  watermark: string | null;
  run: string | null;
  versionId: string | null;
}

export interface OfflineRun {
  execution: LocalRunResult;
  metrics: { snapshot: string; values: SnapshotMetricValues; emf: unknown }[];
  before: PublishedSnapshot;
  after: PublishedSnapshot;
}

export async function publishedSnapshot(
  clients: LocalClients,
  config: HandlerConfig,
  name: string,
): Promise<PublishedSnapshot> {
  const table = (
    await clients.glue.send(new GetTableCommand({ DatabaseName: config.snapshotDatabase, Name: name }))
  ).Table;
  return {
    location: table?.StorageDescriptor?.Location ?? null,
    watermark: table?.Parameters?.[PARAM_WATERMARK] ?? null,
    run: table?.Parameters?.[PARAM_RUN] ?? null,
    versionId: table?.VersionId ?? null,
  };
}

/** The clients each handler runs with, when they run as their own roles (the endpoint enforces authorization). */
export interface HandlerClients {
  readonly resolveWatermark: LocalClients;
  readonly buildSnapshot: LocalClients;
}

export async function runSnapshotOffline(
  clients: LocalClients,
  config: HandlerConfig,
  input: { snapshot: string; date?: string },
  now?: () => Date,
  handlerClients?: HandlerClients,
): Promise<OfflineRun> {
  const definition = snapshotStateMachine(EXAMPLE_ARNS);
  validateStateMachine(definition);
  const metrics: OfflineRun['metrics'] = [];
  const sink = capturingSink((emf, snapshot, values) => metrics.push({ snapshot, values, emf }));
  const before = await publishedSnapshot(clients, config, input.snapshot);
  const options = { metrics: sink, now };
  const handlers = handlerClients
    ? {
        resolveWatermark: localHandlers(handlerClients.resolveWatermark, config, options).resolveWatermark,
        buildSnapshot: localHandlers(handlerClients.buildSnapshot, config, options).buildSnapshot,
      }
    : localHandlers(clients, config, options);
  const execution = await runStateMachineLocally(
    definition,
    handlers,
    input.date ? { snapshot: input.snapshot, date: input.date } : { snapshot: input.snapshot },
  );
  return { execution, metrics, before, after: await publishedSnapshot(clients, config, input.snapshot) };
}

export interface QuerySide {
  sql: string;
  rows: (string | null)[][];
  bytesScanned: number;
}

export interface AnalystsComparison {
  day: string;
  snapshot: QuerySide;
  source: QuerySide;
  sameAnswer: boolean;
  /** source bytes ÷ snapshot bytes. */
  ratio: number;
}

/** The analysts' question for one day, asked of the snapshot table and of the full source table. */
export async function compareAnalystsQuery(
  clients: LocalClients,
  config: HandlerConfig,
  def: SnapshotDefinition,
  day: string,
): Promise<AnalystsComparison> {
  const run = async (sql: string): Promise<QuerySide> => {
    const out = await runQuery({ client: clients.athena, workgroup: config.workgroup }, sql, {
      timeoutMs: config.queryTimeoutMs,
      timeoutSetting: ENV_NAMES.queryTimeoutSeconds,
      initialPollMs: 20,
      maxPollMs: 200,
      purpose: 'analysts query',
    });
    return { sql, rows: out.rows, bytesScanned: out.dataScannedInBytes };
  };
  const snapshot = await run(
    renderAnalystsQuery({
      table: tableReference(config.snapshotDatabase, def.name),
      timeColumn: def.source.timeColumn,
    }),
  );
  const source = await run(
    renderAnalystsQuery({
      table: sourceReference(config.sourceTableBucket, def),
      timeColumn: def.source.timeColumn,
      day,
    }),
  );
  return {
    day,
    snapshot,
    source,
    sameAnswer: JSON.stringify(snapshot.rows) === JSON.stringify(source.rows),
    ratio: snapshot.bytesScanned > 0 ? source.bytesScanned / snapshot.bytesScanned : Number.POSITIVE_INFINITY,
  };
}

/** Rows of a table per snapshot watermark, for printing what a reader sees. */
export async function snapshotContents(clients: LocalClients, config: HandlerConfig, name: string) {
  const def = findDefinition(config.definitions, name);
  const out = await runQuery(
    { client: clients.athena, workgroup: config.workgroup },
    `SELECT CAST(snapshot_watermark AS varchar) AS watermark, count(*) AS row_count FROM ${tableReference(config.snapshotDatabase, def.name)} GROUP BY 1 ORDER BY 1`,
    {
      timeoutMs: config.queryTimeoutMs,
      timeoutSetting: ENV_NAMES.queryTimeoutSeconds,
      initialPollMs: 20,
      maxPollMs: 200,
      purpose: 'snapshot contents',
    },
  );
  return rowObjects(out);
}
