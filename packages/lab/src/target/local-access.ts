// Who may do what on the lab's local target: the access model of the synthesized stacks (every role with its trust
// and permissions policies, the bucket policies, the Lake Formation grants — stacks/access/), plus the one
// principal the stacks do not create, the deployer: the lab's own credentials ("local") sign as it, an
// administrator (AWS's AdministratorAccess) and a Lake Formation data lake administrator, as the README asks of
// whoever deploys. The endpoint then evaluates the very documents the stacks would deploy.
import { LOCAL_ACCOUNT_ID, LOCAL_CREDENTIALS, type AuthorizationOptions } from '@loglake/local-aws';
import { synthesizeAccess, type SynthesizedAccess } from '@loglake/stacks/access';
import type { ResolvedLab } from '@loglake/units';
import { TargetNotReadyError } from '../errors';
import { labRoles, type LabRoles } from './lab-roles';

export const LOCAL_DEPLOYER_ROLE_ARN = `arn:aws:iam::${LOCAL_ACCOUNT_ID}:role/loglake-deployer`;
export const ADMINISTRATOR_ACCESS_ARN = 'arn:aws:iam::aws:policy/AdministratorAccess';
/** AWS's AdministratorAccess managed policy, as AWS publishes it. */
export const ADMINISTRATOR_ACCESS = {
  Version: '2012-10-17',
  Statement: [{ Effect: 'Allow', Action: '*', Resource: '*' }],
};

export interface LocalAccess {
  readonly authorization: AuthorizationOptions;
  readonly roles: LabRoles;
  /** The Firehose error bucket as the firehose stack names it. */
  readonly errorBucketName: string;
  readonly summary: string;
}

/** The endpoint's authorization options from the synthesized access model. */
export function authorizationFrom(access: SynthesizedAccess): AuthorizationOptions {
  return {
    roles: [
      {
        arn: LOCAL_DEPLOYER_ROLE_ARN,
        trustPolicy: {
          Version: '2012-10-17',
          Statement: [
            {
              Effect: 'Allow',
              Principal: { AWS: `arn:aws:iam::${LOCAL_ACCOUNT_ID}:root` },
              Action: 'sts:AssumeRole',
            },
          ],
        },
        policies: [],
        managedPolicyArns: [ADMINISTRATOR_ACCESS_ARN],
      },
      ...access.roles.map((r) => ({
        arn: r.arn,
        trustPolicy: r.trustPolicy,
        policies: r.policies,
        managedPolicyArns: r.managedPolicyArns,
      })),
    ],
    credentials: [{ ...LOCAL_CREDENTIALS, roleArn: LOCAL_DEPLOYER_ROLE_ARN, sessionName: 'lab' }],
    // The deployer runs the endpoint's admin API too (maintenance now, the clocks, flushes).
    administrators: [LOCAL_DEPLOYER_ROLE_ARN],
    managedPolicies: { [ADMINISTRATOR_ACCESS_ARN]: ADMINISTRATOR_ACCESS },
    resourcePolicies: access.resourcePolicies.map((p) => ({
      resourceArn: p.resourceArn,
      document: p.document,
    })),
    lakeFormation: {
      dataLakeAdmins: [LOCAL_DEPLOYER_ROLE_ARN],
      grants: access.grants.map((g) => ({
        principal: g.principal,
        permissions: g.permissions,
        catalogId: g.catalogId,
        database: g.database,
        ...(g.table !== undefined ? { table: g.table } : {}),
      })),
    },
  };
}

/** Synthesizes the lab and reads who may do what; `narrow` changes the model first (tests narrow a policy). */
export async function localAccess(
  lab: ResolvedLab,
  narrow: (access: SynthesizedAccess) => SynthesizedAccess = (a) => a,
): Promise<LocalAccess> {
  const access = narrow(
    await synthesizeAccess(lab, { account: LOCAL_ACCOUNT_ID, deployerArn: LOCAL_DEPLOYER_ROLE_ARN }),
  );
  const errorBucketName = access.outputs.firehose?.error_bucket_name;
  if (!errorBucketName)
    throw new TargetNotReadyError('The synthesized firehose stack has no error_bucket_name output.', {
      value: 'error_bucket_name',
    });
  return {
    authorization: authorizationFrom(access),
    roles: labRoles(access.outputs),
    errorBucketName,
    summary: `${access.roles.length + 1} roles, ${access.resourcePolicies.length} bucket policies, ${access.grants.length} Lake Formation grants`,
  };
}
