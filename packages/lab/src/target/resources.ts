// What the lab needs to know about its AWS resources, whichever target it runs against: names come from the
// units' resolved values and the synthesized stacks (local) or the deployed stacks' outputs (aws).
import type { LabRoles } from './lab-roles';

import type { IcebergColumn } from '@loglake/stacks/inputs';
import type { FailedRowsAlarmDefinition } from '@loglake/units';

export type TargetKind = 'local' | 'aws';

/** A column of the flow table, as its table-bucket unit declares it (one type union, the stacks'). */
export type FlowColumn = IcebergColumn;

export interface LabResources {
  region: string;
  accountId: string;
  tableBucketName: string;
  /** The flow table's namespace and name (network.vpc_flow_logs by default). */
  namespace: string;
  table: string;
  columns: FlowColumn[];
  /** SQL-owned namespaces (ref, enriched, lab). */
  sqlNamespaces: string[];
  streamName: string;
  buffering: { sizeMb: number; intervalSeconds: number };
  errorBucketName: string;
  /** Key prefix of Firehose's error output in the error bucket (the table's S3ErrorOutputPrefix). */
  errorPrefix: string;
  /**
   * The stream's failed-rows alarm and the lab's alerts topic it notifies. undefined on AWS when the deployed stacks
   * predate them (the bad-records experiment is then skipped, saying which outputs are missing).
   */
  failedRowsAlarm?: FailedRowsAlarmDefinition;
  workgroup: string;
  bytesScannedCutoff: number;
  /**
   * The analysts' own workgroup (the analyst unit's): the only one the analyst role may query in. Undefined when the
   * lab has no analyst unit, or its deployed stack predates the workgroup.
   */
  analystWorkgroup?: { name: string; bytesScannedCutoff: number };
  maintenance: {
    compactionTargetFileSizeMb: number;
    minSnapshotsToKeep: number;
    maxSnapshotAgeHours: number;
  };
  /** The roles the lab acts as besides its own credentials (Firehose's, the analyst's, the snapshot Lambdas'). */
  roles: LabRoles;
}

/** Athena's catalog for a table bucket through the federated s3tablescatalog. */
export function athenaCatalog(resources: Pick<LabResources, 'tableBucketName'>): string {
  return `s3tablescatalog/${resources.tableBucketName}`;
}
