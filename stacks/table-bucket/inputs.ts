// Inputs of the table-bucket unit (the catalog module's "variables"): types, defaults and validation. Pure.
import { FLOW_LOG_V2_SCHEMA } from '@loglake/flowgen';
import type { InputsSpec, UnitContext } from '../lib/contract';
import { FieldReader, IAM_ARN_RE, IDENT_RE } from '../lib/fields';
import { ATHENA_MIN_CUTOFF } from '../lib/policy/rules';

export type IcebergType = 'int' | 'long' | 'string' | 'timestamp' | 'boolean' | 'double' | 'date';

export interface IcebergColumn {
  readonly name: string;
  readonly type: IcebergType;
  readonly required?: boolean;
}

/** VPC flow-log v2 fields, start/end as timestamps: the schema flowgen's records have (one definition). */
export const VPC_FLOW_LOG_COLUMNS: readonly IcebergColumn[] = FLOW_LOG_V2_SCHEMA;

export const GIB = 1024 * 1024 * 1024;

export interface TableBucketInputs {
  /** S3 table bucket name; defaults to `<prefix>-<labId>-flow-logs`. */
  readonly bucketName: string;
  /** Bucket-level unreferenced-file removal: days until unreferenced files become noncurrent / are deleted. */
  readonly unreferencedFileRemoval: {
    readonly enabled: boolean;
    readonly unreferencedDays: number;
    readonly nonCurrentDays: number;
  };
  readonly namespace: string;
  readonly table: { readonly name: string; readonly columns: readonly IcebergColumn[] };
  readonly maintenance: {
    readonly compactionTargetFileSizeMb: number;
    /** The undo window: snapshots younger than this (and at least minSnapshotsToKeep) survive expiry. */
    readonly minSnapshotsToKeep: number;
    readonly maxSnapshotAgeHours: number;
  };
  readonly workgroup: {
    readonly name: string;
    readonly bytesScannedCutoffPerQuery: number;
    readonly engineVersion: string;
  };
  /**
   * The role the lab's SQL runs as (`<prefix>-lab`; the deployer assumes it). Not the deployer itself: the deployer
   * must be a Lake Formation data lake administrator, and grants to an administrator read back its implicit
   * permissions, so they churn on every plan and fail to revoke on destroy (the provider's aws_lakeformation_permissions
   * docs: the principal should not be an administrator). The administrator keeps its implicit rights; this role gets
   * the grants.
   */
  readonly labRoleName: string;
  /** Other principals (IAM role/user ARNs, not data lake administrators) that run the lab's SQL, granted the same. */
  readonly labPrincipalArns: readonly string[];
  /**
   * How long apply waits, at most, for the new namespace and table to be visible through s3tablescatalog before
   * granting Lake Formation permissions on them (0: do not wait).
   */
  readonly federationWaitSeconds: number;
  /** How often the post-destroy verifier retries (eventual consistency). */
  readonly verifyTeardown: { readonly enabled: boolean; readonly checkAttempts: number };
  /**
   * Where the lab's alerts go: the lab-wide SNS topic's email subscription (Firehose's failed-rows alarm, the daily
   * snapshot's failures and staleness). Required for apply (the lab policy refuses a missing or placeholder address
   * then: SNS delivers nothing until the address confirms its subscription); may be empty offline and for a plan.
   * The unit file reads it from LOGLAKE_ALERT_EMAIL.
   */
  readonly alertEmail: string;
  /** The lab-wide alerts topic (`<prefix>-alerts`). */
  readonly alertsTopicName: string;
}

export const TABLE_BUCKET_OUTPUTS = [
  'table_bucket_arn',
  'table_bucket_name',
  'namespace',
  'table_name',
  'table_arn',
  'glue_catalog_id',
  'table_catalog_id',
  'workgroup_name',
  'alerts_topic_arn',
  'lab_role_arn',
  'lab_role_name',
] as const;

const EMAIL = /^[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}$/;

/** The alert address: empty (offline, plan) or an email address (the policy refuses a placeholder at apply). */
export function readAlertEmail(r: FieldReader, raw: Readonly<Record<string, unknown>>): string {
  const value = raw.alertEmail;
  return value === undefined || value === ''
    ? ''
    : r.string('alertEmail', '', {
        re: EMAIL,
        fix: 'give the address that receives the lab\'s alerts, e.g. "data-eng@your-company.com"',
      });
}

/** The lab's principals and the federation wait, shared by the units that grant on S3 Tables namespaces. */
export function readLabPrincipals(r: FieldReader): string[] {
  return r.strings('labPrincipalArns', [], { re: IAM_ARN_RE, fix: 'give IAM role or user ARNs' });
}

export function readFederationWait(r: FieldReader): number {
  return r.int('federationWaitSeconds', 180, {
    min: 0,
    max: 900,
    why: 'seconds apply waits for a new namespace to surface in s3tablescatalog (0: no wait)',
  });
}

const COLUMN_TYPES: readonly IcebergType[] = [
  'int',
  'long',
  'string',
  'timestamp',
  'boolean',
  'double',
  'date',
];

function resolveColumns(r: FieldReader, raw: unknown): IcebergColumn[] {
  if (raw === undefined) return [...VPC_FLOW_LOG_COLUMNS];
  if (!Array.isArray(raw) || raw.length === 0) {
    return r.fail('columns', 'must be a non-empty list of { name, type }', 'list the Iceberg columns', raw);
  }
  return raw.map((c: unknown, i: number) => {
    const col = c as Partial<IcebergColumn>;
    if (typeof col?.name !== 'string' || !IDENT_RE.test(col.name)) {
      return r.fail(
        `columns[${i}].name`,
        `is ${JSON.stringify(col?.name)}`,
        'use a lower-case identifier',
        c,
      );
    }
    if (!COLUMN_TYPES.includes(col.type as IcebergType)) {
      return r.fail(
        `columns[${i}].type`,
        `is ${JSON.stringify(col.type)}`,
        `use one of ${COLUMN_TYPES.join(', ')}`,
        c,
      );
    }
    return { name: col.name, type: col.type as IcebergType, ...(col.required ? { required: true } : {}) };
  });
}

export const spec: InputsSpec<TableBucketInputs> = {
  stack: 'table-bucket',
  outputs: TABLE_BUCKET_OUTPUTS,
  resolveInputs(raw, unit: UnitContext): TableBucketInputs {
    const r = new FieldReader(unit.name, raw);
    const ufr = r.child('unreferencedFileRemoval');
    const table = r.child('table');
    const maint = r.child('maintenance');
    const wg = r.child('workgroup');
    const vt = r.child('verifyTeardown');
    const namePattern = (what: string) => ({
      re: new RegExp(`^${unit.namePrefix}-?[a-z0-9-]*$`),
      fix: `${what} must start with the lab prefix "${unit.namePrefix}" and use a-z, 0-9 and -`,
    });
    return {
      bucketName: r.string(
        'bucketName',
        `${unit.namePrefix}-flow-logs`,
        namePattern('the table bucket name'),
      ),
      unreferencedFileRemoval: {
        enabled: ufr.bool('enabled', true),
        unreferencedDays: ufr.int('unreferencedDays', 3, { min: 1 }),
        nonCurrentDays: ufr.int('nonCurrentDays', 10, { min: 1 }),
      },
      namespace: r.string('namespace', 'network', {
        re: IDENT_RE,
        fix: 'use a lower-case identifier (a-z, 0-9, _)',
      }),
      table: {
        name: table.string('name', 'vpc_flow_logs', {
          re: IDENT_RE,
          fix: 'use a lower-case identifier (a-z, 0-9, _)',
        }),
        columns: resolveColumns(table, table.raw_('columns')),
      },
      maintenance: {
        compactionTargetFileSizeMb: maint.int('compactionTargetFileSizeMb', 512, {
          min: 64,
          max: 512,
          why: 'S3 Tables accepts 64–512 MB',
        }),
        minSnapshotsToKeep: maint.int('minSnapshotsToKeep', 1, { min: 1 }),
        maxSnapshotAgeHours: maint.int('maxSnapshotAgeHours', 120, { min: 1 }),
      },
      workgroup: {
        name: wg.string('name', unit.namePrefix, namePattern('the workgroup name')),
        bytesScannedCutoffPerQuery: wg.int('bytesScannedCutoffPerQuery', GIB, {
          min: ATHENA_MIN_CUTOFF,
          why: "Athena's minimum per-query cutoff is 10 MiB = 10485760 bytes",
        }),
        engineVersion: wg.string('engineVersion', 'Athena engine version 3', {
          re: /^Athena engine version 3$/,
          fix: 'the lab needs "Athena engine version 3" (Iceberg DML, time travel)',
        }),
      },
      labRoleName: r.string('labRoleName', `${unit.namePrefix}-lab`, {
        re: new RegExp(`^${unit.namePrefix}-[A-Za-z0-9+=,.@_-]{1,40}$`),
        fix: `the role name must start with "${unit.namePrefix}-" (IAM: letters, digits and +=,.@_-)`,
      }),
      labPrincipalArns: readLabPrincipals(r),
      federationWaitSeconds: readFederationWait(r),
      verifyTeardown: {
        enabled: vt.bool('enabled', true),
        checkAttempts: vt.int('checkAttempts', 4, { min: 1, max: 20 }),
      },
      alertEmail: readAlertEmail(r, raw),
      alertsTopicName: r.string(
        'alertsTopicName',
        `${unit.namePrefix}-alerts`,
        namePattern('the alerts topic name'),
      ),
    };
  },
};
