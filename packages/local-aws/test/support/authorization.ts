// TEST SUPPORT: an account for the authorization tests, written as the lab's stacks would synthesize it — a deployer
// with administrator access, a read-only analyst, a Firehose role — and Lake Formation grants on one table bucket.
import type { AuthorizationOptions, LocalRoleSpec } from '../../src/authz';

export const ACCOUNT = '123456789012';
export const BUCKET = 'authz-lab';
export const CATALOG_ID = `${ACCOUNT}:s3tablescatalog/${BUCKET}`;
export const WORKGROUP = 'authz-lab';
export const ERROR_BUCKET = `authz-lab-errors-${ACCOUNT}`;
export const role = (name: string) => `arn:aws:iam::${ACCOUNT}:role/${name}`;
export const DEPLOYER = role('lab-deployer');
export const ANALYST = role('lab-analyst');
export const FIREHOSE = role('lab-firehose');
export const DEPLOYER_KEY = { accessKeyId: 'AKIALOCALDEPLOYER001', secretAccessKey: 'local-deployer-secret' };

const doc = (...statements: unknown[]) => ({ Version: '2012-10-17', Statement: statements });
const glue = (resource: string) => `arn:aws:glue:us-east-1:${ACCOUNT}:${resource}`;
const glueTables = (namespaces: string[]) => [
  glue('catalog'),
  glue('catalog/s3tablescatalog'),
  glue(`catalog/s3tablescatalog/${BUCKET}`),
  ...namespaces.map((ns) => glue(`database/s3tablescatalog/${BUCKET}/${ns}`)),
  ...namespaces.map((ns) => glue(`table/s3tablescatalog/${BUCKET}/${ns}/*`)),
];

/** AWS's AdministratorAccess policy document. */
export const ADMINISTRATOR_ACCESS = doc({ Effect: 'Allow', Action: '*', Resource: '*' });
export const ADMINISTRATOR_ACCESS_ARN = 'arn:aws:iam::aws:policy/AdministratorAccess';

const deployerRole: LocalRoleSpec = {
  arn: DEPLOYER,
  trustPolicy: doc({
    Effect: 'Allow',
    Principal: { AWS: `arn:aws:iam::${ACCOUNT}:root` },
    Action: 'sts:AssumeRole',
  }),
  policies: [],
  managedPolicyArns: [ADMINISTRATOR_ACCESS_ARN],
};

export const analystRole: LocalRoleSpec = {
  arn: ANALYST,
  trustPolicy: doc({ Effect: 'Allow', Principal: { AWS: [DEPLOYER] }, Action: ['sts:AssumeRole'] }),
  policies: [
    {
      name: 'read',
      document: doc(
        {
          Effect: 'Allow',
          Action: [
            'athena:StartQueryExecution',
            'athena:GetQueryExecution',
            'athena:GetQueryResults',
            'athena:GetWorkGroup',
          ],
          Resource: `arn:aws:athena:us-east-1:${ACCOUNT}:workgroup/${WORKGROUP}`,
        },
        {
          Effect: 'Allow',
          Action: ['glue:GetCatalog', 'glue:GetDatabase', 'glue:GetTable', 'glue:GetTables'],
          Resource: glueTables(['network', 'lab']),
        },
        { Effect: 'Allow', Action: 'lakeformation:GetDataAccess', Resource: '*' },
      ),
    },
  ],
};

export function firehoseRole(
  actions = ['glue:GetTable', 'glue:GetDatabase', 'glue:UpdateTable'],
): LocalRoleSpec {
  return {
    arn: FIREHOSE,
    trustPolicy: doc({
      Effect: 'Allow',
      Principal: { Service: 'firehose.amazonaws.com' },
      Action: ['sts:AssumeRole'],
    }),
    policies: [
      {
        name: 'delivery',
        document: doc(
          {
            Effect: 'Allow',
            Action: actions,
            Resource: [
              glue('catalog'),
              glue('catalog/s3tablescatalog'),
              glue(`catalog/s3tablescatalog/${BUCKET}`),
              glue(`database/s3tablescatalog/${BUCKET}/network`),
              glue(`table/s3tablescatalog/${BUCKET}/network/vpc_flow_logs`),
            ],
          },
          { Effect: 'Allow', Action: ['lakeformation:GetDataAccess'], Resource: '*' },
          {
            Effect: 'Allow',
            Action: ['s3:PutObject', 's3:GetObject', 's3:ListBucket'],
            Resource: [`arn:aws:s3:::${ERROR_BUCKET}`, `arn:aws:s3:::${ERROR_BUCKET}/*`],
          },
        ),
      },
    ],
  };
}

/** The account; `extraRoles` and `grants` add to it. */
export function testAuthorization(
  options: { firehose?: LocalRoleSpec; extraRoles?: LocalRoleSpec[] } = {},
): AuthorizationOptions {
  return {
    roles: [deployerRole, analystRole, options.firehose ?? firehoseRole(), ...(options.extraRoles ?? [])],
    credentials: [{ ...DEPLOYER_KEY, roleArn: DEPLOYER, sessionName: 'lab' }],
    administrators: [DEPLOYER],
    managedPolicies: { [ADMINISTRATOR_ACCESS_ARN]: ADMINISTRATOR_ACCESS },
    resourcePolicies: [
      {
        resourceArn: `arn:aws:s3:::${ERROR_BUCKET}`,
        document: doc({
          Sid: 'DenyInsecureTransport',
          Effect: 'Deny',
          Principal: { AWS: '*' },
          Action: ['s3:*'],
          Resource: [`arn:aws:s3:::${ERROR_BUCKET}`, `arn:aws:s3:::${ERROR_BUCKET}/*`],
          Condition: { Bool: { 'aws:SecureTransport': 'false' } },
        }),
      },
    ],
    lakeFormation: {
      dataLakeAdmins: [DEPLOYER],
      grants: [
        {
          principal: DEPLOYER,
          permissions: ['DESCRIBE', 'CREATE_TABLE', 'ALTER', 'DROP'],
          catalogId: CATALOG_ID,
          database: 'network',
        },
        { principal: DEPLOYER, permissions: ['ALL'], catalogId: CATALOG_ID, database: 'network', table: '*' },
        {
          principal: DEPLOYER,
          permissions: ['DESCRIBE', 'CREATE_TABLE'],
          catalogId: CATALOG_ID,
          database: 'lab',
        },
        { principal: ANALYST, permissions: ['DESCRIBE'], catalogId: CATALOG_ID, database: 'network' },
        {
          principal: ANALYST,
          permissions: ['SELECT', 'DESCRIBE'],
          catalogId: CATALOG_ID,
          database: 'network',
          table: '*',
        },
        { principal: FIREHOSE, permissions: ['DESCRIBE'], catalogId: CATALOG_ID, database: 'network' },
        {
          principal: FIREHOSE,
          permissions: ['ALL'],
          catalogId: CATALOG_ID,
          database: 'network',
          table: 'vpc_flow_logs',
        },
      ],
    },
  };
}
