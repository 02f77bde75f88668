// The snapshots unit on the local endpoint: provisions what the table-bucket and snapshots stacks create on AWS
// (the snapshot workgroup, table bucket, namespace, the flow-log table, the snapshot bucket, the Glue database and one Glue
// table per snapshot), loads flow records per hour through Athena, and wires both handlers to SDK clients
// pointed at the endpoint. Used by `pnpm lab snapshot`, the pipeline tests and `pnpm bench snapshots`.
import { FLOW_LOG_V2_SCHEMA } from '@loglake/flowgen';
import {
  AthenaClient,
  CreateWorkGroupCommand,
  GetWorkGroupCommand,
  InvalidRequestException,
} from '@aws-sdk/client-athena';
import {
  GlueClient,
  CreateDatabaseCommand,
  CreateTableCommand,
  EntityNotFoundException,
  GetDatabaseCommand,
  GetTableCommand,
} from '@aws-sdk/client-glue';
import { S3Client, CreateBucketCommand, HeadBucketCommand, NoSuchBucket, NotFound } from '@aws-sdk/client-s3';
import {
  S3TablesClient,
  ConflictException,
  CreateNamespaceCommand,
  CreateTableBucketCommand,
  CreateTableCommand as CreateS3TableCommand,
  ListTableBucketsCommand,
  GetTableCommand as GetS3TableCommand,
  NotFoundException,
} from '@aws-sdk/client-s3tables';
import { runQuery } from '@loglake/athena-sql';
import { buildSnapshot, type BuildSnapshotInput } from './build-snapshot';
import type { SnapshotDefinition } from './definitions';
import type { HandlerConfig } from './env';
import type { MetricsSink } from './metrics';
import { resolveWatermark, type ResolveWatermarkInput } from './resolve-watermark';
import { quoteIdentifier, sourceReference, timestampLiteral } from './sql';
import { snapshotTableShape } from './table-shape';
import { snapshotWorkGroupShape } from './workgroup-shape';

export interface LocalClients {
  athena: AthenaClient;
  glue: GlueClient;
  s3: S3Client;
  s3tables: S3TablesClient;
  destroy(): void;
}

/** Clients of the local endpoint; `credentials` say who they are when it enforces authorization (any will do else). */
export function localSnapshotClients(
  endpoint: string,
  credentials: { accessKeyId: string; secretAccessKey: string; sessionToken?: string } = {
    // The lab's deployer key (LOCAL_CREDENTIALS of @loglake/local-aws), which the handlers sign with locally.
    accessKeyId: 'AKIALOCALLABDEPLOYER',
    secretAccessKey: 'local',
  },
): LocalClients {
  const config = {
    endpoint,
    region: 'us-east-1',
    credentials,
    maxAttempts: 2,
  };
  const clients = {
    athena: new AthenaClient(config),
    glue: new GlueClient(config),
    s3: new S3Client({ ...config, forcePathStyle: true }),
    s3tables: new S3TablesClient(config),
  };
  return { ...clients, destroy: () => Object.values(clients).forEach((c) => c.destroy()) };
}

/** The VPC flow-log v2 columns of network.vpc_flow_logs (flowgen's schema, as the table-bucket stack declares). */
export const FLOW_LOG_COLUMNS: readonly { name: string; type: string }[] = FLOW_LOG_V2_SCHEMA;

const exists = async (probe: () => Promise<unknown>): Promise<boolean> =>
  probe().then(
    () => true,
    (error: unknown) => {
      // Each probe's "does not exist", by the SDK's exception class (Athena answers a missing workgroup with
      // InvalidRequestException; S3's HeadBucket has no body, so only its 404 says it).
      const missing = [
        InvalidRequestException,
        EntityNotFoundException,
        NotFoundException,
        NoSuchBucket,
        NotFound,
      ];
      if (missing.some((c) => error instanceof c)) return false;
      if ((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404)
        return false;
      throw error;
    },
  );

/** Idempotent: creates whatever of the unit's resources is missing. */
export async function provisionLocalSnapshots(
  clients: LocalClients,
  config: HandlerConfig,
  options: { workgroupCutoffBytes?: number } = {},
): Promise<void> {
  if (!(await exists(() => clients.athena.send(new GetWorkGroupCommand({ WorkGroup: config.workgroup }))))) {
    // The snapshots stack's workgroup, from the same shape: it does not enforce its configuration.
    const shape = snapshotWorkGroupShape(
      config.workgroup,
      config.snapshotBucket,
      options.workgroupCutoffBytes,
    );
    await clients.athena.send(
      new CreateWorkGroupCommand({
        Name: shape.name,
        Description: shape.description,
        Configuration: {
          EnforceWorkGroupConfiguration: shape.enforceWorkGroupConfiguration,
          BytesScannedCutoffPerQuery: shape.bytesScannedCutoffPerQuery,
          ResultConfiguration: { OutputLocation: shape.outputLocation },
          EngineVersion: { SelectedEngineVersion: shape.engineVersion },
        },
      }),
    );
  }
  const buckets = (await clients.s3tables.send(new ListTableBucketsCommand({}))).tableBuckets ?? [];
  let bucketArn = buckets.find((b) => b.name === config.sourceTableBucket)?.arn;
  bucketArn ??= (
    await clients.s3tables.send(new CreateTableBucketCommand({ name: config.sourceTableBucket }))
  ).arn as string;
  for (const def of config.definitions) {
    const ns = def.source.namespace;
    const table = def.source.table;
    if (
      !(await exists(() =>
        clients.s3tables.send(
          new GetS3TableCommand({ tableBucketARN: bucketArn, namespace: ns, name: table }),
        ),
      ))
    ) {
      await clients.s3tables
        .send(new CreateNamespaceCommand({ tableBucketARN: bucketArn, namespace: [ns] }))
        .catch((e: unknown) => {
          if (!(e instanceof ConflictException)) throw e;
        });
      await clients.s3tables.send(
        new CreateS3TableCommand({
          tableBucketARN: bucketArn,
          namespace: ns,
          name: table,
          format: 'ICEBERG',
          metadata: {
            iceberg: { schema: { fields: FLOW_LOG_COLUMNS.map((c) => ({ ...c, required: false })) } },
          },
        }),
      );
    }
  }
  if (!(await exists(() => clients.s3.send(new HeadBucketCommand({ Bucket: config.snapshotBucket }))))) {
    await clients.s3.send(new CreateBucketCommand({ Bucket: config.snapshotBucket }));
  }
  if (!(await exists(() => clients.glue.send(new GetDatabaseCommand({ Name: config.snapshotDatabase }))))) {
    await clients.glue.send(new CreateDatabaseCommand({ DatabaseInput: { Name: config.snapshotDatabase } }));
  }
  for (const def of config.definitions) {
    if (
      await exists(() =>
        clients.glue.send(new GetTableCommand({ DatabaseName: config.snapshotDatabase, Name: def.name })),
      )
    )
      continue;
    await clients.glue.send(
      new CreateTableCommand({
        DatabaseName: config.snapshotDatabase,
        TableInput: snapshotTableInput(config, def),
      }),
    );
  }
}

/** The Glue table as the snapshots stack catalogues it (same shape, so offline and AWS behave alike). */
export function snapshotTableInput(config: Pick<HandlerConfig, 'snapshotBucket'>, def: SnapshotDefinition) {
  const shape = snapshotTableShape(def, config.snapshotBucket);
  return {
    Name: def.name,
    Description: shape.description,
    TableType: shape.tableType,
    Parameters: { ...shape.parameters },
    StorageDescriptor: {
      Columns: shape.columns.map((c) => ({ Name: c.name, Type: c.type })),
      Location: shape.location,
      InputFormat: shape.inputFormat,
      OutputFormat: shape.outputFormat,
      SerdeInfo: { SerializationLibrary: shape.serializationLibrary },
    },
  };
}

/** Deterministic flow records: `perHour` records in each listed UTC hour (`YYYY-MM-DDTHH`). */
export function flowRows(hours: string[], perHour: number, seed = 1): string[] {
  const rows: string[] = [];
  let n = seed;
  // LCG; its low bits cycle, so draws use the high ones.
  const next = () => {
    n = (n * 1103515245 + 12345) % 2147483648;
    return n >>> 8;
  };
  for (const hour of hours) {
    const base = Date.parse(`${hour}:00:00Z`);
    for (let i = 0; i < perHour; i++) {
      const start = new Date(base + Math.floor((i / perHour) * 3_600_000) + (next() % 1000));
      const reject = next() % 5 === 0;
      const src = reject ? `198.51.100.${next() % 8}` : `10.0.${next() % 4}.${next() % 50}`;
      rows.push(
        `(2, '123456789012', 'eni-${(next() % 16).toString(16).padStart(8, '0')}', '${src}', '10.1.0.${next() % 20}', ` +
          `${1024 + (next() % 60000)}, ${[443, 80, 22, 5432, 3389][next() % 5]}, 6, ${1 + (next() % 40)}, ${40 * (1 + (next() % 4000))}, ` +
          `TIMESTAMP '${timestampLiteral(start)}', TIMESTAMP '${timestampLiteral(new Date(start.getTime() + 60_000))}', ` +
          `'${reject ? 'REJECT' : 'ACCEPT'}', 'OK')`,
      );
    }
  }
  return rows;
}

/** `2026-11-27`, [0..13] → ['2026-11-27T00', …]. */
export function hoursOf(day: string, hours: number[] = [...Array(24).keys()]): string[] {
  return hours.map((h) => `${day}T${String(h).padStart(2, '0')}`);
}

/** Inserts rows through Athena (one commit per statement, as a Firehose flush would be). */
export async function loadFlows(
  clients: LocalClients,
  config: HandlerConfig,
  definition: SnapshotDefinition,
  rows: string[],
  batch = 1000,
): Promise<void> {
  const target = sourceReference(config.sourceTableBucket, definition);
  const columns = FLOW_LOG_COLUMNS.map((c) => quoteIdentifier(c.name)).join(', ');
  for (let i = 0; i < rows.length; i += batch) {
    await runQuery(
      { client: clients.athena, workgroup: config.workgroup },
      `INSERT INTO ${target} (${columns}) VALUES ${rows.slice(i, i + batch).join(',\n')}`,
      {
        timeoutMs: 120_000,
        initialPollMs: 20,
        maxPollMs: 200,
        purpose: 'load flows',
      },
    );
  }
}

export interface LocalHandlerOptions {
  metrics: MetricsSink;
  now?: () => Date;
}

/** Both handlers, in-process, with the real code paths and SDK clients on the endpoint. */
export function localHandlers(clients: LocalClients, config: HandlerConfig, options: LocalHandlerOptions) {
  const now = options.now ?? (() => new Date());
  return {
    resolveWatermark: (event: ResolveWatermarkInput) =>
      resolveWatermark(
        { athena: clients.athena, glue: clients.glue, config, metrics: options.metrics, now },
        event,
      ),
    buildSnapshot: (event: BuildSnapshotInput) =>
      buildSnapshot(
        { athena: clients.athena, glue: clients.glue, s3: clients.s3, config, metrics: options.metrics, now },
        event,
      ),
  };
}
