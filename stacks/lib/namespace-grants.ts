// Lake Formation grants on one namespace of a table bucket (a database of its s3tablescatalog child catalog): the
// database grant, then the grant on one table or on every table of the namespace. Athena, Firehose and the lab's
// principals reach S3 Tables data only through such grants.
import type { ITerraformDependable, TerraformResource } from 'cdktf';
import type { Construct } from 'constructs';
import type * as lakeformationPermissions from '@cdktf/provider-aws/lib/lakeformation-permissions';
import { replacedWith } from './deploy-checks';
import { awsLib } from './provider-aws';

const { LakeformationPermissions } = awsLib<typeof lakeformationPermissions>('lakeformation-permissions');

export interface NamespaceGrantsProps {
  readonly principal: string;
  /** The account whose Lake Formation holds the grants. */
  readonly account: string;
  /** The table bucket's catalog: `<account>:s3tablescatalog/<table bucket name>`. */
  readonly tableCatalogId: string;
  readonly namespace: string;
  readonly databasePermissions: readonly string[];
  readonly tablePermissions: readonly string[];
  /** One table of the namespace; every table when absent. */
  readonly table?: string;
  readonly dependsOn?: ITerraformDependable[];
  /**
   * What the grants are on, when this stack manages it (the namespace, the table): replaced under the same name, the
   * Glue database or table is new and has none of the old grants, so the grants are made again.
   */
  readonly replacedWith?: TerraformResource[];
}

export type NamespaceGrants = [
  database: lakeformationPermissions.LakeformationPermissions,
  tables: lakeformationPermissions.LakeformationPermissions,
];

export function namespaceGrants(
  scope: Construct,
  ids: { readonly database: string; readonly tables: string },
  props: NamespaceGrantsProps,
): NamespaceGrants {
  const common = {
    principal: props.principal,
    catalogId: props.account,
    dependsOn: props.dependsOn,
    ...replacedWith(props.replacedWith),
  };
  const database = new LakeformationPermissions(scope, ids.database, {
    ...common,
    permissions: [...props.databasePermissions],
    database: { catalogId: props.tableCatalogId, name: props.namespace },
  });
  const tables = new LakeformationPermissions(scope, ids.tables, {
    ...common,
    permissions: [...props.tablePermissions],
    table: {
      catalogId: props.tableCatalogId,
      databaseName: props.namespace,
      ...(props.table === undefined ? { wildcard: true } : { name: props.table }),
    },
  });
  return [database, tables];
}
