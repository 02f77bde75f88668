// The table-bucket unit: S3 table bucket, namespace and Iceberg table, the lab principals' Lake Formation grants on
// them (through the region's s3tablescatalog, from the s3tables-integration unit), the lab-wide Athena workgroup and
// alerts topic, and the post-destroy check. Every other unit of the lab depends on this one (deployed first,
// destroyed last), so what the whole lab shares lives here: firehose and snapshots read `alerts_topic_arn`.
import type { Construct } from 'constructs';
import type * as athenaWorkgroup from '@cdktf/provider-aws/lib/athena-workgroup';
import type * as iamRole from '@cdktf/provider-aws/lib/iam-role';
import type * as iamRolePolicy from '@cdktf/provider-aws/lib/iam-role-policy';
import type * as s3tablesNamespace from '@cdktf/provider-aws/lib/s3tables-namespace';
import type * as s3tablesTable from '@cdktf/provider-aws/lib/s3tables-table';
import type * as s3tablesTableBucket from '@cdktf/provider-aws/lib/s3tables-table-bucket';
import type * as snsTopic from '@cdktf/provider-aws/lib/sns-topic';
import type * as snsTopicSubscription from '@cdktf/provider-aws/lib/sns-topic-subscription';
import type { ResolvedUnit } from '../lib/contract';
import {
  addDependsOn,
  dependOnEverything,
  dropNamespaceTablesOnDestroy,
  verifyTeardownHook,
} from '../lib/destroy-hooks';
import { refuseAtApply } from '../lib/apply-guard';
import { waitForFederation } from '../lib/deploy-checks';
import { alertAddressProblem, isStrictCommand } from '../lib/policy/rules';
import { policyJson } from '../lib/iam';
import { LabStack, type LabStackOptions } from '../lib/lab-stack';
import { namespaceGrants } from '../lib/namespace-grants';
import { TABLE_BUCKET_OUTPUTS, type TableBucketInputs } from './inputs';
import { labRolePolicy, labRoleTrustPolicy } from './lab-role';
import { awsLib } from '../lib/provider-aws';

const { AthenaWorkgroup } = awsLib<typeof athenaWorkgroup>('athena-workgroup');
const { IamRole } = awsLib<typeof iamRole>('iam-role');
const { IamRolePolicy } = awsLib<typeof iamRolePolicy>('iam-role-policy');
const { S3TablesNamespace } = awsLib<typeof s3tablesNamespace>('s3tables-namespace');
const { S3TablesTable } = awsLib<typeof s3tablesTable>('s3tables-table');
const { S3TablesTableBucket } = awsLib<typeof s3tablesTableBucket>('s3tables-table-bucket');
const { SnsTopic } = awsLib<typeof snsTopic>('sns-topic');
const { SnsTopicSubscription } = awsLib<typeof snsTopicSubscription>('sns-topic-subscription');

export class TableBucketStack extends LabStack<TableBucketInputs> {
  static readonly outputs = TABLE_BUCKET_OUTPUTS;
  readonly tableBucket: s3tablesTableBucket.S3TablesTableBucket;
  readonly table: s3tablesTable.S3TablesTable;
  readonly workgroup: athenaWorkgroup.AthenaWorkgroup;
  readonly alerts: snsTopic.SnsTopic;
  readonly labRole: iamRole.IamRole;

  constructor(scope: Construct, unit: ResolvedUnit<TableBucketInputs>, options: LabStackOptions = {}) {
    super(scope, unit, options);
    const i = unit.inputs;
    const account = this.callerIdentity.accountId;

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
      // SSE-S3. kms_key_arn is set to null below: the provider types encryption_configuration as an object whose
      // type includes kms_key_arn, and cdktf drops an undefined key, so without the override plan stops with
      // 'attribute "kms_key_arn" is required' (terraform-provider-aws#48160). Removing the block is no way out:
      // several 6.x releases then fail with "inconsistent result after apply" (#46033, #46392).
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
    this.tableBucket.addOverride('encryption_configuration.kms_key_arn', null);
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

    // The S3 Tables analytics integration (s3tablescatalog and the Lake Formation registration of bucket/*) is the
    // region-level unit this one depends on: a bucket of the lab is a child catalog of it. A new namespace and table
    // surface in it as a Glue database and table; the grants below wait until they do.
    const integration = this.upstream('s3tables_integration');
    const catalogName = integration.get('glue_catalog_name');
    const tableCatalogId = `${account}:${catalogName}/${i.bucketName}`;
    const federated =
      i.federationWaitSeconds > 0
        ? waitForFederation(this, 'wait-federated-table', {
            catalogId: tableCatalogId,
            database: i.namespace,
            table: i.table.name,
            region: unit.region,
            timeoutSeconds: i.federationWaitSeconds,
            repoRoot: this.repoRoot,
            dependsOn: [namespace, this.table, ...this.upstreamGuards],
            replacedWith: [namespace, this.table],
          })
        : undefined;

    // The lab's SQL runs as this role (the deployer or a lab principal assumes it, whichever runs the lab), which holds the lab's Lake Formation grants here and
    // in ref-data and snapshots; the deployer, a data lake administrator, keeps only its implicit rights.
    this.labRole = new IamRole(this, 'lab-role', {
      name: i.labRoleName,
      description: `loglake lab ${unit.labId}: runs the lab's SQL (Athena in ${i.workgroup.name}, Lake Formation grants on the lab's namespaces)`,
      assumeRolePolicy: policyJson(...labRoleTrustPolicy(this.deployerArn, i.labPrincipalArns)),
    });

    // The lab role plus configured principals get Lake Formation access to the table; Athena queries as them.
    const principals = this.labPrincipals(this.labRole.arn, i.labPrincipalArns);
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
          dependsOn: [this.table, ...this.upstreamGuards, ...(federated ? [federated] : [])],
          replacedWith: [namespace, this.table],
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

    new IamRolePolicy(this, 'lab-role-policy', {
      name: i.labRoleName,
      role: this.labRole.id,
      policy: policyJson(
        ...labRolePolicy({
          arn: (service, resource) => this.arn(service, resource),
          workgroup: this.workgroup.name,
          tableBucket: i.bucketName,
        }),
      ),
    });

    // The lab's alerts: CloudWatch alarms (firehose, snapshots) and the snapshot state machine publish here. No KMS on
    // the topic: CloudWatch alarms cannot publish to a topic encrypted with the AWS-managed SNS key.
    this.alerts = new SnsTopic(this, 'alerts', { name: i.alertsTopicName });
    new SnsTopicSubscription(this, 'alerts-email', {
      topicArn: this.alerts.arn,
      protocol: 'email',
      endpoint: i.alertEmail,
    });

    const outputs: Record<(typeof TABLE_BUCKET_OUTPUTS)[number], string> = {
      table_bucket_arn: this.tableBucket.arn,
      table_bucket_name: this.tableBucket.name,
      namespace: namespace.namespace,
      table_name: this.table.name,
      table_arn: this.table.arn,
      glue_catalog_id: catalogName,
      table_catalog_id: tableCatalogId,
      workgroup_name: this.workgroup.name,
      alerts_topic_arn: this.alerts.arn,
      lab_role_arn: this.labRole.arn,
      lab_role_name: this.labRole.name,
    };
    this.addOutputs(outputs);

    // Synthesized for a plan (or list, synth, output) without a real alert address, the lab policy only warns; an apply
    // of that configuration (say, terraform apply in cdktf.out by hand) must still stop, before it creates anything.
    const addressProblem = alertAddressProblem(i.alertEmail);
    if (addressProblem && !isStrictCommand(this.command) && this.command !== 'destroy') {
      const { guard, marker } = refuseAtApply(
        this,
        'alert-address-guard',
        `The lab's alert subscription ${addressProblem}: this configuration was synthesized for ${this.command}, where that is only a warning, and cannot be applied. Set LOGLAKE_ALERT_EMAIL to the address that receives the lab's alerts and deploy with cdktf deploy (or pnpm lab deploy); nothing was created.`,
      );
      dependOnEverything(this, guard, [marker, ...(hook ? [hook] : [])]);
    }

    if (hook) dependOnEverything(this, hook);
  }
}

export const create = (scope: Construct, unit: ResolvedUnit, options?: LabStackOptions): LabStack =>
  new TableBucketStack(scope, unit as ResolvedUnit<TableBucketInputs>, options);
