// The ref-data unit: namespaces for reference data, the enriched table and experiments. Terraform owns the
// namespaces, SQL owns the tables in them; on destroy each namespace's tables are dropped first (S3 Tables refuses
// to delete a namespace that still has tables), then the namespace goes.
import { Fn } from 'cdktf';
import type { Construct } from 'constructs';
import type * as s3tablesNamespace from '@cdktf/provider-aws/lib/s3tables-namespace';
import type { ResolvedUnit } from '../lib/contract';
import { waitForFederation } from '../lib/deploy-checks';
import { addDependsOn, dropNamespaceTablesOnDestroy } from '../lib/destroy-hooks';
import { LabStack, type LabStackOptions } from '../lib/lab-stack';
import { namespaceGrants } from '../lib/namespace-grants';
import { REF_DATA_OUTPUTS, type RefDataInputs } from './inputs';
import { awsLib } from '../lib/provider-aws';

const { S3TablesNamespace } = awsLib<typeof s3tablesNamespace>('s3tables-namespace');

export class RefDataStack extends LabStack<RefDataInputs> {
  static readonly outputs = REF_DATA_OUTPUTS;
  readonly namespaces: s3tablesNamespace.S3TablesNamespace[] = [];

  constructor(scope: Construct, unit: ResolvedUnit<RefDataInputs>, options: LabStackOptions = {}) {
    super(scope, unit, options);
    const tb = this.upstream('table_bucket');
    const bucketArn = tb.get('table_bucket_arn');
    const guards = this.upstreamGuards;
    const account = this.callerIdentity.accountId;
    // The bucket's catalog as the table-bucket unit names it (the integration's catalog, which may be adopted).
    const catalogId = tb.get('table_catalog_id');
    // Who runs the lab's SQL: table-bucket's lab role and the unit's lab principals (never the deployer, an admin).
    const principals = this.labPrincipals(tb.get('lab_role_arn'), unit.inputs.labPrincipalArns);

    for (const name of unit.inputs.namespaces) {
      const ns = new S3TablesNamespace(this, `namespace-${name}`, {
        namespace: name,
        tableBucketArn: bucketArn,
        dependsOn: guards,
      });
      this.namespaces.push(ns);
      if (unit.inputs.dropTablesOnDestroy) {
        const reaper = dropNamespaceTablesOnDestroy(this, `drop-tables-${name}`, {
          tableBucketArn: bucketArn,
          namespace: name,
          region: unit.region,
          keep: [],
          repoRoot: this.repoRoot,
        });
        addDependsOn(reaper, [ns]);
      }
      // The namespace surfaces in s3tablescatalog as a Glue database; Lake Formation grants on it fail (not retried)
      // until it has, so they wait for it.
      const federated =
        unit.inputs.federationWaitSeconds > 0
          ? waitForFederation(this, `wait-federated-${name}`, {
              catalogId,
              database: name,
              region: unit.region,
              timeoutSeconds: unit.inputs.federationWaitSeconds,
              repoRoot: this.repoRoot,
              dependsOn: [ns, ...guards],
              replacedWith: [ns],
            })
          : undefined;
      // The lab's SQL (run as the lab role and by the lab principals) creates, reads and drops the tables here.
      for (const p of principals) {
        namespaceGrants(
          this,
          {
            database: `lf-${name}-${p.id === 'lab' ? '' : `${p.id}-`}database`,
            tables: `lf-${name}-${p.id === 'lab' ? '' : `${p.id}-`}tables`,
          },
          {
            principal: p.arn,
            account,
            tableCatalogId: catalogId,
            namespace: name,
            databasePermissions: ['DESCRIBE', 'CREATE_TABLE', 'ALTER', 'DROP'],
            tablePermissions: ['ALL'],
            dependsOn: [ns, ...guards, ...(federated ? [federated] : [])],
            replacedWith: [ns],
          },
        );
      }
    }
    this.addOutputs({
      namespaces: Fn.join(
        ',',
        this.namespaces.map((n) => n.namespace),
      ),
    });
  }
}

export const create = (scope: Construct, unit: ResolvedUnit, options?: LabStackOptions): LabStack =>
  new RefDataStack(scope, unit as ResolvedUnit<RefDataInputs>, options);
