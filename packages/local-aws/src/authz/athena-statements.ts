// What Athena checks, as the caller, before a statement on the lake runs: the Glue actions it takes on each table's
// catalog, database and table (Athena User Guide, "Configure access to databases and tables in the AWS Glue Data
// Catalog": a table's access needs its database and catalog too; for S3 Tables the federated catalog's three levels,
// as Firehose's S3 Tables guide lists them), lakeformation:GetDataAccess for the data of S3 Tables, and for S3 Tables
// catalogs the Lake Formation permission each statement kind needs (README, "Authorization": the table). A refusal
// fails the query, as Athena reports it: "Insufficient permissions to execute the query." followed by the Glue
// AccessDeniedException's message, or by Lake Formation's ("Principal does not have any privilege on specified
// resource" — S3 User Guide, "Querying tables with Athena" — or "Insufficient Lake Formation permission(s):
// Required <permission> on <resource>", the form Lake Formation's AccessDeniedException takes).
import type { PreparedStatement, QueryContext, TableAccess, TableAccessKind } from '@loglake/lakehouse';
import { LOCAL_ACCOUNT_ID } from '../arn';
import { AthenaQueryFailure, LAKE_FORMATION_ERROR_TYPE, USER_ERROR_TYPE } from '../athena/query-failure';
import { principalArnOf, type Caller } from '../iam/principals';
import type { LakeFormationGrants, LakeFormationPermission } from './lake-formation';
import type { LocalIam } from './local-iam';

/** The Lake Formation permissions each kind of access needs on S3 Tables (on the table; CREATE on the database). */
const LAKE_FORMATION_PERMISSIONS: Readonly<Record<TableAccessKind, readonly LakeFormationPermission[]>> = {
  read: ['SELECT'],
  insert: ['INSERT'],
  delete: ['DELETE'],
  // A row-level UPDATE writes position deletes and the new rows (merge-on-read): both.
  update: ['INSERT', 'DELETE'],
  create: ['CREATE_TABLE'],
  drop: ['DROP'],
  alter: ['ALTER'],
  describe: ['DESCRIBE'],
  list: [],
};

/** The Glue actions Athena takes for each kind of access. */
const GLUE_ACTIONS: Readonly<Record<TableAccessKind, readonly string[]>> = {
  read: ['glue:GetTable'],
  insert: ['glue:GetTable', 'glue:UpdateTable'],
  delete: ['glue:GetTable', 'glue:UpdateTable'],
  update: ['glue:GetTable', 'glue:UpdateTable'],
  create: ['glue:GetDatabase', 'glue:CreateTable'],
  drop: ['glue:GetTable', 'glue:DeleteTable'],
  alter: ['glue:GetTable', 'glue:UpdateTable'],
  describe: ['glue:GetTable'],
  list: ['glue:GetTables'],
};

/** The Glue actions that look a table up (before Lake Formation's check), as opposed to those that change it. */
const LOOKUPS = new Set(['glue:GetTable', 'glue:GetDatabase', 'glue:GetTables']);

/** Lake Formation's names of its permissions in messages ("Required Describe on …"). */
export const SPOKEN_PERMISSION: Readonly<Record<LakeFormationPermission, string>> = {
  SELECT: 'Select',
  INSERT: 'Insert',
  DELETE: 'Delete',
  ALTER: 'Alter',
  DROP: 'Drop',
  DESCRIBE: 'Describe',
  CREATE_TABLE: 'Create Table',
};

const PREFIX = 'Insufficient permissions to execute the query. ';

/** An S3 location a query makes Athena write to, with the caller's credentials. */
export interface AthenaS3Write {
  /** `s3://bucket/prefix/…`: the object Athena writes first (the results file; a CTAS data file under the location). */
  readonly object: string;
  readonly purpose: 'results' | 'ctas';
}
const S3_TABLES = /^s3tablescatalog\/(.+)$/;

export class AthenaStatementAuthorizer {
  constructor(
    private readonly iam: LocalIam,
    private readonly lakeFormation: LakeFormationGrants,
    private readonly region: string,
  ) {}

  /** Why the caller may not run the statement, or undefined when it may. */
  check(caller: Caller, statement: PreparedStatement, context: QueryContext): AthenaQueryFailure | undefined {
    let accesses: readonly TableAccess[];
    try {
      accesses = statement.tableAccesses?.(context) ?? [];
    } catch {
      // A name the engine cannot qualify: the statement fails the same way when it runs.
      return undefined;
    }
    // Athena looks each table up (Glue reads), Lake Formation authorizes what the statement does to it, then Athena
    // acts (Glue writes, the data's credentials). AWS does not document the order; the lab relies only on a refusal.
    for (const access of accesses) {
      const failure =
        this.glue(caller, access, 'lookup') ?? this.lake(caller, access) ?? this.glue(caller, access, 'act');
      if (failure) return failure;
    }
    return undefined;
  }

  /**
   * Athena reads and writes S3 as its caller ("When actors interact with Athena, their permissions pass through Athena
   * to determine what Athena can access", Athena User Guide, "Control access to Amazon S3 from Athena"): the results
   * it writes to an output location (without managed query results) and the data a CTAS writes to its
   * external_location need the caller's s3:GetBucketLocation on the bucket and s3:PutObject on the objects; a CTAS
   * also lists the location first (it must be empty: "Considerations and limitations for CTAS queries"), so
   * s3:ListBucket too. Why the caller may not, as Athena fails the query, or undefined.
   */
  checkS3Writes(caller: Caller, writes: readonly AthenaS3Write[]): AthenaQueryFailure | undefined {
    for (const write of writes) {
      const m = /^s3:\/\/([^/]+)\/?(.*)$/.exec(write.object);
      if (!m) continue; // the engine refuses a location that is no s3:// URI, naming it
      const bucketArn = `arn:aws:s3:::${m[1] as string}`;
      const needs = [
        { action: 's3:GetBucketLocation', resource: bucketArn },
        ...(write.purpose === 'ctas' ? [{ action: 's3:ListBucket', resource: bucketArn }] : []),
        { action: 's3:PutObject', resource: `${bucketArn}/${m[2] as string}` },
      ];
      for (const { action, resource } of needs) {
        const denial = this.iam.decide(caller, action, resource);
        if (!denial) continue;
        const reason =
          write.purpose === 'results'
            ? `Access denied when writing output to url: ${write.object} . Please ensure you are allowed to access the S3 bucket. `
            : PREFIX;
        return new AthenaQueryFailure(reason + denial.message, 2, USER_ERROR_TYPE, write.object);
      }
    }
    return undefined;
  }

  /**
   * Athena reads a Glue table's data from S3 as its caller (same guide: the caller's permissions pass through): it lists
   * the location and gets its objects, so s3:ListBucket on the bucket and s3:GetObject under the location. Why the
   * caller may not, as the query fails, or undefined.
   */
  checkS3Reads(caller: Caller, locations: readonly string[]): AthenaQueryFailure | undefined {
    for (const location of locations) {
      const m = /^s3:\/\/([^/]+)\/?(.*)$/.exec(location);
      if (!m) continue; // the engine reads s3:// locations only, and refuses others naming them
      const bucketArn = `arn:aws:s3:::${m[1] as string}`;
      const prefix = (m[2] as string).replace(/([^/])$/, '$1/');
      for (const [action, resource] of [
        ['s3:ListBucket', bucketArn],
        ['s3:GetObject', `${bucketArn}/${prefix}`],
      ] as const) {
        const denial = this.iam.decide(caller, action, resource);
        if (denial)
          return new AthenaQueryFailure(
            `Permission denied on S3 path: ${location}. ${denial.message}`,
            2,
            USER_ERROR_TYPE,
            location,
          );
      }
    }
    return undefined;
  }

  /** Why the caller may not read the results object GetQueryResults streams (its s3:GetObject), or undefined. */
  resultsReadDenied(caller: Caller, object: string): string | undefined {
    const m = /^s3:\/\/([^/]+)\/?(.*)$/.exec(object);
    if (!m) return `The results location ${object} is no s3:// URI.`;
    return this.iam.decide(caller, 's3:GetObject', `arn:aws:s3:::${m[1] as string}/${m[2] as string}`)
      ?.message;
  }

  /** After a statement succeeded: a table's creator holds all permissions on it; a dropped table's go. */
  succeeded(caller: Caller, statement: PreparedStatement, context: QueryContext): void {
    for (const access of statement.tableAccesses?.(context) ?? []) {
      if (!S3_TABLES.test(access.catalog) || !access.table) continue;
      const resource = { catalog: access.catalog, database: access.schema, table: access.table };
      if (access.kind === 'create') this.lakeFormation.recordCreator(principalArnOf(caller), resource);
      if (access.kind === 'drop') this.lakeFormation.forget(resource);
    }
  }

  private glue(caller: Caller, access: TableAccess, phase: 'lookup' | 'act'): AthenaQueryFailure | undefined {
    const s3Tables = S3_TABLES.exec(access.catalog);
    if (!s3Tables && access.catalog !== 'awsdatacatalog') return undefined;
    const arn = (resource: string) => `arn:aws:glue:${this.region}:${LOCAL_ACCOUNT_ID}:${resource}`;
    const inCatalog = s3Tables ? `s3tablescatalog/${s3Tables[1]}/` : '';
    const catalogs = s3Tables
      ? [arn('catalog'), arn('catalog/s3tablescatalog'), arn(`catalog/s3tablescatalog/${s3Tables[1]}`)]
      : [arn('catalog')];
    const database = arn(`database/${inCatalog}${access.schema}`);
    const table = access.table ? arn(`table/${inCatalog}${access.schema}/${access.table}`) : undefined;
    const lookup = (action: string) => LOOKUPS.has(action);
    for (const action of GLUE_ACTIONS[access.kind].filter((a) => lookup(a) === (phase === 'lookup'))) {
      const resources =
        action === 'glue:GetDatabase' || !table ? [...catalogs, database] : [...catalogs, database, table];
      for (const resource of resources) {
        const denial = this.iam.decide(caller, action, resource);
        if (denial) return new AthenaQueryFailure(PREFIX + denial.message, 2, USER_ERROR_TYPE, action);
      }
    }
    const readsOrWritesData = ['read', 'insert', 'delete', 'update'].includes(access.kind);
    if (phase === 'act' && s3Tables && readsOrWritesData) {
      const denial = this.iam.decide(caller, 'lakeformation:GetDataAccess', '*');
      if (denial)
        return new AthenaQueryFailure(
          PREFIX + denial.message,
          2,
          USER_ERROR_TYPE,
          'lakeformation:GetDataAccess',
        );
    }
    return undefined;
  }

  private lake(caller: Caller, access: TableAccess): AthenaQueryFailure | undefined {
    if (!S3_TABLES.test(access.catalog)) return undefined;
    const principal = principalArnOf(caller);
    const onDatabase = access.kind === 'create' || access.kind === 'list';
    const resource = {
      catalog: access.catalog,
      database: access.schema,
      ...(onDatabase ? {} : { table: access.table }),
    };
    const name = onDatabase ? access.schema : (access.table as string);
    const noPrivilege = new AthenaQueryFailure(
      `${PREFIX}Principal does not have any privilege on specified resource`,
      2,
      LAKE_FORMATION_ERROR_TYPE,
      name,
    );
    if (access.kind === 'list')
      return this.lakeFormation.holdsAnyInDatabase(principal, resource) ? undefined : noPrivilege;
    if (!this.lakeFormation.holdsAny(principal, resource)) return noPrivilege;
    for (const permission of LAKE_FORMATION_PERMISSIONS[access.kind]) {
      if (!this.lakeFormation.holds(principal, resource, permission))
        return new AthenaQueryFailure(
          `${PREFIX}Insufficient Lake Formation permission(s): Required ${SPOKEN_PERMISSION[permission]} on ${name}`,
          2,
          LAKE_FORMATION_ERROR_TYPE,
          permission,
        );
    }
    return undefined;
  }
}
