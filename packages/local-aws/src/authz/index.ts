// Authorization in the local endpoint (opt-in: LocalEndpointOptions.authorization): the pieces the server wires in.
// - RequestAuthorizer: the step before dispatch (who signed, which IAM actions, IAM's decision, AWS's refusal);
// - STS: AssumeRole and GetCallerIdentity;
// - Athena: Glue and Lake Formation checks per statement (with the engine's prepared statement);
// - Firehose: the stream's roles, at creation and while delivering;
// - Glue: Lake Formation's check on the S3 Tables catalogs, as Athena's path to them has it;
// - who may use the admin API (/_local/*), and (in-process) an AWS service's credentials for a role it acts as.
import type { Warehouse } from '@loglake/lakehouse';
import type { JsonStore } from '../store';
import type { ResourceLookups } from './actions';
import { AdminAccess } from './admin-access';
import { AthenaStatementAuthorizer } from './athena-statements';
import { FirehoseRoleAccess } from './firehose-roles';
import { GlueLakeFormationGuard } from './glue-lake-formation';
import { LakeFormationGrants } from './lake-formation';
import { LocalIam } from './local-iam';
import type { AuthorizationOptions } from './options';
import { RequestAuthorizer } from './request-authorizer';
import { createStsService } from './sts-service';

export type {
  AuthorizationOptions,
  LakeFormationGrantSpec,
  LocalCredentialsSpec,
  LocalRoleSpec,
} from './options';
export type { ResourceLookups } from './actions';

export interface ServiceCredentialsRequest {
  /** The service principal, e.g. `lambda.amazonaws.com`. */
  readonly service: string;
  readonly roleArn: string;
  /** The resource the service acts for (`aws:SourceArn`). */
  readonly sourceArn?: string;
}

export function createAuthorization(
  options: AuthorizationOptions,
  deps: { store: JsonStore; region: string },
) {
  const iam = new LocalIam(options, deps.store);
  const lakeFormation = new LakeFormationGrants(options.lakeFormation ?? { grants: [] }, deps.store);
  return {
    iam,
    sts: createStsService(iam),
    statements: new AthenaStatementAuthorizer(iam, lakeFormation, deps.region),
    firehoseRoles: new FirehoseRoleAccess(iam, lakeFormation, deps.region),
    glueS3Tables: new GlueLakeFormationGuard(lakeFormation),
    requestAuthorizer: (lookups: ResourceLookups) => new RequestAuthorizer(iam, deps.region, lookups),
    /** Who may use the admin API (/_local/*): the administrators, or the holder of the token made now. */
    adminAccess: (authorizer: RequestAuthorizer) => new AdminAccess(authorizer, options.administrators ?? []),
    /** In-process only (never over HTTP): the credentials an AWS service gets for a role it acts as. */
    serviceCredentials(request: ServiceCredentialsRequest) {
      const outcome = iam.assumeAsService(request.service, request.roleArn, { sourceArn: request.sourceArn });
      if ('denied' in outcome) return outcome;
      const { accessKeyId, secretAccessKey, sessionToken, expiration } = outcome.session;
      return { credentials: { accessKeyId, secretAccessKey, sessionToken, expiration } };
    },
  };
}

export type Authorization = ReturnType<typeof createAuthorization>;

/** A table's id in the warehouse (its ARN ends in it), for the authorization step's resource names. */
export function warehouseTableId(warehouse: Warehouse) {
  return async (bucket: string, namespace: string, table: string): Promise<string | undefined> => {
    try {
      return (await (await warehouse.loadTable(bucket, namespace, table)).metadata())['table-uuid'];
    } catch {
      return undefined;
    }
  };
}
