// The table-bucket unit: S3 table bucket, namespace and Iceberg table, the s3tablescatalog federated catalog with
// the Lake Formation registration Athena and Firehose need, the Athena workgroup, and the post-destroy check.
import type { Construct } from 'constructs';
import type * as athenaWorkgroup from '@cdktf/provider-aws/lib/athena-workgroup';
import type * as dataAwsCallerIdentity from '@cdktf/provider-aws/lib/data-aws-caller-identity';
import type * as dataAwsIamSessionContext from '@cdktf/provider-aws/lib/data-aws-iam-session-context';
import type * as iamRole from '@cdktf/provider-aws/lib/iam-role';
import type * as iamRolePolicy from '@cdktf/provider-aws/lib/iam-role-policy';
import type * as lakeformationResource from '@cdktf/provider-aws/lib/lakeformation-resource';
import type * as s3tablesNamespace from '@cdktf/provider-aws/lib/s3tables-namespace';
import type * as s3tablesTable from '@cdktf/provider-aws/lib/s3tables-table';
import type * as s3tablesTableBucket from '@cdktf/provider-aws/lib/s3tables-table-bucket';
import type { ResolvedUnit } from '../lib/contract';
import {
  addDependsOn,
  dependOnEverything,
  dropNamespaceTablesOnDestroy,
  verifyTeardownHook,
} from '../lib/destroy-hooks';
import { GlueFederatedCatalog } from '../lib/glue-catalog';
import { assumeRolePolicy, policyJson } from '../lib/iam';
import { LabStack, type LabStackOptions } from '../lib/lab-stack';
import { namespaceGrants } from '../lib/namespace-grants';
import { TABLE_BUCKET_OUTPUTS, type TableBucketInputs } from './inputs';
import { awsLib } from '../lib/provider-aws';

const { AthenaWorkgroup } = awsLib<typeof athenaWorkgroup>('athena-workgroup');
const { DataAwsCallerIdentity } = awsLib<typeof dataAwsCallerIdentity>('data-aws-caller-identity');
const { DataAwsIamSessionContext } = awsLib<typeof dataAwsIamSessionContext>('data-aws-iam-session-context');
const { IamRole } = awsLib<typeof iamRole>('iam-role');
const { IamRolePolicy } = awsLib<typeof iamRolePolicy>('iam-role-policy');
const { LakeformationResource } = awsLib<typeof lakeformationResource>('lakeformation-resource');
const { S3TablesNamespace } = awsLib<typeof s3tablesNamespace>('s3tables-namespace');
const { S3TablesTable } = awsLib<typeof s3tablesTable>('s3tables-table');
const { S3TablesTableBucket } = awsLib<typeof s3tablesTableBucket>('s3tables-table-bucket');

export class TableBucketStack extends LabStack<TableBucketInputs> {
  static readonly outputs = TABLE_BUCKET_OUTPUTS;
  readonly tableBucket: s3tablesTableBucket.S3TablesTableBucket;
  readonly table: s3tablesTable.S3TablesTable;
  readonly workgroup: athenaWorkgroup.AthenaWorkgroup;

  constructor(scope: Construct, unit: ResolvedUnit<TableBucketInputs>, options: LabStackOptions = {}) {
    super(scope, unit, options);
    const i = unit.inputs;
    const account = new DataAwsCallerIdentity(this, 'account').accountId;
    const s3tablesBuckets = `arn:aws:s3tables:${unit.region}:${account}:bucket/*`;

    const hook = i.verifyTeardown.enabled
      ? verifyTeardownHook(this, 'verify-teardown', {
          labId: unit.labId,
          region: unit.region,
          checkAttempts: i.verifyTeardown.checkAttempts,
          repoRoot: this.repoRoot,
        })
      : undefined;

    this.tableBucket = new S3TablesTableBucket(this, 'table-bucket', {
      name: i.bucketName,
      encryptionConfiguration: { sseAlgorithm: 'AES256' },
      maintenanceConfiguration: {
        icebergUnreferencedFileRemoval: {
          status: i.unreferencedFileRemoval.enabled ? 'enabled' : 'disabled',
          settings: {
            unreferencedDays: i.unreferencedFileRemoval.unreferencedDays,
            nonCurrentDays: i.unreferencedFileRemoval.nonCurrentDays,
          },
        },
      },
    });
    const namespace = new S3TablesNamespace(this, 'namespace', {
      namespace: i.namespace,
      tableBucketArn: this.tableBucket.arn,
    });
    this.table = new S3TablesTable(this, 'table', {
      name: i.table.name,
      namespace: namespace.namespace,
      tableBucketArn: this.tableBucket.arn,
      format: 'ICEBERG',
      metadata: [
        {
          iceberg: [
            {
              schema: [
                {
                  field: i.table.columns.map((c) => ({
                    name: c.name,
                    type: c.type,
                    required: c.required ?? false,
                  })),
                },
              ],
            },
          ],
        },
      ],
      maintenanceConfiguration: {
        icebergCompaction: {
          status: 'enabled',
          settings: { targetFileSizeMb: i.maintenance.compactionTargetFileSizeMb },
        },
        icebergSnapshotManagement: {
          status: 'enabled',
          settings: {
            minSnapshotsToKeep: i.maintenance.minSnapshotsToKeep,
            maxSnapshotAgeHours: i.maintenance.maxSnapshotAgeHours,
          },
        },
      },
    });
    // SQL may add tables to this namespace too; drop those (not the Terraform-managed one) before the namespace goes.
    const reaper = dropNamespaceTablesOnDestroy(this, 'drop-sql-tables', {
      tableBucketArn: this.tableBucket.arn,
      namespace: i.namespace,
      region: unit.region,
      keep: [i.table.name],
      repoRoot: this.repoRoot,
    });
    addDependsOn(reaper, [namespace, this.table]);

    // Lake Formation integration (what the console does for you): a role Lake Formation uses to vend credentials
    // for the region's table buckets, the registration of bucket/* with federation, then the federated catalog.
    const lfRole = new IamRole(this, 'lakeformation-role', {
      name: this.name('lakeformation-s3tables'),
      assumeRolePolicy: assumeRolePolicy(
        'lakeformation.amazonaws.com',
        ['sts:SetSourceIdentity', 'sts:SetContext'],
        account,
      ),
    });
    new IamRolePolicy(this, 'lakeformation-role-policy', {
      name: this.name('lakeformation-s3tables'),
      role: lfRole.id,
      policy: policyJson(
        {
          Sid: 'ListBuckets',
          Effect: 'Allow',
          Action: ['s3tables:ListTableBuckets'],
          Resource: `arn:aws:s3tables:${unit.region}:${account}:bucket/*`,
        },
        {
          Sid: 'TableData',
          Effect: 'Allow',
          Action: [
            's3tables:GetTableBucket',
            's3tables:GetNamespace',
            's3tables:ListNamespaces',
            's3tables:GetTable',
            's3tables:ListTables',
            's3tables:GetTableMetadataLocation',
            's3tables:UpdateTableMetadataLocation',
            's3tables:GetTableData',
            's3tables:PutTableData',
          ],
          Resource: [s3tablesBuckets, `${s3tablesBuckets}/table/*`],
        },
      ),
    });
    const registration = new LakeformationResource(this, 'lakeformation-registration', {
      arn: s3tablesBuckets,
      roleArn: lfRole.arn,
      withFederation: true,
      withPrivilegedAccess: true,
    });
    const catalog = i.glueCatalog.manage
      ? new GlueFederatedCatalog(this, 'glue-catalog', {
          name: i.glueCatalog.name,
          description: 'S3 Tables federated catalog: every table bucket of the region as a child catalog',
          federatedCatalog: { identifier: s3tablesBuckets, connectionName: 'aws:s3tables' },
          dependsOn: [registration],
        })
      : undefined;

    // The lab's own principal (whoever deploys and runs the SQL) plus configured ones get Lake Formation access to
    // the table; Athena queries as that principal.
    const session = new DataAwsIamSessionContext(this, 'deployer', {
      arn: new DataAwsCallerIdentity(this, 'deployer-identity').arn,
    });
    const tableCatalogId = `${account}:${i.glueCatalog.name}/${i.bucketName}`;
    const principals: Array<{ id: string; arn: string }> = [
      { id: 'deployer', arn: session.issuerArn },
      ...i.labPrincipalArns.map((arn, n) => ({ id: `principal-${n}`, arn })),
    ];
    for (const p of principals) {
      namespaceGrants(
        this,
        { database: `lf-${p.id}-database`, tables: `lf-${p.id}-tables` },
        {
          principal: p.arn,
          account,
          tableCatalogId,
          namespace: i.namespace,
          databasePermissions: ['DESCRIBE', 'CREATE_TABLE'],
          tablePermissions: ['ALL'],
          dependsOn: [registration, this.table, ...(catalog ? [catalog] : [])],
        },
      );
    }

    this.workgroup = new AthenaWorkgroup(this, 'workgroup', {
      name: i.workgroup.name,
      description: `loglake lab ${unit.labId}: every query capped at ${i.workgroup.bytesScannedCutoffPerQuery} bytes scanned`,
      forceDestroy: true,
      configuration: {
        enforceWorkgroupConfiguration: true,
        bytesScannedCutoffPerQuery: i.workgroup.bytesScannedCutoffPerQuery,
        publishCloudwatchMetricsEnabled: true,
        engineVersion: { selectedEngineVersion: i.workgroup.engineVersion },
        // Results go to Athena's managed storage: no results bucket to secure or clean up.
        managedQueryResultsConfiguration: { enabled: true },
      },
    });

    const outputs: Record<(typeof TABLE_BUCKET_OUTPUTS)[number], string> = {
      table_bucket_arn: this.tableBucket.arn,
      table_bucket_name: this.tableBucket.name,
      namespace: namespace.namespace,
      table_name: this.table.name,
      table_arn: this.table.arn,
      glue_catalog_id: i.glueCatalog.name,
      table_catalog_id: tableCatalogId,
      workgroup_name: this.workgroup.name,
    };
    this.addOutputs(outputs);

    if (hook) dependOnEverything(this, hook);
  }
}

export const create = (scope: Construct, unit: ResolvedUnit, options?: LabStackOptions): LabStack =>
  new TableBucketStack(scope, unit as ResolvedUnit<TableBucketInputs>, options);
