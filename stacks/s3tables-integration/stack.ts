// The s3tables-integration unit (region level): the account's S3 Tables analytics integration — the Glue catalog
// `s3tablescatalog` that mounts every table bucket of the region as a child catalog, the Lake Formation registration
// of `arn:aws:s3tables:<region>:<account>:bucket/*` with federation, and the role Lake Formation vends data access
// with. All three exist once per account and region, so they live here, outside any lab: labs depend on this unit,
// `pnpm lab destroy` leaves it in place, and its own destroy runs only when confirmed by name (a destroy deletes the
// catalog and deregisters every table bucket of the region — every S3 Tables user of the account loses Athena and
// Firehose access). In adopt mode the unit creates nothing and checks at apply that an integration is there.
import type { Construct } from 'constructs';
import type * as iamRole from '@cdktf/provider-aws/lib/iam-role';
import type * as iamRolePolicyAttachment from '@cdktf/provider-aws/lib/iam-role-policy-attachment';
import type * as lakeformationResource from '@cdktf/provider-aws/lib/lakeformation-resource';
import type { ResolvedUnit } from '../lib/contract';
import { confirmDestroyGuard, integrationPreflight } from '../lib/deploy-checks';
import { GlueFederatedCatalog } from '../lib/glue-catalog';
import { assumeRolePolicy } from '../lib/iam';
import { LabStack, type LabStackOptions } from '../lib/lab-stack';
import { S3TABLES_INTEGRATION_OUTPUTS, type S3TablesIntegrationInputs } from './inputs';
import { awsLib } from '../lib/provider-aws';

const { IamRole } = awsLib<typeof iamRole>('iam-role');
const { IamRolePolicyAttachment } = awsLib<typeof iamRolePolicyAttachment>('iam-role-policy-attachment');
const { LakeformationResource } = awsLib<typeof lakeformationResource>('lakeformation-resource');

/**
 * AWS's managed policy for the Lake Formation data-access role of S3 Tables (ListTableBuckets on "*", and create,
 * read, write, rename and delete of table buckets, namespaces and tables in the account, plus KMS for encrypted
 * buckets). The lab's Athena DDL (CREATE/DROP TABLE in ref, enriched, lab) runs through this role, so a hand-kept
 * subset falls behind what AWS requires; attaching AWS's own policy keeps the role what AWS documents.
 */
export const LAKE_FORMATION_S3TABLES_POLICY = 'service-role/AmazonS3TablesLakeFormationServiceRole';

/** What create mode manages; adopt mode forgets these rather than destroying them. */
export const CREATE_MODE_ADDRESSES = [
  'aws_glue_catalog.glue-catalog',
  'aws_lakeformation_resource.lakeformation-registration',
  'aws_iam_role_policy_attachment.lakeformation-role-policy',
  'aws_iam_role.lakeformation-role',
  'terraform_data.destroy_guard',
] as const;

export class S3TablesIntegrationStack extends LabStack<S3TablesIntegrationInputs> {
  static readonly outputs = S3TABLES_INTEGRATION_OUTPUTS;
  readonly catalog?: GlueFederatedCatalog;
  readonly registration?: lakeformationResource.LakeformationResource;

  constructor(
    scope: Construct,
    unit: ResolvedUnit<S3TablesIntegrationInputs>,
    options: LabStackOptions = {},
  ) {
    super(scope, unit, options);
    const i = unit.inputs;
    const account = this.callerIdentity.accountId;
    const partition = this.partition;
    const resourceArn = `arn:${partition}:s3tables:${unit.region}:${account}:bucket/*`;

    const preflight = i.checks.enabled
      ? integrationPreflight(this, 'preflight', {
          mode: i.mode,
          catalogName: i.catalogName,
          resourceArn,
          region: unit.region,
          unitFile: `units/${unit.path}.ts`,
          repoRoot: this.repoRoot,
        })
      : undefined;

    if (i.mode === 'create') {
      // Trust as Lake Formation documents it for a data-access role: the service, AssumeRole plus the session
      // context actions, and no condition keys (a positive condition on a key Lake Formation does not send would
      // deny the assume-role, and with it every query and every Firehose delivery).
      const role = new IamRole(this, 'lakeformation-role', {
        name: i.dataAccessRoleName,
        assumeRolePolicy: assumeRolePolicy('lakeformation.amazonaws.com', [
          'sts:SetSourceIdentity',
          'sts:SetContext',
        ]),
        dependsOn: preflight ? [preflight] : undefined,
      });
      const policy = new IamRolePolicyAttachment(this, 'lakeformation-role-policy', {
        role: role.name,
        policyArn: `arn:${partition}:iam::aws:policy/${LAKE_FORMATION_S3TABLES_POLICY}`,
      });
      // Both wait for the role's policy (the provider's own acceptance test puts it in depends_on): registering
      // with a role that cannot yet act leaves CreateCatalog failing on "Invalid role provided".
      const registration = new LakeformationResource(this, 'lakeformation-registration', {
        arn: resourceArn,
        roleArn: role.arn,
        withFederation: true,
        withPrivilegedAccess: true,
        dependsOn: [policy, ...(preflight ? [preflight] : [])],
      });
      this.registration = registration;
      const catalog = new GlueFederatedCatalog(this, 'glue-catalog', {
        name: i.catalogName,
        description: 'S3 Tables federated catalog: every table bucket of the region as a child catalog',
        federatedCatalog: { identifier: resourceArn, connectionName: 'aws:s3tables' },
        dependsOn: [registration, policy, ...(preflight ? [preflight] : [])],
      });
      this.catalog = catalog;
      if (i.checks.enabled) {
        // Depends on everything, so a destroy runs it first and stops there unless the unit is named.
        confirmDestroyGuard(this, 'destroy-guard', {
          unit: unit.name,
          consequence: `destroying it deletes the Glue catalog ${i.catalogName} and deregisters every table bucket of ${unit.region} (${resourceArn}) from Lake Formation, so every S3 Tables user of this account and region loses Athena, Firehose and other analytics access, not only this lab.`,
          repoRoot: this.repoRoot,
          dependsOn: [catalog, registration, policy, role],
          replacedWith: [catalog, registration, role],
        });
      }
    }

    if (i.mode === 'adopt') {
      // A unit switched from create to adopt (as the preflight advises when it finds an integration) would otherwise
      // plan to destroy what it created, and the destroy guard cannot stop that: a destroy-time provisioner does not
      // run once its resource is gone from the configuration. `removed … destroy = false` makes Terraform forget them
      // instead (Terraform >= 1.7; a no-op where they were never created).
      this.addOverride(
        'removed',
        CREATE_MODE_ADDRESSES.map((from) => ({ from, lifecycle: { destroy: false } })),
      );
    }

    const outputs: Record<(typeof S3TABLES_INTEGRATION_OUTPUTS)[number], string> = {
      glue_catalog_name: this.catalog?.nameAttr ?? i.catalogName,
      federated_resource_arn: this.registration?.arn ?? resourceArn,
      integration_mode: i.mode,
    };
    this.addOutputs(outputs);
  }
}

export const create = (scope: Construct, unit: ResolvedUnit, options?: LabStackOptions): LabStack =>
  new S3TablesIntegrationStack(scope, unit as ResolvedUnit<S3TablesIntegrationInputs>, options);
