// The lab's Lake Formation grants. No other listing shows them, and a grant may name a role or a resource that is
// already gone (a destroy that failed halfway, a grant made by hand): that is a leftover too.
//
// What is the lab's: a grant whose principal is one of the lab's IAM roles, or whose resource is one of the lab's
// (the child catalog `<account>:s3tablescatalog/<lab bucket>` and anything in it, a Glue database named with the
// lab's Glue prefix, a data location under a lab bucket). The S3 Tables integration itself (`s3tablescatalog`, the
// registration of `bucket/*` and its data-access role) is region-level, outside the lab: grants on it to principals
// outside the lab are never the lab's.
//
// ListPermissions (Lake Formation API Reference, "ListPermissions"): request `{ CatalogId?, Principal?,
// ResourceType?, Resource?, NextToken?, MaxResults?, IncludeRelated? }`, CatalogId defaulting to the caller's
// account; response `{ PrincipalResourcePermissions: [{ Principal: { DataLakePrincipalIdentifier }, Resource:
// { Catalog | Database | Table | TableWithColumns | DataLocation | DataCellsFilter | LFTag… }, Permissions,
// PermissionsWithGrantOption, … }], NextToken }`; a NextToken means another page. It returns only explicit grants,
// "filtered by the permissions of the caller": the check needs a data lake administrator (the README's deploy
// prerequisite). No filter is set: a Principal or Resource filter needs names that may be gone by now. The reference
// does not say whether the unfiltered listing includes grants inside S3 Tables child catalogs; only a run on AWS can.
import {
  ListPermissionsCommand,
  type PrincipalResourcePermissions,
  type Resource,
} from '@aws-sdk/client-lakeformation';
import type { TeardownClients } from './clients';
import type { KindLister, Leftover } from './kinds';
import { paginate } from './paginate';
import { belongsToLab, type LabScope } from './scope';

export const LAKE_FORMATION_KIND = 'lake formation permission';

/** `arn:aws:iam::<account>:role/<optional path/>name` → name. */
const ROLE_ARN = /^arn:aws[a-z-]*:iam::\d{12}:role\/(?:[^/]+\/)*([^/]+)$/;
/** A table bucket's child catalog, `[<account>:]s3tablescatalog/<bucket>` → bucket. */
const CHILD_CATALOG = /^(?:\d{12}:)?s3tablescatalog\/([^/]+)$/;
/** A data location: an S3 bucket (`arn:aws:s3:::<bucket>[/…]`) or a table bucket (`…:s3tables:…:bucket/<name>[/…]`). */
const S3_LOCATION = /^arn:aws[a-z-]*:s3:::([^/]+)/;
const TABLE_BUCKET_LOCATION = /^arn:aws[a-z-]*:s3tables:[^:]*:\d{12}:bucket\/([^/]+)/;

/** Whether a Lake Formation principal is one of the lab's IAM roles. */
export function isLabRole(principal: string | undefined, scope: LabScope): boolean {
  const name = principal?.match(ROLE_ARN)?.[1];
  return belongsToLab(name, scope);
}

function isLabCatalog(catalogId: string | undefined, scope: LabScope): boolean {
  return belongsToLab(catalogId?.match(CHILD_CATALOG)?.[1], scope);
}

/** In the lab's child catalog, or a Glue database named with the lab's prefix (e.g. loglake_01_snapshots). */
function isLabDatabase(
  catalogId: string | undefined,
  database: string | undefined,
  scope: LabScope,
): boolean {
  return isLabCatalog(catalogId, scope) || belongsToLab(database, scope);
}

function isLabLocation(arn: string | undefined, scope: LabScope): boolean {
  const bucket = arn?.match(S3_LOCATION)?.[1] ?? arn?.match(TABLE_BUCKET_LOCATION)?.[1];
  return belongsToLab(bucket, scope);
}

/** Whether a grant's resource is the lab's; LF-Tags and other account-wide resources never are. */
export function isLabResource(resource: Resource | undefined, scope: LabScope): boolean {
  if (!resource) return false;
  const { Catalog, Database, Table, TableWithColumns, DataLocation, DataCellsFilter } = resource;
  if (Catalog) return isLabCatalog(Catalog.Id, scope);
  if (Database) return isLabDatabase(Database.CatalogId, Database.Name, scope);
  if (Table) return isLabDatabase(Table.CatalogId, Table.DatabaseName, scope);
  if (TableWithColumns)
    return isLabDatabase(TableWithColumns.CatalogId, TableWithColumns.DatabaseName, scope);
  if (DataLocation) return isLabLocation(DataLocation.ResourceArn, scope);
  if (DataCellsFilter)
    return isLabDatabase(DataCellsFilter.TableCatalogId, DataCellsFilter.DatabaseName, scope);
  return false;
}

/** The resource as one readable phrase, e.g. `table 123456789012:s3tablescatalog/loglake-01-flow-logs/ref.*`. */
export function describeResource(resource: Resource | undefined): string {
  if (!resource) return 'unknown resource';
  const { Catalog, Database, Table, TableWithColumns, DataLocation, DataCellsFilter } = resource;
  const inCatalog = (catalogId: string | undefined) => (catalogId ? `${catalogId}/` : '');
  if (Catalog) return `catalog ${Catalog.Id ?? '(account default)'}`;
  if (Database) return `database ${inCatalog(Database.CatalogId)}${Database.Name}`;
  if (Table)
    return `table ${inCatalog(Table.CatalogId)}${Table.DatabaseName}.${Table.TableWildcard ? '*' : Table.Name}`;
  if (TableWithColumns) {
    const t = TableWithColumns;
    const columns = t.ColumnWildcard
      ? `all columns${t.ColumnWildcard.ExcludedColumnNames?.length ? ` except ${t.ColumnWildcard.ExcludedColumnNames.join(', ')}` : ''}`
      : (t.ColumnNames ?? []).join(', ');
    return `columns (${columns}) of table ${inCatalog(t.CatalogId)}${t.DatabaseName}.${t.Name}`;
  }
  if (DataLocation) return `data location ${DataLocation.ResourceArn}`;
  if (DataCellsFilter) {
    const f = DataCellsFilter;
    return `data cells filter ${f.Name} on ${inCatalog(f.TableCatalogId)}${f.DatabaseName}.${f.TableName}`;
  }
  return JSON.stringify(resource);
}

/** The grant as a leftover row when it is the lab's: principal as the name, permissions and resource as detail. */
export function labGrant(entry: PrincipalResourcePermissions, scope: LabScope): Leftover | undefined {
  const principal = entry.Principal?.DataLakePrincipalIdentifier;
  const byPrincipal = isLabRole(principal, scope);
  const byResource = isLabResource(entry.Resource, scope);
  if (!byPrincipal && !byResource) return undefined;
  const grantable = entry.PermissionsWithGrantOption ?? [];
  const permissions =
    (entry.Permissions ?? []).join(', ') +
    (grantable.length > 0 ? ` (grantable: ${grantable.join(', ')})` : '');
  const why = byPrincipal ? 'lab role' : 'lab resource';
  return {
    kind: LAKE_FORMATION_KIND,
    name: principal ?? '?',
    detail: `${permissions || 'no permissions'} on ${describeResource(entry.Resource)} [${why}]`,
  };
}

export const lakeFormationPermissions: KindLister = {
  kind: LAKE_FORMATION_KIND,
  async list(c: TeardownClients, scope: LabScope): Promise<Leftover[]> {
    const all = await paginate(async (t) => {
      const r = await c.lakeformation.send(new ListPermissionsCommand({ NextToken: t }));
      return { items: r.PrincipalResourcePermissions ?? [], next: r.NextToken };
    });
    return all.flatMap((entry) => labGrant(entry, scope) ?? []);
  },
};
