// Athena workgroups, stored in the data directory. `primary` always exists, as in every AWS account.
import type { AwsServiceError } from '../errors';
import type {
  CreateWorkGroupInput,
  UpdateWorkGroupInput,
  WorkGroupConfiguration,
} from '@aws-sdk/client-athena';
import type { Wire } from '../model/api';
import type { JsonStore } from '../store';
import { tagsFromList, withTags, type TagMap } from '../tags';
import { wireError } from '../model/wire-errors';

export interface WorkGroupRecord {
  Name: string;
  State: 'ENABLED' | 'DISABLED';
  Description?: string;
  CreationTime: number;
  Configuration: Wire<WorkGroupConfiguration>;
  /** The workgroup's tags (Tags of CreateWorkGroup, TagResource): kept with it, not part of GetWorkGroup. */
  tags?: TagMap;
}

export function invalidRequest(message: string, code = 'INVALID_INPUT'): AwsServiceError {
  return wireError('athena', 'InvalidRequestException', message, { fields: { AthenaErrorCode: code } });
}

// Athena's documented minimum for BytesScannedCutoffPerQuery is 10,000,000 bytes (the model's range on
// BytesScannedCutoffValue, checked before a handler runs; the endpoint's athenaMinCutoffBytes option lowers it).
export const ATHENA_MIN_CUTOFF_BYTES = 10_000_000;
/**
 * The engine versions a workgroup may select ("Athena engine versioning": AUTO lets Athena choose; engine version 2
 * is retired) and the one that runs: version 3, whose SQL the local front end follows.
 */
const SELECTABLE_ENGINE_VERSIONS = ['AUTO', 'Athena engine version 3'];
const EFFECTIVE_ENGINE_VERSION = 'Athena engine version 3';
const key = (name: string) => ['athena', 'workgroups', name];

/** The workgroup's engine version as Athena reports it: what was selected, and the version that runs. */
export function engineVersion(selected: string | undefined) {
  return { SelectedEngineVersion: selected ?? 'AUTO', EffectiveEngineVersion: EFFECTIVE_ENGINE_VERSION };
}

function selectedEngineVersion(requested: string | undefined): string | undefined {
  if (requested === undefined || SELECTABLE_ENGINE_VERSIONS.includes(requested)) return requested;
  throw invalidRequest(
    `Engine version ${JSON.stringify(requested)} is not available: select one of ${SELECTABLE_ENGINE_VERSIONS.map((v) => JSON.stringify(v)).join(', ')}.`,
  );
}

const tagError = (message: string) => invalidRequest(message);

export class WorkGroups {
  constructor(private readonly store: JsonStore) {}

  get(name: string): WorkGroupRecord {
    const stored = this.store.read<WorkGroupRecord>(key(name));
    if (stored) return stored;
    if (name === 'primary')
      return { Name: 'primary', State: 'ENABLED', CreationTime: 0, Configuration: this.configuration({}) };
    throw invalidRequest(`WorkGroup ${name} is not found.`);
  }

  /** The workgroup, or undefined when there is none (a query's workgroup may have been deleted since it ran). */
  find(name: string): WorkGroupRecord | undefined {
    try {
      return this.get(name);
    } catch {
      return undefined;
    }
  }

  list(): WorkGroupRecord[] {
    const names = new Set(['primary', ...this.store.list(['athena', 'workgroups'])]);
    return [...names].sort().map((name) => this.get(name));
  }

  create(input: Wire<CreateWorkGroupInput>): void {
    const name = input.Name as string;
    if (name === 'primary' || this.store.read(key(name)))
      throw invalidRequest(`WorkGroup ${name} is already created`);
    const tags = withTags({}, tagsFromList(input.Tags), tagError);
    const record: WorkGroupRecord = {
      Name: name,
      State: 'ENABLED',
      Description: input.Description,
      CreationTime: Date.now() / 1000,
      Configuration: this.configuration(input.Configuration ?? {}),
      ...(Object.keys(tags).length > 0 ? { tags } : {}),
    };
    this.store.write(key(name), record);
  }

  /** Replaces the workgroup's tags (TagResource, UntagResource compute the new set). */
  setTags(name: string, tags: TagMap): void {
    const record = this.stored(name);
    record.tags = tags;
    this.store.write(key(name), record);
  }

  /** A stored workgroup (`primary` is stored on its first change). */
  private stored(name: string): WorkGroupRecord {
    return this.get(name);
  }

  update(input: Wire<UpdateWorkGroupInput>): void {
    const record = this.get(input.WorkGroup as string);
    if (input.Description !== undefined) record.Description = input.Description;
    if (input.State !== undefined) record.State = input.State;
    const updates = input.ConfigurationUpdates ?? {};
    const config = { ...record.Configuration };
    if (updates.BytesScannedCutoffPerQuery !== undefined)
      config.BytesScannedCutoffPerQuery = updates.BytesScannedCutoffPerQuery;
    if (updates.RemoveBytesScannedCutoffPerQuery === true) delete config.BytesScannedCutoffPerQuery;
    if (updates.EnforceWorkGroupConfiguration !== undefined)
      config.EnforceWorkGroupConfiguration = updates.EnforceWorkGroupConfiguration;
    if (updates.PublishCloudWatchMetricsEnabled !== undefined)
      config.PublishCloudWatchMetricsEnabled = updates.PublishCloudWatchMetricsEnabled;
    if (updates.RequesterPaysEnabled !== undefined)
      config.RequesterPaysEnabled = updates.RequesterPaysEnabled;
    const rc = updates.ResultConfigurationUpdates;
    if (rc) {
      const current = { ...config.ResultConfiguration };
      if (rc.OutputLocation !== undefined) current.OutputLocation = rc.OutputLocation;
      if (rc.RemoveOutputLocation === true) delete current.OutputLocation;
      if (rc.EncryptionConfiguration !== undefined)
        current.EncryptionConfiguration = rc.EncryptionConfiguration;
      if (rc.RemoveEncryptionConfiguration === true) delete current.EncryptionConfiguration;
      if (rc.ExpectedBucketOwner !== undefined) current.ExpectedBucketOwner = rc.ExpectedBucketOwner;
      if (rc.RemoveExpectedBucketOwner === true) delete current.ExpectedBucketOwner;
      if (rc.AclConfiguration !== undefined) current.AclConfiguration = rc.AclConfiguration;
      if (rc.RemoveAclConfiguration === true) delete current.AclConfiguration;
      config.ResultConfiguration = current;
    }
    if (updates.EngineVersion !== undefined)
      config.EngineVersion = engineVersion(
        selectedEngineVersion(updates.EngineVersion.SelectedEngineVersion ?? undefined),
      );
    if (updates.ExecutionRole !== undefined) config.ExecutionRole = updates.ExecutionRole;
    const enabled = updates.ManagedQueryResultsConfigurationUpdates?.Enabled;
    if (enabled !== undefined) config.ManagedQueryResultsConfiguration = { Enabled: enabled };
    record.Configuration = config;
    this.store.write(key(record.Name), record);
  }

  delete(name: string): void {
    if (name === 'primary') throw invalidRequest('The primary workgroup cannot be deleted.');
    this.get(name);
    this.store.delete(key(name));
  }

  /** The workgroup's per-query cutoff, or undefined when it has none. */
  cutoffOf(record: WorkGroupRecord): number | undefined {
    const cutoff = record.Configuration.BytesScannedCutoffPerQuery;
    return typeof cutoff === 'number' ? cutoff : undefined;
  }

  private configuration(given: Wire<WorkGroupConfiguration>): Wire<WorkGroupConfiguration> {
    const config: Wire<WorkGroupConfiguration> = {
      EnforceWorkGroupConfiguration: given.EnforceWorkGroupConfiguration ?? true,
      PublishCloudWatchMetricsEnabled: given.PublishCloudWatchMetricsEnabled ?? true,
      RequesterPaysEnabled: given.RequesterPaysEnabled ?? false,
      EngineVersion: engineVersion(
        selectedEngineVersion(given.EngineVersion?.SelectedEngineVersion ?? undefined),
      ),
    };
    if (given.ExecutionRole) config.ExecutionRole = given.ExecutionRole;
    if (given.ResultConfiguration) config.ResultConfiguration = given.ResultConfiguration;
    if (given.ManagedQueryResultsConfiguration)
      config.ManagedQueryResultsConfiguration = given.ManagedQueryResultsConfiguration;
    if (given.BytesScannedCutoffPerQuery !== undefined)
      config.BytesScannedCutoffPerQuery = given.BytesScannedCutoffPerQuery;
    return config;
  }
}
