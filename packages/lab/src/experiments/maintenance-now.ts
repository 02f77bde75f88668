// Table maintenance "now", where a target allows it. Locally the endpoint runs S3 Tables' jobs on request and its
// maintenance clock can be advanced (the lab starts it with an adjustable clock); on AWS maintenance runs on
// S3 Tables' own schedule and nothing can trigger it, so these answer null and the experiments say so.
import {
  GetTableMaintenanceConfigurationCommand,
  PutTableMaintenanceConfigurationCommand,
} from '@aws-sdk/client-s3tables';
import {
  advanceLocalMaintenanceClock,
  runLocalMaintenance,
  type MaintenanceRunReport,
} from '@loglake/local-aws';
import { flowTableAddress } from '../iceberg/catalog';
import type { ExperimentContext } from './context';

export async function runMaintenanceNow(ctx: ExperimentContext): Promise<MaintenanceRunReport[] | null> {
  const { target } = ctx;
  if (!target.localUrl) return null;
  const r = target.resources;
  return runLocalMaintenance(target.localUrl, {
    bucket: r.tableBucketName,
    namespace: r.namespace,
    table: r.table,
  });
}

export async function advanceMaintenanceClock(ctx: ExperimentContext, hours: number): Promise<Date | null> {
  return ctx.target.localUrl ? advanceLocalMaintenanceClock(ctx.target.localUrl, hours) : null;
}

export interface SnapshotWindow {
  minSnapshotsToKeep: number;
  maxSnapshotAgeHours: number;
  status: string;
}

/** The flow table's snapshot management settings as S3 Tables reports them (GetTableMaintenanceConfiguration). */
export async function snapshotWindow(ctx: ExperimentContext): Promise<SnapshotWindow> {
  const r = ctx.target.resources;
  const config = await ctx.target.s3tables.send(
    new GetTableMaintenanceConfigurationCommand(flowTableAddress(r)),
  );
  const entry = config.configuration?.['icebergSnapshotManagement'];
  const settings = entry?.settings?.icebergSnapshotManagement;
  return {
    minSnapshotsToKeep: settings?.minSnapshotsToKeep ?? r.maintenance.minSnapshotsToKeep,
    maxSnapshotAgeHours: settings?.maxSnapshotAgeHours ?? r.maintenance.maxSnapshotAgeHours,
    status: entry?.status ?? 'unknown',
  };
}

/** Sets the flow table's compaction strategy, keeping the unit's target file size (PutTableMaintenanceConfiguration). */
export async function setCompactionStrategy(ctx: ExperimentContext, strategy: 'sort'): Promise<void> {
  const r = ctx.target.resources;
  await ctx.target.s3tables.send(
    new PutTableMaintenanceConfigurationCommand({
      ...flowTableAddress(r),
      type: 'icebergCompaction',
      value: {
        status: 'enabled',
        settings: {
          icebergCompaction: { targetFileSizeMB: r.maintenance.compactionTargetFileSizeMb, strategy },
        },
      },
    }),
  );
}

export const snapshotManagementRun = (runs: MaintenanceRunReport[] | null) =>
  runs?.find((run) => run.type === 'icebergSnapshotManagement');
export const compactionRun = (runs: MaintenanceRunReport[] | null) =>
  runs?.find((run) => run.type === 'icebergCompaction');
