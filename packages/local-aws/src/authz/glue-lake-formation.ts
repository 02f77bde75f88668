// Glue's view of the S3 Tables catalogs (`CatalogId <account>:s3tablescatalog/<bucket>`), guarded by Lake Formation as
// Athena's path to the same tables is (./athena-statements.ts). "For a request to access Data Catalog resources or
// underlying data to succeed, the request must pass permission checks by both IAM and Lake Formation" (S3 User
// Guide, "Managing access to a table or database with Lake Formation"): the request step checked IAM's glue:*
// actions; this is Lake Formation's half, per Glue operation. A table's metadata needs Describe on it (Lake Formation
// Developer Guide, "Lake Formation permissions reference"); a database is visible to whoever holds a permission on it
// or on a table of it ("Granting table permissions": a grant on all tables implies Describe on the database, which
// GetDatabases then returns; "Implicit Lake Formation permissions": administrators see everything, creators what they
// created); lists leave out what the caller may not see. Creating a database needs Create Database on the catalog
// (the administrators' implicit permission here: the grants name databases and tables only). A refusal is Glue's
// AccessDeniedException, worded as Lake Formation words it ("Insufficient Lake Formation permission(s): Required
// Describe on <name>" — seen from Glue GetTable and GetDatabase; "… Required Create Database on Catalog" from
// CreateDatabase), and it comes before any lookup, so it says nothing about whether the resource exists.
import type { S3TablesCatalogGuard, S3TablesCatalogNeed } from '../glue/service';
import { principalArnOf, type Caller } from '../iam/principals';
import { SPOKEN_PERMISSION } from './athena-statements';
import type { CatalogResource, LakeFormationGrants, LakeFormationPermission } from './lake-formation';

/** What each Glue operation on an S3 Tables catalog needs from Lake Formation. */
const NEEDS: Readonly<
  Record<S3TablesCatalogNeed['operation'], LakeFormationPermission | 'see' | 'createDatabase'>
> = {
  GetDatabase: 'see',
  GetTables: 'see',
  UpdateDatabase: 'ALTER',
  DeleteDatabase: 'DROP',
  CreateDatabase: 'createDatabase',
  CreateTable: 'CREATE_TABLE',
  GetTable: 'DESCRIBE',
  GetTableVersions: 'DESCRIBE',
  UpdateTable: 'ALTER',
  DeleteTable: 'DROP',
};

const insufficient = (permission: string, on: string) =>
  `Insufficient Lake Formation permission(s): Required ${permission} on ${on}`;

export class GlueLakeFormationGuard implements S3TablesCatalogGuard {
  constructor(private readonly lakeFormation: LakeFormationGrants) {}

  /** Names as Glue folds them (lower case), as IAM's half decided them (./actions.ts). */
  private resource(bucket: string, database: string, table?: string): CatalogResource {
    return {
      catalog: `s3tablescatalog/${bucket}`,
      database: database.toLowerCase(),
      ...(table !== undefined ? { table: table.toLowerCase() } : {}),
    };
  }

  refusal(caller: Caller, need: S3TablesCatalogNeed): string | undefined {
    const principal = principalArnOf(caller);
    const needed = NEEDS[need.operation];
    if (needed === 'createDatabase')
      return this.lakeFormation.isAdmin(principal) ? undefined : insufficient('Create Database', 'Catalog');
    if (needed === 'see')
      return this.seesDatabase(caller, need.bucket, need.database)
        ? undefined
        : insufficient(SPOKEN_PERMISSION.DESCRIBE, need.database);
    const onTable = need.table !== undefined && needed !== 'CREATE_TABLE';
    const resource = this.resource(need.bucket, need.database, onTable ? need.table : undefined);
    return this.lakeFormation.holds(principal, resource, needed)
      ? undefined
      : insufficient(SPOKEN_PERMISSION[needed], onTable ? (need.table as string) : need.database);
  }

  seesDatabase(caller: Caller, bucket: string, database: string): boolean {
    return this.lakeFormation.holdsAnyInDatabase(principalArnOf(caller), this.resource(bucket, database));
  }

  seesTable(caller: Caller, bucket: string, database: string, table: string): boolean {
    return this.lakeFormation.holds(
      principalArnOf(caller),
      this.resource(bucket, database, table),
      'DESCRIBE',
    );
  }

  createdDatabase(caller: Caller, bucket: string, database: string): void {
    this.lakeFormation.recordCreator(principalArnOf(caller), this.resource(bucket, database));
  }

  droppedDatabase(bucket: string, database: string): void {
    this.lakeFormation.forget(this.resource(bucket, database));
  }
}
