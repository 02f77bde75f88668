// Firehose acting with a stream's roles, as the local endpoint enforces it. At CreateDeliveryStream Firehose checks
// that it can assume the role (its trust policy must name firehose.amazonaws.com; "Firehose is unable to assume role
// … Please check the role provided.") and that the role can read the destination table through Glue (Firehose
// validates glue:GetTable at creation). While delivering, it acts as the role: the Glue and Lake Formation access its
// S3 Tables guide lists ("Grant Firehose access to Amazon S3 Tables": glue:GetTable, GetDatabase, UpdateTable on the
// catalog, s3tablescatalog, the bucket's catalog, database and table; lakeformation:GetDataAccess; Lake Formation
// permissions on the table), and s3:PutObject on the error bucket for the error output.
import { LOCAL_ACCOUNT_ID } from '../arn';
import type { DeliveryAccess } from '../firehose/delivery';
import type { FirehoseRoles } from '../firehose/service';
import type { StreamDefinition } from '../firehose/streams';
import { principalArnOf, serviceCaller, type Caller } from '../iam/principals';
import { SPOKEN_PERMISSION } from './athena-statements';
import type { LakeFormationGrants, LakeFormationPermission } from './lake-formation';
import type { LocalIam } from './local-iam';

const FIREHOSE = 'firehose.amazonaws.com';
/** What Firehose does to the table: look it up and commit to it. */
const TABLE_PERMISSIONS: readonly LakeFormationPermission[] = ['DESCRIBE', 'INSERT'];

export class FirehoseRoleAccess implements FirehoseRoles {
  constructor(
    private readonly iam: LocalIam,
    private readonly lakeFormation: LakeFormationGrants,
    private readonly region: string,
  ) {}

  private assume(stream: StreamDefinition, roleArn: string): Caller | string {
    const outcome = this.iam.actAs(
      serviceCaller(FIREHOSE),
      roleArn,
      'firehose',
      this.iam.serviceContext({ sourceArn: stream.arn, sourceAccount: LOCAL_ACCOUNT_ID }),
    );
    return 'denied' in outcome
      ? `Firehose is unable to assume role ${roleArn}. Please check the role provided.`
      : outcome.caller;
  }

  private glueResources(stream: StreamDefinition) {
    const arn = (resource: string) => `arn:aws:glue:${this.region}:${LOCAL_ACCOUNT_ID}:${resource}`;
    const inCatalog = `s3tablescatalog/${stream.tableBucket}`;
    return {
      catalogs: [arn('catalog'), arn('catalog/s3tablescatalog'), arn(`catalog/${inCatalog}`)],
      database: arn(`database/${inCatalog}/${stream.database}`),
      table: arn(`table/${inCatalog}/${stream.database}/${stream.table}`),
    };
  }

  validate(stream: StreamDefinition): string | undefined {
    for (const roleArn of new Set([stream.roleArn, stream.s3RoleArn])) {
      const caller = this.assume(stream, roleArn);
      if (typeof caller === 'string') return caller;
    }
    const caller = this.assume(stream, stream.roleArn) as Caller;
    const { catalogs, database, table } = this.glueResources(stream);
    for (const resource of [...catalogs, database, table])
      if (this.iam.decide(caller, 'glue:GetTable', resource))
        return `Role ${stream.roleArn} is not authorized to perform: glue:GetTable for the given table or the table does not exist.`;
    return undefined;
  }

  access(stream: StreamDefinition): DeliveryAccess {
    return {
      deliveryDenied: () => {
        const caller = this.assume(stream, stream.roleArn);
        if (typeof caller === 'string') return caller;
        const { catalogs, database, table } = this.glueResources(stream);
        const checks: Array<[string, string[]]> = [
          ['glue:GetDatabase', [...catalogs, database]],
          ['glue:GetTable', [...catalogs, database, table]],
          ['glue:UpdateTable', [...catalogs, database, table]],
          ['lakeformation:GetDataAccess', ['*']],
        ];
        for (const [action, resources] of checks)
          for (const resource of resources) {
            const denial = this.iam.decide(caller, action, resource);
            if (denial) return denial.message;
          }
        const lf = {
          catalog: `s3tablescatalog/${stream.tableBucket}`,
          database: stream.database,
          table: stream.table,
        };
        for (const permission of TABLE_PERMISSIONS)
          if (!this.lakeFormation.holds(principalArnOf(caller), lf, permission))
            return `Insufficient Lake Formation permission(s): Required ${SPOKEN_PERMISSION[permission]} on ${stream.table}`;
        return undefined;
      },
      errorOutputDenied: (key) => {
        const caller = this.assume(stream, stream.s3RoleArn);
        if (typeof caller === 'string') return caller;
        return this.iam.decide(caller, 's3:PutObject', `arn:aws:s3:::${stream.errorBucket}/${key}`, {
          quoteResource: true,
        })?.message;
      },
    };
  }
}
