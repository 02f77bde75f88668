// Athena workgroups, stored in the data directory. `primary` always exists, as in every AWS account.
import { AwsServiceError } from '../errors';
import { InputReader } from '../input';
import type { JsonStore } from '../store';

export interface WorkGroupRecord {
  Name: string;
  State: 'ENABLED' | 'DISABLED';
  Description?: string;
  CreationTime: number;
  Configuration: Record<string, unknown>;
}

export function invalidRequest(message: string, code = 'INVALID_INPUT'): AwsServiceError {
  return new AwsServiceError('InvalidRequestException', 400, message, { AthenaErrorCode: code });
}

// Athena's documented minimum for BytesScannedCutoffPerQuery is 10,000,000 bytes.
export const ATHENA_MIN_CUTOFF_BYTES = 10_000_000;
const ENGINE_VERSION = { SelectedEngineVersion: 'AUTO', EffectiveEngineVersion: 'Athena engine version 3' };
const key = (name: string) => `athena/workgroups/${name}`;

export class WorkGroups {
  constructor(
    private readonly store: JsonStore,
    private readonly minCutoffBytes: number,
  ) {}

  get(name: string): WorkGroupRecord {
    const stored = this.store.read<WorkGroupRecord>(key(name));
    if (stored) return stored;
    if (name === 'primary')
      return { Name: 'primary', State: 'ENABLED', CreationTime: 0, Configuration: this.configuration({}) };
    throw invalidRequest(`WorkGroup ${name} is not found.`);
  }

  list(): WorkGroupRecord[] {
    const names = new Set(['primary', ...this.store.list('athena/workgroups')]);
    return [...names].sort().map((name) => this.get(name));
  }

  create(input: Record<string, unknown>): void {
    const reader = new InputReader(input, (m) => invalidRequest(m));
    const name = reader.requiredString('Name');
    if (!/^[a-zA-Z0-9._-]{1,128}$/.test(name))
      throw invalidRequest(
        `Invalid workgroup name ${JSON.stringify(name)}: use letters, digits, '.', '_' and '-' (1-128).`,
      );
    if (name === 'primary' || this.store.read(key(name)))
      throw invalidRequest(`WorkGroup ${name} is already created`);
    const record: WorkGroupRecord = {
      Name: name,
      State: 'ENABLED',
      Description: reader.optionalString('Description'),
      CreationTime: Date.now() / 1000,
      Configuration: this.configuration(reader.optionalObject('Configuration') ?? {}),
    };
    this.store.write(key(name), record);
  }

  update(input: Record<string, unknown>): void {
    const reader = new InputReader(input, (m) => invalidRequest(m));
    const record = this.get(reader.requiredString('WorkGroup'));
    const description = reader.optionalString('Description');
    if (description !== undefined) record.Description = description;
    const state = reader.optionalString('State');
    if (state !== undefined) {
      if (state !== 'ENABLED' && state !== 'DISABLED')
        throw invalidRequest(`State must be ENABLED or DISABLED, got ${state}.`);
      record.State = state;
    }
    const updates = reader.optionalObject('ConfigurationUpdates') ?? {};
    const config = { ...record.Configuration };
    if (updates.BytesScannedCutoffPerQuery !== undefined)
      config.BytesScannedCutoffPerQuery = this.cutoff(updates.BytesScannedCutoffPerQuery);
    if (updates.RemoveBytesScannedCutoffPerQuery === true) delete config.BytesScannedCutoffPerQuery;
    for (const flag of [
      'EnforceWorkGroupConfiguration',
      'PublishCloudWatchMetricsEnabled',
      'RequesterPaysEnabled',
    ]) {
      if (typeof updates[flag] === 'boolean') config[flag] = updates[flag];
    }
    if (updates.ResultConfigurationUpdates && typeof updates.ResultConfigurationUpdates === 'object') {
      const rc = updates.ResultConfigurationUpdates as Record<string, unknown>;
      const current = { ...((config.ResultConfiguration as Record<string, unknown> | undefined) ?? {}) };
      if (typeof rc.OutputLocation === 'string') current.OutputLocation = rc.OutputLocation;
      if (rc.RemoveOutputLocation === true) delete current.OutputLocation;
      config.ResultConfiguration = current;
    }
    if (
      updates.ManagedQueryResultsConfigurationUpdates &&
      typeof updates.ManagedQueryResultsConfigurationUpdates === 'object'
    ) {
      const enabled = (updates.ManagedQueryResultsConfigurationUpdates as Record<string, unknown>).Enabled;
      if (typeof enabled === 'boolean') config.ManagedQueryResultsConfiguration = { Enabled: enabled };
    }
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

  private configuration(given: Record<string, unknown>): Record<string, unknown> {
    const config: Record<string, unknown> = {
      EnforceWorkGroupConfiguration: given.EnforceWorkGroupConfiguration ?? true,
      PublishCloudWatchMetricsEnabled: given.PublishCloudWatchMetricsEnabled ?? true,
      RequesterPaysEnabled: given.RequesterPaysEnabled ?? false,
      EngineVersion: ENGINE_VERSION,
    };
    if (given.ResultConfiguration) config.ResultConfiguration = given.ResultConfiguration;
    if (given.ManagedQueryResultsConfiguration)
      config.ManagedQueryResultsConfiguration = given.ManagedQueryResultsConfiguration;
    if (given.BytesScannedCutoffPerQuery !== undefined)
      config.BytesScannedCutoffPerQuery = this.cutoff(given.BytesScannedCutoffPerQuery);
    return config;
  }

  private cutoff(value: unknown): number {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < this.minCutoffBytes) {
      throw invalidRequest(
        `BytesScannedCutoffPerQuery ${JSON.stringify(value)} is invalid: it must be an integer of at least ${this.minCutoffBytes} bytes.`,
      );
    }
    return value;
  }
}
