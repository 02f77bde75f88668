// The analyst role's policy documents, pure: what the role may do through IAM (query in the analysts' own workgroup —
// never the lab's shared one, whose query history Lake Formation does not govern —, read its results, look the lab's tables up through s3tablescatalog, get Lake Formation's data access) and its trust policy.
// Which tables it reads is Lake Formation's part (SELECT and DESCRIBE, granted in the stack). Nothing here writes:
// no Glue or S3 Tables write, no S3 (query results are Athena-managed), no Firehose.
import type { PolicyStatement } from '../lib/iam';

export interface AnalystPolicyContext {
  /** `arn:<partition>:<service>:<region>:<account>:<resource>` builder. */
  readonly arn: (service: string, resource: string) => string;
  /** The analysts' own workgroup (the only one the role's Athena actions name). */
  readonly workgroup: string;
  readonly tableBucket: string;
  readonly namespaces: readonly string[];
}

/**
 * The Athena actions of a reader in its own workgroup (the workgroup's own settings stay out of reach). Listing,
 * reading and stopping queries act on the workgroup's whole history, so they are safe only there.
 */
export const ANALYST_ATHENA_ACTIONS = [
  'athena:StartQueryExecution',
  'athena:StopQueryExecution',
  'athena:GetQueryExecution',
  'athena:BatchGetQueryExecution',
  'athena:ListQueryExecutions',
  // Managed query results are read through these two (Athena User Guide, "Managed query results").
  'athena:GetQueryResults',
  'athena:GetQueryResultsStream',
  'athena:GetWorkGroup',
] as const;

export const ANALYST_GLUE_ACTIONS = [
  'glue:GetCatalog',
  'glue:GetDatabase',
  'glue:GetDatabases',
  'glue:GetTable',
  'glue:GetTables',
] as const;

export function analystPolicy(c: AnalystPolicyContext): PolicyStatement[] {
  const glue = (r: string) => c.arn('glue', r);
  return [
    {
      Sid: 'QueryInTheAnalystsWorkgroup',
      Effect: 'Allow',
      Action: [...ANALYST_ATHENA_ACTIONS],
      Resource: [c.arn('athena', `workgroup/${c.workgroup}`)],
    },
    {
      Sid: 'LookUpTheLabTablesThroughS3TablesCatalog',
      Effect: 'Allow',
      Action: [...ANALYST_GLUE_ACTIONS],
      Resource: [
        glue('catalog'),
        glue('catalog/s3tablescatalog'),
        glue(`catalog/s3tablescatalog/${c.tableBucket}`),
        ...c.namespaces.map((ns) => glue(`database/s3tablescatalog/${c.tableBucket}/${ns}`)),
        ...c.namespaces.map((ns) => glue(`table/s3tablescatalog/${c.tableBucket}/${ns}/*`)),
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

/** Who may assume the role: the principals named (the deployer and the unit's trusted principals), nobody else. */
export function analystTrustPolicy(principalArns: readonly string[]): PolicyStatement[] {
  return [
    {
      Sid: 'NamedAnalysts',
      Effect: 'Allow',
      Principal: { AWS: [...principalArns] },
      Action: ['sts:AssumeRole'],
    },
  ];
}
