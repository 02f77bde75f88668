// Least-privilege policy documents of the snapshots unit, one function per role. Every statement names its
// resources; the only `*` is lakeformation:GetDataAccess, a read-only action with no resource-level scoping
// (Lake Formation vends the source table's credentials to Athena through it).
import type { PolicyStatement } from '../lib/iam';

export interface SnapshotPolicyContext {
  /** `arn:<partition>:<service>:<region>:<account>:<resource>` builder. */
  arn: (service: string, resource: string) => string;
  workgroup: string;
  tableBucket: string;
  sources: readonly { namespace: string; table: string }[];
  database: string;
  snapshotTables: readonly string[];
  bucketArn: string;
  /** The snapshot workgroup's query results prefix in the snapshot bucket (`athena-results/`). */
  resultsPrefix: string;
  logGroupArn: string;
}

function readSources(c: SnapshotPolicyContext): PolicyStatement[] {
  const glue = (r: string) => c.arn('glue', r);
  const namespaces = [...new Set(c.sources.map((s) => s.namespace))];
  return [
    {
      Sid: 'AthenaInTheSnapshotWorkgroup',
      Effect: 'Allow',
      Action: [
        'athena:StartQueryExecution',
        'athena:GetQueryExecution',
        'athena:GetQueryResults',
        'athena:StopQueryExecution',
      ],
      Resource: [c.arn('athena', `workgroup/${c.workgroup}`)],
    },
    {
      Sid: 'ReadSourceTablesThroughS3TablesCatalog',
      Effect: 'Allow',
      Action: ['glue:GetCatalog', 'glue:GetDatabase', 'glue:GetTable'],
      Resource: [
        glue('catalog'),
        glue('catalog/s3tablescatalog'),
        glue(`catalog/s3tablescatalog/${c.tableBucket}`),
        ...namespaces.map((ns) => glue(`database/s3tablescatalog/${c.tableBucket}/${ns}`)),
        ...c.sources.map((s) => glue(`table/s3tablescatalog/${c.tableBucket}/${s.namespace}/${s.table}`)),
      ],
    },
    // Athena writes a query's results to the workgroup's S3 location, and GetQueryResults reads them back, with the
    // caller's own permissions.
    {
      Sid: 'SnapshotBucketListing',
      Effect: 'Allow',
      Action: ['s3:ListBucket', 's3:GetBucketLocation', 's3:ListBucketMultipartUploads'],
      Resource: [c.bucketArn],
    },
    {
      Sid: 'QueryResults',
      Effect: 'Allow',
      Action: ['s3:GetObject', 's3:PutObject', 's3:AbortMultipartUpload', 's3:ListMultipartUploadParts'],
      Resource: [`${c.bucketArn}/${c.resultsPrefix}*`],
    },
    {
      Sid: 'LakeFormationCredentials',
      Effect: 'Allow',
      Action: ['lakeformation:GetDataAccess'],
      Resource: '*',
    },
    {
      Sid: 'OwnLogs',
      Effect: 'Allow',
      Action: ['logs:CreateLogStream', 'logs:PutLogEvents'],
      Resource: [`${c.logGroupArn}:*`],
    },
  ];
}

/** The pre-processor reads: hours present in the sources, the published watermark in the snapshot tables. */
export function resolveWatermarkPolicy(c: SnapshotPolicyContext): PolicyStatement[] {
  return [
    ...readSources(c),
    {
      Sid: 'ReadPublishedWatermark',
      Effect: 'Allow',
      Action: ['glue:GetDatabase', 'glue:GetTable'],
      Resource: [
        c.arn('glue', 'catalog'),
        c.arn('glue', `database/${c.database}`),
        ...c.snapshotTables.map((t) => c.arn('glue', `table/${c.database}/${t}`)),
      ],
    },
  ];
}

/** The CTAS step also writes runs to the snapshot bucket and moves the catalogued tables' locations. */
export function buildSnapshotPolicy(c: SnapshotPolicyContext): PolicyStatement[] {
  return [
    ...readSources(c),
    {
      Sid: 'CatalogueRunsAndPublish',
      Effect: 'Allow',
      Action: [
        'glue:GetDatabase',
        'glue:GetTable',
        'glue:CreateTable',
        'glue:UpdateTable',
        'glue:DeleteTable',
      ],
      Resource: [
        c.arn('glue', 'catalog'),
        c.arn('glue', `database/${c.database}`),
        // The published table and the staging entries its CTAS creates (`<name>__run_<id>`).
        ...c.snapshotTables.flatMap((t) => [
          c.arn('glue', `table/${c.database}/${t}`),
          c.arn('glue', `table/${c.database}/${t}__run_*`),
        ]),
      ],
    },
    {
      Sid: 'SnapshotRuns',
      Effect: 'Allow',
      Action: [
        's3:GetObject',
        's3:PutObject',
        's3:DeleteObject',
        's3:AbortMultipartUpload',
        's3:ListMultipartUploadParts',
      ],
      Resource: c.snapshotTables.map((t) => `${c.bucketArn}/${t}/*`),
    },
  ];
}

/**
 * The lab role (table-bucket's, which runs the lab's SQL) reading the snapshots as analysts do, and the comparison on
 * the source: Athena in the snapshot workgroup (results under its prefix, with the caller's rights), the database's
 * Glue entries, the published runs' files. The source side is the role's own policy (the lab's table bucket).
 */
export function labRoleSnapshotsPolicy(c: Omit<SnapshotPolicyContext, 'logGroupArn'>): PolicyStatement[] {
  return [
    {
      Sid: 'AthenaInTheSnapshotWorkgroup',
      Effect: 'Allow',
      Action: [
        'athena:StartQueryExecution',
        'athena:GetQueryExecution',
        'athena:GetQueryResults',
        'athena:StopQueryExecution',
      ],
      Resource: [c.arn('athena', `workgroup/${c.workgroup}`)],
    },
    {
      Sid: 'ReadTheSnapshotTables',
      Effect: 'Allow',
      Action: ['glue:GetDatabase', 'glue:GetTable', 'glue:GetTables'],
      Resource: [
        c.arn('glue', 'catalog'),
        c.arn('glue', `database/${c.database}`),
        ...c.snapshotTables.map((t) => c.arn('glue', `table/${c.database}/${t}`)),
      ],
    },
    {
      Sid: 'SnapshotBucketListing',
      Effect: 'Allow',
      Action: ['s3:ListBucket', 's3:GetBucketLocation'],
      Resource: [c.bucketArn],
    },
    {
      Sid: 'SnapshotFilesAndQueryResults',
      Effect: 'Allow',
      Action: ['s3:GetObject', 's3:PutObject', 's3:AbortMultipartUpload', 's3:ListMultipartUploadParts'],
      Resource: [`${c.bucketArn}/${c.resultsPrefix}*`],
    },
    {
      Sid: 'ReadSnapshotRuns',
      Effect: 'Allow',
      Action: ['s3:GetObject'],
      Resource: c.snapshotTables.map((t) => `${c.bucketArn}/${t}/*`),
    },
  ];
}

export function stateMachinePolicy(functionArns: readonly string[], topicArn: string): PolicyStatement[] {
  return [
    {
      Sid: 'InvokeTheTwoSteps',
      Effect: 'Allow',
      Action: ['lambda:InvokeFunction'],
      Resource: functionArns.flatMap((a) => [a, `${a}:*`]),
    },
    { Sid: 'PublishFailureAlerts', Effect: 'Allow', Action: ['sns:Publish'], Resource: [topicArn] },
  ];
}

export function schedulerPolicy(stateMachineArn: string): PolicyStatement[] {
  return [
    {
      Sid: 'StartDailyExecution',
      Effect: 'Allow',
      Action: ['states:StartExecution'],
      Resource: [stateMachineArn],
    },
  ];
}
