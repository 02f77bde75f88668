// S3 Tables maintenance, locally. Configuration is stored as the API documents it; jobs run the engine's real
// compaction, snapshot expiry and unreferenced-file removal when asked (admin hook POST /_local/maintenance/run,
// or every `intervalSeconds` when set). Job status is reported as S3 Tables does — "Successful" even when the
// job rewrote nothing — and the engine's own reports (what was really rewritten/expired/deleted) are kept beside
// it for GET /_local/maintenance/reports.
import {
  S3_TABLES_MAINTENANCE_DEFAULTS,
  type CompactionReport,
  type ExpireReport,
  type TableHandle,
  type Warehouse,
} from '@loglake/lakehouse';
import { type TableMetadata } from '@loglake/lakehouse/iceberg';
import type { AwsServiceError } from '../errors';
import { LocalAwsError } from '../errors';
import type {
  IcebergCompactionSettings,
  IcebergCompactionStrategy,
  IcebergSnapshotManagementSettings,
  TableBucketMaintenanceConfigurationValue,
  TableMaintenanceConfigurationValue,
  TableMaintenanceType,
} from '@aws-sdk/client-s3tables';
import type { Wire } from '../model/api';
import type { JsonStore } from '../store';
import { wireError } from '../model/wire-errors';

export type MaintenanceType =
  'icebergCompaction' | 'icebergSnapshotManagement' | 'icebergUnreferencedFileRemoval';
export type JobStatus = 'Not_Yet_Run' | 'Successful' | 'Failed' | 'Disabled';

export interface TableMaintenance {
  icebergCompaction: {
    status: 'enabled' | 'disabled';
    settings: { targetFileSizeMB: number; strategy: IcebergCompactionStrategy };
  };
  icebergSnapshotManagement: {
    status: 'enabled' | 'disabled';
    settings: { minSnapshotsToKeep: number; maxSnapshotAgeHours: number };
  };
}

export interface BucketMaintenance {
  icebergUnreferencedFileRemoval: {
    status: 'enabled' | 'disabled';
    settings: { unreferencedDays: number; nonCurrentDays: number };
  };
}

export interface JobStatusValue {
  status: JobStatus;
  lastRunTimestamp?: string;
  failureMessage?: string;
}

export interface MaintenanceRunReport {
  bucket: string;
  namespace: string;
  table: string;
  type: MaintenanceType;
  status: JobStatus;
  at: string;
  /** The engine's report: what the job really did. */
  compaction?: CompactionReport;
  expiry?: ExpireReport;
  /** Snapshot management found retention in the table's own metadata and expired nothing (S3 Tables' rule). */
  snapshotManagementDisabled?: SnapshotManagementHold;
  unreferencedFiles?: { deletedFiles: number; deletedBytes: number };
  failureMessage?: string;
}

// S3 Tables' defaults, as the engine's maintenance module records them: compaction on (512 MB target, 64-512),
// keep >= 1 snapshot and expire after 120 h, unreferenced files removed after 3 days (noncurrent after 10).
const D = S3_TABLES_MAINTENANCE_DEFAULTS;
export const DEFAULT_TABLE_MAINTENANCE: TableMaintenance = {
  icebergCompaction: {
    status: 'enabled',
    settings: { targetFileSizeMB: D.icebergCompaction.targetFileSizeMB, strategy: 'auto' },
  },
  icebergSnapshotManagement: { status: 'enabled', settings: { ...D.icebergSnapshotManagement } },
};
export const DEFAULT_BUCKET_MAINTENANCE: BucketMaintenance = {
  icebergUnreferencedFileRemoval: { status: 'enabled', settings: { ...D.icebergUnreferencedFileRemoval } },
};

/** Why snapshot management expired nothing, and what it would have expired without that retention. */
export interface SnapshotManagementHold {
  reasons: string[];
  heldSnapshots: number;
  heldFiles: number;
  heldBytes: number;
}

const tableKey = (b: string, n: string, t: string) => [b, n, t];

export class MaintenanceService {
  private clockOffsetMs = 0;

  constructor(
    private readonly warehouse: Warehouse,
    private readonly store: JsonStore,
    /** Whether the maintenance clock may be advanced (an explicit endpoint option; off by default). */
    private readonly adjustableClock = false,
  ) {}

  /** The instant maintenance judges snapshot ages by: the wall clock, plus any advance asked for. */
  now(): Date {
    return new Date(Date.now() + this.clockOffsetMs);
  }

  /** Moves the maintenance clock forward (never back), so the undo window can be shown in seconds. */
  advanceClock(hours: number): Date {
    if (!this.adjustableClock) {
      throw bad(
        'The maintenance clock is the wall clock: start the endpoint with maintenanceClock "adjustable" (pnpm lab local --adjustable-maintenance-clock) to advance it.',
      );
    }
    if (!Number.isFinite(hours) || hours <= 0)
      throw bad(`advanceHours must be a positive number, got ${hours}.`);
    this.clockOffsetMs += hours * 3_600_000;
    return this.now();
  }

  tableConfig(bucket: string, namespace: string, table: string): TableMaintenance {
    return (
      this.store.read<TableMaintenance>(['s3tables', 'maintenance', ...tableKey(bucket, namespace, table)]) ??
      structuredClone(DEFAULT_TABLE_MAINTENANCE)
    );
  }

  bucketConfig(bucket: string): BucketMaintenance {
    return (
      this.store.read<BucketMaintenance>(['s3tables', 'bucket-maintenance', bucket]) ??
      structuredClone(DEFAULT_BUCKET_MAINTENANCE)
    );
  }

  /** Stores one table maintenance setting (the request has been checked against S3 Tables' model). */
  putTableConfig(
    bucket: string,
    namespace: string,
    table: string,
    type: TableMaintenanceType,
    value: Wire<TableMaintenanceConfigurationValue>,
  ): void {
    const config = this.tableConfig(bucket, namespace, table);
    const settings = value.settings ?? {};
    if (type === 'icebergCompaction') {
      const given: Wire<IcebergCompactionSettings> =
        ('icebergCompaction' in settings ? settings.icebergCompaction : undefined) ?? {};
      // 64-512 MB (user guide, "Maintenance for tables"): narrower than the model's PositiveInteger.
      const target = optionalBetween(
        given.targetFileSizeMB,
        'targetFileSizeMB',
        D.icebergCompaction.minTargetFileSizeMB,
        D.icebergCompaction.maxTargetFileSizeMB,
      );
      config.icebergCompaction = {
        status: value.status ?? config.icebergCompaction.status,
        settings: {
          targetFileSizeMB: target ?? config.icebergCompaction.settings.targetFileSizeMB,
          strategy: given.strategy ?? config.icebergCompaction.settings.strategy,
        },
      };
    } else {
      const given: Wire<IcebergSnapshotManagementSettings> =
        ('icebergSnapshotManagement' in settings ? settings.icebergSnapshotManagement : undefined) ?? {};
      config.icebergSnapshotManagement = {
        status: value.status ?? config.icebergSnapshotManagement.status,
        settings: {
          minSnapshotsToKeep:
            given.minSnapshotsToKeep ?? config.icebergSnapshotManagement.settings.minSnapshotsToKeep,
          maxSnapshotAgeHours:
            given.maxSnapshotAgeHours ?? config.icebergSnapshotManagement.settings.maxSnapshotAgeHours,
        },
      };
    }
    this.store.write(['s3tables', 'maintenance', ...tableKey(bucket, namespace, table)], config);
  }

  /** Stores the bucket's unreferenced-file removal setting (checked against the model). */
  putBucketConfig(bucket: string, value: Wire<TableBucketMaintenanceConfigurationValue>): void {
    const config = this.bucketConfig(bucket);
    const settings = value.settings?.icebergUnreferencedFileRemoval ?? {};
    config.icebergUnreferencedFileRemoval = {
      status: value.status ?? config.icebergUnreferencedFileRemoval.status,
      settings: {
        unreferencedDays:
          settings.unreferencedDays ?? config.icebergUnreferencedFileRemoval.settings.unreferencedDays,
        nonCurrentDays:
          settings.nonCurrentDays ?? config.icebergUnreferencedFileRemoval.settings.nonCurrentDays,
      },
    };
    this.store.write(['s3tables', 'bucket-maintenance', bucket], config);
  }

  /** RenameTable: the table's maintenance settings and job status go with it. */
  renameTable(
    from: { bucket: string; namespace: string; name: string },
    to: { namespace: string; name: string },
  ): void {
    for (const folder of ['maintenance', 'jobs']) {
      const value = this.store.read([
        's3tables',
        folder,
        ...tableKey(from.bucket, from.namespace, from.name),
      ]);
      if (value === undefined) continue;
      this.store.write(['s3tables', folder, ...tableKey(from.bucket, to.namespace, to.name)], value);
      this.store.delete(['s3tables', folder, ...tableKey(from.bucket, from.namespace, from.name)]);
    }
  }

  jobStatus(bucket: string, namespace: string, table: string): Record<MaintenanceType, JobStatusValue> {
    const stored =
      this.store.read<Partial<Record<MaintenanceType, JobStatusValue>>>([
        's3tables',
        'jobs',
        ...tableKey(bucket, namespace, table),
      ]) ?? {};
    const config = this.tableConfig(bucket, namespace, table);
    const bucketConfig = this.bucketConfig(bucket);
    const enabled: Record<MaintenanceType, boolean> = {
      icebergCompaction: config.icebergCompaction.status === 'enabled',
      icebergSnapshotManagement: config.icebergSnapshotManagement.status === 'enabled',
      icebergUnreferencedFileRemoval: bucketConfig.icebergUnreferencedFileRemoval.status === 'enabled',
    };
    const result = {} as Record<MaintenanceType, JobStatusValue>;
    for (const type of Object.keys(enabled) as MaintenanceType[]) {
      result[type] = stored[type] ?? { status: enabled[type] ? 'Not_Yet_Run' : 'Disabled' };
      if (!enabled[type] && !stored[type]) result[type] = { status: 'Disabled' };
    }
    return result;
  }

  reports(): MaintenanceRunReport[] {
    return this.store.read<MaintenanceRunReport[]>(['s3tables', 'maintenance-reports']) ?? [];
  }

  /** Runs every enabled job on the selected tables (all tables when nothing is selected). */
  async run(
    select: { bucket?: string; namespace?: string; table?: string } = {},
    now = this.now(),
  ): Promise<MaintenanceRunReport[]> {
    const buckets = select.bucket
      ? [select.bucket]
      : (await this.warehouse.listTableBuckets()).map((b) => b.name);
    const runs: MaintenanceRunReport[] = [];
    for (const bucket of buckets) {
      const tables = (await this.warehouse.listTables(bucket, select.namespace)).filter(
        (t) => !select.table || t.name === select.table,
      );
      for (const summary of tables) {
        const handle = await this.warehouse.loadTable(bucket, summary.namespace, summary.name);
        runs.push(...(await this.runTable(handle, now)));
      }
    }
    const kept = [...this.reports(), ...runs].slice(-500);
    this.store.write(['s3tables', 'maintenance-reports'], kept);
    return runs;
  }

  private async runTable(handle: TableHandle, now: Date): Promise<MaintenanceRunReport[]> {
    const { bucket, namespace, name } = handle;
    const config = this.tableConfig(bucket, namespace, name);
    const bucketConfig = this.bucketConfig(bucket);
    const at = now.toISOString();
    const base = { bucket, namespace, table: name, at };
    const runs: MaintenanceRunReport[] = [];
    const attempt = async (
      type: MaintenanceType,
      enabled: boolean,
      job: () => Promise<Partial<MaintenanceRunReport>>,
    ) => {
      if (!enabled) return;
      try {
        runs.push({ ...base, type, status: 'Successful', ...(await job()) });
      } catch (error) {
        runs.push({
          ...base,
          type,
          status: 'Failed',
          failureMessage: error instanceof Error ? error.message : String(error),
        });
      }
    };
    await attempt('icebergCompaction', config.icebergCompaction.status === 'enabled', async () => ({
      compaction: await handle.compact({
        targetFileSizeBytes: config.icebergCompaction.settings.targetFileSizeMB * 1024 * 1024,
        strategy: engineStrategy(config.icebergCompaction.settings.strategy),
      }),
    }));
    await attempt(
      'icebergSnapshotManagement',
      config.icebergSnapshotManagement.status === 'enabled',
      async () => {
        const policy = {
          minSnapshotsToKeep: config.icebergSnapshotManagement.settings.minSnapshotsToKeep,
          maxSnapshotAgeMs: config.icebergSnapshotManagement.settings.maxSnapshotAgeHours * 3_600_000,
          now,
        };
        const hold = retentionInMetadata(await handle.metadata(), policy);
        if (hold.reasons.length === 0) return { expiry: await handle.expireSnapshots(policy) };
        // Measured, not committed: what the run would have expired had the table carried no retention of its own.
        const wouldHave = await handle.expireSnapshots({ ...policy, dryRun: true, ignoreRefs: hold.refs });
        return {
          snapshotManagementDisabled: {
            reasons: hold.reasons,
            heldSnapshots: wouldHave.expiredSnapshotIds.length,
            heldFiles: wouldHave.deletedFiles,
            heldBytes: wouldHave.deletedBytes,
          },
        };
      },
    );
    await attempt(
      'icebergUnreferencedFileRemoval',
      bucketConfig.icebergUnreferencedFileRemoval.status === 'enabled',
      async () => ({
        unreferencedFiles: await handle.removeOrphanFiles(
          bucketConfig.icebergUnreferencedFileRemoval.settings.unreferencedDays * 86_400_000,
        ),
      }),
    );
    const key = ['s3tables', 'jobs', ...tableKey(bucket, namespace, name)];
    const stored = this.store.read<Partial<Record<MaintenanceType, JobStatusValue>>>(key) ?? {};
    for (const run of runs) {
      stored[run.type] = {
        status: run.status,
        lastRunTimestamp: run.at,
        ...(run.failureMessage ? { failureMessage: run.failureMessage } : {}),
      };
    }
    this.store.write(key, stored);
    return runs;
  }
}

/**
 * S3 Tables' compaction strategies (user guide, "Maintenance for tables": auto = sort when the table's metadata
 * declares a sort order, else binpack). The engine's sort writes in the declared order and is a binpack when
 * there is none, so auto and sort both map to it. z-order is not implemented locally: the job fails saying so.
 */
function engineStrategy(strategy: string): 'binpack' | 'sort' {
  if (strategy === 'binpack') return 'binpack';
  if (strategy === 'z-order')
    throw new LocalAwsError(
      'z-order compaction is not supported by the local endpoint; use auto, sort or binpack.',
      { value: strategy },
    );
  return 'sort';
}

const RETENTION_KEYS = ['max-ref-age-ms', 'max-snapshot-age-ms', 'min-snapshots-to-keep'] as const;

/**
 * S3 Tables' rule (user guide, "Considerations and limitations for maintenance jobs", snapshot management): it
 * "does not support retention values you configure as Iceberg table properties in the metadata.json file …
 * including branch or tag-based retention. Snapshot management is disabled when you configure a branch or
 * tag-based retention policy, or configure a retention policy on the metadata.json file that is longer than the
 * values configured through the PutTableMaintenanceConfiguration API." A ref with no retention of its own is not
 * covered by that text: it is left to Iceberg's rules (a tag keeps its one snapshot), and the lab relies on neither.
 */
export function retentionInMetadata(
  metadata: TableMetadata,
  policy: { minSnapshotsToKeep: number; maxSnapshotAgeMs: number },
): { reasons: string[]; refs: string[] } {
  const reasons: string[] = [];
  const refs: string[] = [];
  for (const [name, ref] of Object.entries(metadata.refs)) {
    const set = RETENTION_KEYS.filter((key) => ref[key] !== undefined);
    if (name === 'main' || set.length === 0) continue;
    refs.push(name);
    reasons.push(`${ref.type} ${name} sets ${set.join(', ')}`);
  }
  const maxAge = Number(metadata.properties['history.expire.max-snapshot-age-ms']);
  if (Number.isFinite(maxAge) && maxAge > policy.maxSnapshotAgeMs)
    reasons.push(
      `table property history.expire.max-snapshot-age-ms ${maxAge} exceeds the configured maximum age`,
    );
  const minKeep = Number(metadata.properties['history.expire.min-snapshots-to-keep']);
  if (Number.isFinite(minKeep) && minKeep > policy.minSnapshotsToKeep)
    reasons.push(
      `table property history.expire.min-snapshots-to-keep ${minKeep} exceeds the configured minimum`,
    );
  return { reasons, refs };
}

function bad(message: string): AwsServiceError {
  return wireError('s3tables', 'BadRequestException', message);
}

function optionalBetween(
  value: number | undefined,
  name: string,
  min: number,
  max: number,
): number | undefined {
  if (value === undefined) return undefined;
  if (value < min || value > max) throw bad(`${name} must be between ${min} and ${max}, got ${value}.`);
  return value;
}
