// Test fixtures: a ResolvedUnit built the way units/ resolves one, without reading the live tree (stacks must not
// depend on units). Used by the catalog's own tests.
import {
  REGIONAL_DIR,
  type InputsSpec,
  type RemoteState,
  type ResolvedDependency,
  type ResolvedUnit,
  type UnitContext,
  type UnitLevel,
} from '../lib/contract';

export interface FixtureOptions {
  readonly name: string;
  readonly inputs?: Record<string, unknown>;
  readonly dependencies?: readonly ResolvedDependency[];
  readonly remoteState?: 'local' | 's3';
  readonly allowedAccountIds?: readonly string[];
  /** Default lab; `region` builds a unit of the region's `_regional/` folder. */
  readonly level?: UnitLevel;
}

export const LAB_PATH = 'sandbox/us-east-1/01-s3-tables-log-lake';
export const REGIONAL_PATH = `sandbox/us-east-1/${REGIONAL_DIR}`;

export function fixtureRemoteState(
  unit: string,
  backend: 'local' | 's3' = 'local',
  level: UnitLevel = 'lab',
): RemoteState {
  const key = `${level === 'lab' ? LAB_PATH : REGIONAL_PATH}/${unit}/terraform.tfstate`;
  return backend === 's3'
    ? { backend: 's3', bucket: 'example-state-bucket', key, region: 'us-east-1' }
    : { backend: 'local', key, path: `.lab/tfstate/${key}` };
}

export function fixtureContext(options: FixtureOptions): UnitContext {
  const level = options.level ?? 'lab';
  const common = {
    name: options.name,
    level,
    env: 'sandbox',
    region: 'us-east-1',
    prefix: 'loglake',
    allowedAccountIds: options.allowedAccountIds ?? [],
    remoteState: fixtureRemoteState(options.name, options.remoteState, level),
  };
  return level === 'lab'
    ? {
        ...common,
        path: `${LAB_PATH}/${options.name}`,
        labId: '01',
        labName: 's3-tables-log-lake',
        namePrefix: 'loglake-01',
        tags: { project: 'loglake', 'managed-by': 'cdktf', env: 'sandbox', lab: '01', unit: options.name },
      }
    : {
        ...common,
        path: `${REGIONAL_PATH}/${options.name}`,
        labId: '',
        labName: '',
        namePrefix: 'loglake',
        tags: { project: 'loglake', 'managed-by': 'cdktf', env: 'sandbox', unit: options.name },
      };
}

export function fixtureUnit<I>(spec: InputsSpec<I>, options: FixtureOptions): ResolvedUnit<I> {
  const ctx = fixtureContext(options);
  return {
    ...ctx,
    stack: spec.stack,
    dependencies: options.dependencies ?? [],
    inputs: spec.resolveInputs(options.inputs ?? {}, ctx),
  };
}

export function tableBucketDependency(
  outputs: readonly string[],
  backend: 'local' | 's3' = 'local',
  withMocks = true,
): ResolvedDependency {
  const mocks: Record<string, string> = {
    table_bucket_arn: 'arn:aws:s3tables:us-east-1:123456789012:bucket/mock-bucket',
    table_bucket_name: 'mock-bucket',
    table_catalog_id: '123456789012:s3tablescatalog/mock-bucket',
    namespace: 'network',
    table_name: 'vpc_flow_logs',
    table_arn: 'arn:aws:s3tables:us-east-1:123456789012:bucket/mock-bucket/table/mock',
    alerts_topic_arn: 'arn:aws:sns:us-east-1:123456789012:mock-alerts',
    lab_role_arn: 'arn:aws:iam::123456789012:role/mock-lab',
    lab_role_name: 'mock-lab',
  };
  return {
    name: 'table_bucket',
    unit: 'table-bucket',
    path: `${LAB_PATH}/table-bucket`,
    outputs,
    mockOutputs: withMocks ? Object.fromEntries(outputs.map((o) => [o, mocks[o] ?? `mock-${o}`])) : {},
    mockAllowedCommands: withMocks ? ['init', 'validate', 'plan'] : [],
    remoteState: fixtureRemoteState('table-bucket', backend),
  };
}

/** The table-bucket unit's dependency on the region-level s3tables-integration unit. */
export function integrationDependency(
  backend: 'local' | 's3' = 'local',
  withMocks = true,
): ResolvedDependency {
  return {
    name: 's3tables_integration',
    unit: 's3tables-integration',
    path: `${REGIONAL_PATH}/s3tables-integration`,
    outputs: ['glue_catalog_name'],
    mockOutputs: withMocks ? { glue_catalog_name: 's3tablescatalog' } : {},
    mockAllowedCommands: withMocks ? ['init', 'validate', 'plan'] : [],
    remoteState: fixtureRemoteState('s3tables-integration', backend, 'region'),
  };
}

/** Synthesized stack JSON, the shape Terraform receives. */
export interface StackJson {
  terraform: {
    backend: Record<string, Record<string, unknown>>;
    required_providers: Record<string, { version: string }>;
    required_version?: string;
  };
  provider: {
    aws: Array<{
      region: string;
      default_tags: Array<{ tags: Record<string, string> }>;
      allowed_account_ids?: string[];
    }>;
  };
  resource: Record<string, Record<string, Record<string, unknown>>>;
  data?: Record<string, Record<string, Record<string, unknown>>>;
  locals?: Record<string, string>;
  output?: Record<string, { value: unknown }>;
}

export function resourcesOf(json: StackJson, type: string): Record<string, Record<string, unknown>> {
  return json.resource[type] ?? {};
}

export function onlyResource(json: StackJson, type: string): Record<string, unknown> {
  const all = Object.values(resourcesOf(json, type));
  if (all.length !== 1) throw new Error(`expected exactly one ${type}, found ${all.length}`);
  return all[0] as Record<string, unknown>;
}
