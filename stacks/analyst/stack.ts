// The analyst unit: a read-only role for the lab's analysts. IAM lets it query in the lab workgroup and read the
// results; Lake Formation lets it SELECT and DESCRIBE the tables of the unit's namespaces (network, ref, enriched)
// and nothing else: no writes, no DDL, no error bucket, no Firehose, no table maintenance. Who may assume it: the
// deployer (the lab's analyst experiment) and the unit's trusted principals.
import type { Construct } from 'constructs';
import type * as athenaWorkgroup from '@cdktf/provider-aws/lib/athena-workgroup';
import type * as iamRole from '@cdktf/provider-aws/lib/iam-role';
import type * as iamRolePolicy from '@cdktf/provider-aws/lib/iam-role-policy';
import type { ResolvedUnit } from '../lib/contract';
import { addDependsOn } from '../lib/destroy-hooks';
import { policyJson } from '../lib/iam';
import { LabStack, type LabStackOptions } from '../lib/lab-stack';
import { namespaceGrants } from '../lib/namespace-grants';
import { awsLib } from '../lib/provider-aws';
import { ANALYST_OUTPUTS, type AnalystInputs } from './inputs';
import { analystPolicy, analystTrustPolicy } from './policies';

const { AthenaWorkgroup } = awsLib<typeof athenaWorkgroup>('athena-workgroup');
const { IamRole } = awsLib<typeof iamRole>('iam-role');
const { IamRolePolicy } = awsLib<typeof iamRolePolicy>('iam-role-policy');

/** Lake Formation grants of a reader: see the namespace and its tables, read the tables. */
export const ANALYST_DATABASE_PERMISSIONS = ['DESCRIBE'] as const;
export const ANALYST_TABLE_PERMISSIONS = ['SELECT', 'DESCRIBE'] as const;

export class AnalystStack extends LabStack<AnalystInputs> {
  static readonly outputs = ANALYST_OUTPUTS;
  readonly role: iamRole.IamRole;
  readonly workgroup: athenaWorkgroup.AthenaWorkgroup;

  constructor(scope: Construct, unit: ResolvedUnit<AnalystInputs>, options: LabStackOptions = {}) {
    super(scope, unit, options);
    const i = unit.inputs;
    const tb = this.upstream('table_bucket');
    // The namespaces ref-data owns must exist (and have surfaced in s3tablescatalog) before they are granted on.
    this.upstream('ref_data');
    const account = this.callerIdentity.accountId;
    const arn = (service: string, resource: string) => this.arn(service, resource);

    // The analysts' own workgroup: query history and results are per workgroup, and Lake Formation does not govern
    // them, so the role works here and nowhere else (not in the lab's shared workgroup).
    this.workgroup = new AthenaWorkgroup(this, 'workgroup', {
      name: i.workgroup.name,
      description: `loglake lab ${unit.labId}: the analysts' queries (read-only role ${i.roleName}), each capped at ${i.workgroup.bytesScannedCutoffPerQuery} bytes scanned`,
      forceDestroy: true,
      configuration: {
        enforceWorkgroupConfiguration: true,
        bytesScannedCutoffPerQuery: i.workgroup.bytesScannedCutoffPerQuery,
        publishCloudwatchMetricsEnabled: true,
        engineVersion: { selectedEngineVersion: 'Athena engine version 3' },
        managedQueryResultsConfiguration: { enabled: true },
      },
    });
    this.role = new IamRole(this, 'role', {
      name: i.roleName,
      description: `loglake lab ${unit.labId}: read-only analyst (query the lab's tables; no writes)`,
      assumeRolePolicy: policyJson(...analystTrustPolicy([this.deployerArn, ...i.trustedPrincipalArns])),
      maxSessionDuration: i.maxSessionDurationSeconds,
    });
    const rolePolicy = new IamRolePolicy(this, 'role-policy', {
      name: i.roleName,
      role: this.role.id,
      policy: policyJson(
        ...analystPolicy({
          arn,
          workgroup: this.workgroup.name,
          tableBucket: tb.get('table_bucket_name'),
          namespaces: i.namespaces,
        }),
      ),
    });
    const grants = i.namespaces.flatMap((namespace) =>
      namespaceGrants(
        this,
        { database: `lf-${namespace}-database`, tables: `lf-${namespace}-tables` },
        {
          principal: this.role.arn,
          account,
          tableCatalogId: tb.get('table_catalog_id'),
          namespace,
          databasePermissions: ANALYST_DATABASE_PERMISSIONS,
          tablePermissions: ANALYST_TABLE_PERMISSIONS,
        },
      ),
    );
    for (const r of [this.role, rolePolicy, ...grants]) addDependsOn(r, this.upstreamGuards);

    const outputs: Record<(typeof ANALYST_OUTPUTS)[number], string> = {
      role_arn: this.role.arn,
      role_name: this.role.name,
      analyst_workgroup: this.workgroup.name,
    };
    this.addOutputs(outputs);
  }
}

export const create = (scope: Construct, unit: ResolvedUnit, options?: LabStackOptions): LabStack =>
  new AnalystStack(scope, unit as ResolvedUnit<AnalystInputs>, options);
