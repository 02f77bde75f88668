// The lab role's policy documents, pure: what the lab's SQL needs through IAM (Athena in the lab workgroup, the Glue
// catalog of the lab's table bucket through s3tablescatalog, Lake Formation's data access); which tables it may read
// and change is Lake Formation's part, granted in table-bucket, ref-data and snapshots. Its trust: the deployer and
// the unit's lab principals, whoever of them runs `pnpm lab --target aws` (the lab assumes this role with its own
// credentials before its first query).
import type { PolicyStatement } from '../lib/iam';

export interface LabRolePolicyContext {
  /** `arn:<partition>:<service>:<region>:<account>:<resource>` builder. */
  readonly arn: (service: string, resource: string) => string;
  readonly workgroup: string;
  readonly tableBucket: string;
}

/** Athena actions the lab's query runner and experiments use in the lab workgroup. */
export const LAB_ROLE_ATHENA_ACTIONS = [
  'athena:StartQueryExecution',
  'athena:StopQueryExecution',
  'athena:GetQueryExecution',
  'athena:BatchGetQueryExecution',
  'athena:ListQueryExecutions',
  'athena:GetQueryResults',
  'athena:GetQueryResultsStream',
  'athena:GetQueryRuntimeStatistics',
  'athena:GetWorkGroup',
] as const;

/** Glue actions Athena takes as the caller for the lab's SQL: look-ups, and the DDL/DML that changes tables. */
export const LAB_ROLE_GLUE_ACTIONS = [
  'glue:GetCatalog',
  'glue:GetDatabase',
  'glue:GetDatabases',
  'glue:GetTable',
  'glue:GetTables',
  'glue:CreateTable',
  'glue:UpdateTable',
  'glue:DeleteTable',
] as const;

export function labRolePolicy(c: LabRolePolicyContext): PolicyStatement[] {
  const glue = (r: string) => c.arn('glue', r);
  return [
    {
      Sid: 'QueryInTheLabWorkgroup',
      Effect: 'Allow',
      Action: [...LAB_ROLE_ATHENA_ACTIONS],
      Resource: [c.arn('athena', `workgroup/${c.workgroup}`)],
    },
    {
      // Every namespace of the lab's bucket (ref-data adds them); Lake Formation decides which tables in them.
      Sid: 'TheLabTablesThroughS3TablesCatalog',
      Effect: 'Allow',
      Action: [...LAB_ROLE_GLUE_ACTIONS],
      Resource: [
        glue('catalog'),
        glue('catalog/s3tablescatalog'),
        glue(`catalog/s3tablescatalog/${c.tableBucket}`),
        glue(`database/s3tablescatalog/${c.tableBucket}/*`),
        glue(`table/s3tablescatalog/${c.tableBucket}/*/*`),
      ],
    },
    // Lake Formation vends the tables' credentials to Athena; GetDataAccess has no resource-level scoping.
    {
      Sid: 'LakeFormationCredentials',
      Effect: 'Allow',
      Action: ['lakeformation:GetDataAccess'],
      Resource: '*',
    },
  ];
}

/**
 * Who may assume it: the deployer (the role behind its session) and the lab principals (`labPrincipalArns`). The lab
 * assumes this role with whatever credentials run it, so a lab principal running the lab on AWS must be trusted
 * here, not only granted in Lake Formation.
 */
export function labRoleTrustPolicy(
  deployerArn: string,
  labPrincipalArns: readonly string[] = [],
): PolicyStatement[] {
  const others = [...new Set(labPrincipalArns)].filter((arn) => arn !== deployerArn);
  return [
    { Sid: 'TheDeployer', Effect: 'Allow', Principal: { AWS: [deployerArn] }, Action: ['sts:AssumeRole'] },
    ...(others.length > 0
      ? [
          {
            Sid: 'TheLabPrincipals',
            Effect: 'Allow' as const,
            Principal: { AWS: others },
            Action: ['sts:AssumeRole'],
          },
        ]
      : []),
  ];
}
