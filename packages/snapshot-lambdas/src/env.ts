// The one place the handlers read their environment. Read once at cold start; a missing or malformed value
// fails the init with a message naming the variable, instead of failing later inside a query.
import { SnapshotConfigError } from './errors';
import { parseSnapshotDefinitions, type SnapshotDefinition } from './definitions';
import { bucketName, identifier, positiveInteger } from './params';

// The metric names ride along with the environment the stack hands the handlers (Powertools reads its namespace and
// service from it); re-exported here because ./metrics loads Powertools, which a synth does not need.
export { DIMENSION_SNAPSHOT, METRIC, METRICS_NAMESPACE, METRICS_SERVICE } from './metric-names';

export interface HandlerConfig {
  /** S3 table bucket holding the sources; Athena sees it as catalog `s3tablescatalog/<name>`. */
  sourceTableBucket: string;
  /** Glue database of the snapshot tables (catalogued by Terraform). */
  snapshotDatabase: string;
  /** General purpose bucket the snapshot runs are written to. */
  snapshotBucket: string;
  workgroup: string;
  queryTimeoutMs: number;
  definitions: SnapshotDefinition[];
}

export const ENV_NAMES = {
  sourceTableBucket: 'SOURCE_TABLE_BUCKET',
  snapshotDatabase: 'SNAPSHOT_DATABASE',
  snapshotBucket: 'SNAPSHOT_BUCKET',
  workgroup: 'ATHENA_WORKGROUP',
  queryTimeoutSeconds: 'QUERY_TIMEOUT_SECONDS',
  definitions: 'SNAPSHOT_DEFINITIONS',
} as const;

/** How the handlers poll a query: first after 250 ms, doubling up to 5 s (a Lambda pays for the time it waits). */
export const LAMBDA_POLLING = { initialPollMs: 250, maxPollMs: 5000 } as const;

const WORKGROUP = /^[a-zA-Z0-9._-]{1,128}$/;

function required(env: NodeJS.ProcessEnv, name: string): string {
  const value = env[name];
  if (value === undefined || value.trim() === '') {
    throw new SnapshotConfigError(
      `Environment variable ${name} is not set: the snapshots stack sets it on deploy`,
      {
        value: { variable: name },
      },
    );
  }
  return value;
}

function wrap<T>(name: string, value: string, parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    throw new SnapshotConfigError(
      `Environment variable ${name}=${JSON.stringify(value.slice(0, 200))} is invalid: ${(error as Error).message}`,
      { cause: error, value: { variable: name, value } },
    );
  }
}

export function readHandlerConfig(env: NodeJS.ProcessEnv = process.env): HandlerConfig {
  const missing = (
    ['sourceTableBucket', 'snapshotDatabase', 'snapshotBucket', 'workgroup', 'definitions'] as const
  )
    .map((key) => ENV_NAMES[key])
    .filter((name) => (env[name] ?? '').trim() === '');
  if (missing.length > 0) {
    throw new SnapshotConfigError(
      `Environment variable${missing.length > 1 ? 's' : ''} ${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} not set: the snapshots stack sets them on deploy (offline, the lab sets them)`,
      { value: { missing } },
    );
  }
  const get = (key: keyof typeof ENV_NAMES) => required(env, ENV_NAMES[key]);
  const workgroup = get('workgroup');
  if (!WORKGROUP.test(workgroup)) {
    throw new SnapshotConfigError(
      `Environment variable ATHENA_WORKGROUP=${JSON.stringify(workgroup)} is not a workgroup name`,
      {
        value: { variable: 'ATHENA_WORKGROUP', value: workgroup },
      },
    );
  }
  const timeoutRaw = env[ENV_NAMES.queryTimeoutSeconds] ?? '600';
  return {
    sourceTableBucket: wrap('SOURCE_TABLE_BUCKET', get('sourceTableBucket'), () =>
      bucketName(get('sourceTableBucket')),
    ),
    snapshotDatabase: wrap('SNAPSHOT_DATABASE', get('snapshotDatabase'), () =>
      identifier(get('snapshotDatabase')),
    ),
    snapshotBucket: wrap('SNAPSHOT_BUCKET', get('snapshotBucket'), () => bucketName(get('snapshotBucket'))),
    workgroup,
    queryTimeoutMs:
      wrap('QUERY_TIMEOUT_SECONDS', timeoutRaw, () =>
        positiveInteger(Number(timeoutRaw), 'seconds', 1, 900),
      ) * 1000,
    definitions: wrap('SNAPSHOT_DEFINITIONS', get('definitions'), () =>
      parseSnapshotDefinitions(JSON.parse(get('definitions'))),
    ),
  };
}

/** The environment the stack gives both Lambdas (and the offline run gives the in-process handlers). */
export function handlerEnvironment(config: HandlerConfig): Record<string, string> {
  return {
    [ENV_NAMES.sourceTableBucket]: config.sourceTableBucket,
    [ENV_NAMES.snapshotDatabase]: config.snapshotDatabase,
    [ENV_NAMES.snapshotBucket]: config.snapshotBucket,
    [ENV_NAMES.workgroup]: config.workgroup,
    [ENV_NAMES.queryTimeoutSeconds]: String(Math.round(config.queryTimeoutMs / 1000)),
    [ENV_NAMES.definitions]: JSON.stringify(config.definitions),
  };
}
