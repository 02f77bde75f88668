// Lake Formation's grants on the S3 Tables catalogs, as the local endpoint enforces them for Athena (Lake Formation
// Developer Guide, "Lake Formation permissions reference": database ALL, ALTER, CREATE_TABLE, DESCRIBE, DROP; table
// ALL, ALTER, DELETE, DESCRIBE, DROP, INSERT, SELECT; ALL is "Super", every permission; a table grant may name one
// table or every table of the database, present and future — the wildcard). Implicit permissions ("Implicit Lake
// Formation permissions"): data lake administrators have DESCRIBE on every resource and may create databases; a
// table's or database's creator has all permissions on it (kept in the data directory until it is dropped); a table's
// creator can view the database that holds it.
import type { JsonStore } from '../store';
import type { LakeFormationGrantSpec } from './options';

export type LakeFormationPermission =
  'SELECT' | 'INSERT' | 'DELETE' | 'ALTER' | 'DROP' | 'DESCRIBE' | 'CREATE_TABLE';

/** A database, or a table of it, in a catalog named as Athena names it (`s3tablescatalog/<bucket>`). */
export interface CatalogResource {
  readonly catalog: string;
  readonly database: string;
  readonly table?: string;
}

/** `<account>:s3tablescatalog/<bucket>` → `s3tablescatalog/<bucket>`; `<account>` → the default catalog. */
function catalogOfGrant(catalogId: string): string {
  const colon = catalogId.indexOf(':');
  return colon < 0 ? 'awsdatacatalog' : catalogId.slice(colon + 1).toLowerCase();
}

const creatorKey = (r: CatalogResource) => [
  'lakeformation',
  'creators',
  r.catalog,
  r.database,
  r.table ?? '',
];

export class LakeFormationGrants {
  private readonly grants: ReadonlyArray<LakeFormationGrantSpec & { readonly catalog: string }>;
  private readonly admins: ReadonlySet<string>;

  constructor(
    spec: { grants: readonly LakeFormationGrantSpec[]; dataLakeAdmins?: readonly string[] },
    private readonly store: JsonStore,
  ) {
    this.grants = spec.grants.map((g) => ({ ...g, catalog: catalogOfGrant(g.catalogId) }));
    this.admins = new Set(spec.dataLakeAdmins ?? []);
  }

  private applicable(principal: string, r: CatalogResource) {
    return this.grants.filter(
      (g) =>
        g.principal === principal &&
        g.catalog === r.catalog.toLowerCase() &&
        g.database === r.database &&
        (r.table === undefined ? g.table === undefined : g.table === '*' || g.table === r.table),
    );
  }

  private createdBy(r: CatalogResource): string | undefined {
    return this.store.read<{ principal: string }>(creatorKey(r))?.principal;
  }

  /** Whether the principal is a data lake administrator (may create databases: "Implicit permissions"). */
  isAdmin(principal: string): boolean {
    return this.admins.has(principal);
  }

  /** Whether the principal holds the permission on the database (no table) or the table. */
  holds(principal: string, r: CatalogResource, permission: LakeFormationPermission): boolean {
    if (permission === 'DESCRIBE' && this.admins.has(principal)) return true;
    if (this.createdBy(r) === principal) return true;
    return this.applicable(principal, r).some(
      (g) => g.permissions.includes(permission) || g.permissions.includes('ALL'),
    );
  }

  /** Whether the principal holds any permission at all on the resource ("any privilege on specified resource"). */
  holdsAny(principal: string, r: CatalogResource): boolean {
    return (
      this.admins.has(principal) ||
      this.createdBy(r) === principal ||
      this.applicable(principal, r).length > 0
    );
  }

  /** Any permission on the database or on some table of it (what SHOW TABLES needs to list anything). */
  holdsAnyInDatabase(principal: string, r: CatalogResource): boolean {
    return (
      this.admins.has(principal) ||
      this.createdBy({ catalog: r.catalog, database: r.database }) === principal ||
      this.createdTableIn(principal, r) ||
      this.grants.some(
        (g) =>
          g.principal === principal && g.catalog === r.catalog.toLowerCase() && g.database === r.database,
      )
    );
  }

  /** Whether the principal created some table of the database (table creators "can view the database"). */
  private createdTableIn(principal: string, r: CatalogResource): boolean {
    return this.store
      .list(['lakeformation', 'creators', r.catalog, r.database])
      .some((table) => table !== '' && this.createdBy({ ...r, table }) === principal);
  }

  /** The table's (or database's) creator gets all permissions on it, until it is dropped. */
  recordCreator(principal: string, r: CatalogResource): void {
    this.store.write(creatorKey(r), { principal });
  }

  forget(r: CatalogResource): void {
    this.store.delete(creatorKey(r));
  }
}
