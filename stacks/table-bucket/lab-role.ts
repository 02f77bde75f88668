// The lab role's policy documents, pure: what the lab's SQL needs through IAM (Athena in the lab workgroup, the Glue
// catalog of the lab's table bucket through s3tablescatalog, Lake Formation's data access); which tables it may read
// and change is Lake Formation's part, granted in table-bucket, ref-data and snapshots. Its trust: the deployer.
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

/** Only the deployer (the role behind its session) may assume it: the lab runs its SQL as this role. */
export function labRoleTrustPolicy(deployerArn: string): PolicyStatement[] {
  return [
    { Sid: 'TheDeployer', Effect: 'Allow', Principal: { AWS: [deployerArn] }, Action: ['sts:AssumeRole'] },
  ];
}
