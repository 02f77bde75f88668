// Which IAM actions a request needs, on which resources (Service Authorization Reference: "Actions, resources, and
// condition keys" for Amazon Data Firehose, Amazon Athena, AWS Glue, Amazon S3, Amazon S3 Tables, Amazon CloudWatch): one entry per
// (action, resource), all of which must be allowed. The operation comes from the service module that claims the
// request (ServiceModule.operationOf); a served operation this table does not map is refused (fail closed), an
// operation no module serves is left to the module's own "not supported" answer.
import { bucketFromArn, deliveryStreamArn, LOCAL_ACCOUNT_ID, tableBucketArn, tableFromArn } from '../arn';

export interface RequiredPermission {
  readonly action: string;
  readonly resource: string;
}

/** What the mapping needs to know about the endpoint's state: names AWS would put in the ARNs. */
export interface ResourceLookups {
  /** The workgroup a query execution ran in (GetQueryExecution is authorized on it). */
  workgroupOfQuery(queryExecutionId: string): string | undefined;
  /** A table's id (its ARN ends in it), or undefined when the table does not exist. */
  tableId(bucket: string, namespace: string, table: string): Promise<string | undefined>;
}

/**
 * The operation as the service reads it (ServiceModule.operationOf): the same input its handler then serves, so
 * what is authorized is what runs — never a second reading of the request's body.
 */
export interface OperationCall {
  readonly service: string;
  readonly operation: string;
  readonly params: Readonly<Record<string, string>>;
  readonly input: Readonly<Record<string, unknown>>;
}

export interface MappingEnv {
  readonly region: string;
  readonly lookups: ResourceLookups;
}

/** `unmapped`: the service serves the operation but no IAM action is known for it here (refused). */
export type Mapping = RequiredPermission[] | 'unmapped';

const str = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;
const child = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

const arnOf = (env: MappingEnv, service: string, resource: string) =>
  `arn:aws:${service}:${env.region}:${LOCAL_ACCOUNT_ID}:${resource}`;

/**
 * A resource ARN the request names (tagging), as the resource the service will act on: the services match ARNs by
 * resource name whatever region or account they carry (../arn.ts), so IAM decides on the endpoint's own region and
 * account — else an ARN naming another region would slip past a Deny written for the real one. Undefined when it is
 * no ARN of the service (the service then answers that it has no such resource).
 */
function localArn(env: MappingEnv, service: string, arn: unknown): string | undefined {
  const m = /^arn:aws[a-z-]*:([a-z0-9-]+):[^:]*:[^:]*:(.+)$/.exec(str(arn) ?? '');
  return m && m[1] === service ? arnOf(env, service, m[2] as string) : undefined;
}

/** iam:PassRole on each role a request hands to a service (deduplicated). */
const passRoles = (roles: readonly (string | undefined)[]): RequiredPermission[] =>
  [...new Set(roles.filter((r): r is string => !!r))].map((resource) => ({
    action: 'iam:PassRole',
    resource,
  }));

/** Every `RoleARN` member anywhere in a Firehose input (destinations, their S3 backups, a stream's source). */
function firehoseRoles(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(firehoseRoles);
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value as Record<string, unknown>).flatMap(([key, member]) =>
    key === 'RoleARN' && typeof member === 'string' ? [member] : firehoseRoles(member),
  );
}

function firehose(call: OperationCall, env: MappingEnv): Mapping {
  const input = call.input;
  const action = `firehose:${call.operation}`;
  if (call.operation === 'ListDeliveryStreams') return [{ action, resource: '*' }];
  const name = str(input.DeliveryStreamName) ?? '';
  const stream = { action, resource: deliveryStreamArn(env.region, name) };
  if (call.operation !== 'CreateDeliveryStream' && call.operation !== 'UpdateDestination') return [stream];
  // Creating a stream, or updating its destination, hands the roles it names to Firehose: the caller needs
  // iam:PassRole on each (Firehose Developer Guide, "Controlling access with Amazon Data Firehose"; IAM User Guide,
  // "Grant a user permissions to pass a role to an AWS service"). Every RoleARN of the request counts, whatever
  // destination or update it sits in, so a member this endpoint does not read cannot carry a role past the check.
  return [stream, ...passRoles(firehoseRoles(input))];
}

function athena(call: OperationCall, env: MappingEnv): Mapping {
  const input = call.input;
  const action = `athena:${call.operation}`;
  const workgroup = (name: string | undefined) => ({
    action,
    resource: arnOf(env, 'athena', `workgroup/${name ?? 'primary'}`),
  });
  switch (call.operation) {
    case 'ListWorkGroups':
      return [{ action, resource: '*' }];
    // A workgroup's ExecutionRole is passed to Athena (Athena User Guide, Apache Spark workgroups: the creator needs
    // iam:PassRole on the execution role).
    case 'CreateWorkGroup':
      return [workgroup(str(input.Name)), ...passRoles([str(child(input.Configuration).ExecutionRole)])];
    case 'UpdateWorkGroup':
      return [
        workgroup(str(input.WorkGroup)),
        ...passRoles([str(child(input.ConfigurationUpdates).ExecutionRole)]),
      ];
    case 'GetWorkGroup':
    case 'DeleteWorkGroup':
    case 'StartQueryExecution':
    case 'ListQueryExecutions':
      return [workgroup(str(input.WorkGroup))];
    case 'GetQueryExecution':
    case 'GetQueryResults':
    case 'StopQueryExecution':
      return [workgroup(env.lookups.workgroupOfQuery(str(input.QueryExecutionId) ?? ''))];
    case 'ListTagsForResource':
    case 'TagResource':
    case 'UntagResource':
      return [{ action, resource: localArn(env, 'athena', input.ResourceARN) ?? '*' }];
    case 'BatchGetQueryExecution': {
      const ids = Array.isArray(input.QueryExecutionIds) ? input.QueryExecutionIds.map(String) : [];
      const groups = new Set(
        ids.map((id) => env.lookups.workgroupOfQuery(id)).filter((g): g is string => !!g),
      );
      return [...groups].map((g) => workgroup(g));
    }
    default:
      return 'unmapped';
  }
}

/**
 * Glue resources of a database or table: the catalog, the database, the table — in the default catalog, or in the
 * S3 Tables catalog a `<account>:s3tablescatalog/<bucket>` CatalogId names (`catalog/s3tablescatalog/<bucket>`,
 * `database/s3tablescatalog/<bucket>/<db>`, as the S3 Tables integration's policies name them).
 */
function glue(call: OperationCall, env: MappingEnv): Mapping {
  const input = call.input;
  const action = `glue:${call.operation}`;
  const federated = /^\d{12}:(s3tablescatalog(?:\/[^/]+)?)$/.exec(str(input.CatalogId) ?? '')?.[1];
  const inCatalog = federated ? `${federated}/` : '';
  const catalog = arnOf(env, 'glue', federated ? `catalog/${federated}` : 'catalog');
  // Names as Glue keeps them: "For Hive compatibility, this is folded to lowercase when it is stored" (Glue API,
  // DatabaseInput.Name and TableInput.Name), so `SNAPDB` is the database `snapdb` and is authorized as it.
  const name = (value: unknown) => (str(value) ?? '').toLowerCase();
  const database = (db: unknown) => arnOf(env, 'glue', `database/${inCatalog}${name(db)}`);
  const table = (db: unknown, t: unknown) => arnOf(env, 'glue', `table/${inCatalog}${name(db)}/${name(t)}`);
  const on = (...resources: string[]) => resources.map((resource) => ({ action, resource }));
  switch (call.operation) {
    case 'GetTags':
    case 'TagResource':
    case 'UntagResource':
      // The database or table the ARN names, by its stored (lower-case) name.
      return on(localArn(env, 'glue', str(input.ResourceArn)?.toLowerCase()) ?? '*');
    case 'GetDatabases':
      return on(catalog, arnOf(env, 'glue', `database/${inCatalog}*`));
    case 'CreateDatabase':
      return on(catalog, database(child(input.DatabaseInput).Name));
    case 'GetDatabase':
    case 'UpdateDatabase':
    case 'DeleteDatabase':
      return on(catalog, database(input.Name));
    case 'GetTables':
      return on(catalog, database(input.DatabaseName), table(input.DatabaseName, '*'));
    case 'CreateTable':
    case 'UpdateTable':
      return on(
        catalog,
        database(input.DatabaseName),
        table(input.DatabaseName, child(input.TableInput).Name),
      );
    case 'GetTable':
    case 'DeleteTable':
      return on(catalog, database(input.DatabaseName), table(input.DatabaseName, input.Name));
    case 'GetTableVersions':
      return on(catalog, database(input.DatabaseName), table(input.DatabaseName, input.TableName));
    default:
      return 'unmapped';
  }
}

function s3(call: OperationCall): Mapping {
  const { bucket = '', key = '' } = call.params;
  const bucketArn = `arn:aws:s3:::${bucket}`;
  const object = `${bucketArn}/${key}`;
  switch (call.operation) {
    case 'ListBuckets':
      return [{ action: 's3:ListAllMyBuckets', resource: '*' }];
    case 'CreateBucket':
      return [{ action: 's3:CreateBucket', resource: bucketArn }];
    case 'DeleteBucket':
      return [{ action: 's3:DeleteBucket', resource: bucketArn }];
    case 'HeadBucket':
    case 'ListObjectsV2':
      return [{ action: 's3:ListBucket', resource: bucketArn }];
    case 'GetObject':
    case 'HeadObject':
      return [{ action: 's3:GetObject', resource: object }];
    case 'PutObject':
      return [{ action: 's3:PutObject', resource: object }];
    case 'DeleteObject':
      return [{ action: 's3:DeleteObject', resource: object }];
    case 'PutBucketReplication':
      // "the user or role performing the action must have the iam:PassRole permission" for the configuration's
      // role (Amazon S3 API Reference, PutBucketReplication).
      return [
        { action: 's3:PutReplicationConfiguration', resource: bucketArn },
        ...passRoles([str(child(call.input.ReplicationConfiguration).Role)]),
      ];
    case 'DeleteObjects': {
      // Each key is authorized as its own s3:DeleteObject (Amazon S3 API Reference, DeleteObjects); none named, the
      // bucket's (S3 refuses an empty Delete as MalformedXML, but nothing is let through unchecked).
      const objects = child(call.input.Delete).Objects;
      const keys = Array.isArray(objects) ? objects.map((o) => String(child(o).Key ?? '')) : [];
      return (keys.length > 0 ? keys : ['']).map((k) => ({
        action: 's3:DeleteObject',
        resource: `${bucketArn}/${k}`,
      }));
    }
    default: {
      const action = S3_ACTIONS[call.operation];
      if (!action) return 'unmapped';
      if (call.operation === 'CopyObject') {
        const { sourceBucket = '', sourceKey = '' } = call.params;
        return [
          { action: 's3:GetObject', resource: `arn:aws:s3:::${sourceBucket}/${sourceKey}` },
          { action: 's3:PutObject', resource: object },
        ];
      }
      return [{ action, resource: OBJECT_LEVEL.has(call.operation) ? object : bucketArn }];
    }
  }
}

/**
 * S3 operations beyond the basic ones, and the IAM action each needs (Service Authorization Reference, Amazon S3:
 * a configuration's Delete is authorized as its Put where S3 has no action of its own).
 */
const S3_ACTIONS: Record<string, string> = {
  GetBucketLocation: 's3:GetBucketLocation',
  ListObjects: 's3:ListBucket',
  ListObjectVersions: 's3:ListBucketVersions',
  CopyObject: 's3:PutObject',
  CreateMultipartUpload: 's3:PutObject',
  UploadPart: 's3:PutObject',
  CompleteMultipartUpload: 's3:PutObject',
  AbortMultipartUpload: 's3:AbortMultipartUpload',
  ListParts: 's3:ListMultipartUploadParts',
  ListMultipartUploads: 's3:ListBucketMultipartUploads',
  GetBucketPolicy: 's3:GetBucketPolicy',
  PutBucketPolicy: 's3:PutBucketPolicy',
  DeleteBucketPolicy: 's3:DeleteBucketPolicy',
  GetBucketPolicyStatus: 's3:GetBucketPolicyStatus',
  GetBucketVersioning: 's3:GetBucketVersioning',
  PutBucketVersioning: 's3:PutBucketVersioning',
  GetBucketLifecycleConfiguration: 's3:GetLifecycleConfiguration',
  PutBucketLifecycleConfiguration: 's3:PutLifecycleConfiguration',
  DeleteBucketLifecycle: 's3:PutLifecycleConfiguration',
  GetBucketEncryption: 's3:GetEncryptionConfiguration',
  PutBucketEncryption: 's3:PutEncryptionConfiguration',
  DeleteBucketEncryption: 's3:PutEncryptionConfiguration',
  GetPublicAccessBlock: 's3:GetBucketPublicAccessBlock',
  PutPublicAccessBlock: 's3:PutBucketPublicAccessBlock',
  DeletePublicAccessBlock: 's3:PutBucketPublicAccessBlock',
  GetBucketOwnershipControls: 's3:GetBucketOwnershipControls',
  PutBucketOwnershipControls: 's3:PutBucketOwnershipControls',
  DeleteBucketOwnershipControls: 's3:PutBucketOwnershipControls',
  GetBucketAcl: 's3:GetBucketAcl',
  PutBucketAcl: 's3:PutBucketAcl',
  GetBucketCors: 's3:GetBucketCORS',
  PutBucketCors: 's3:PutBucketCORS',
  DeleteBucketCors: 's3:PutBucketCORS',
  GetBucketWebsite: 's3:GetBucketWebsite',
  PutBucketWebsite: 's3:PutBucketWebsite',
  DeleteBucketWebsite: 's3:DeleteBucketWebsite',
  GetBucketLogging: 's3:GetBucketLogging',
  PutBucketLogging: 's3:PutBucketLogging',
  GetBucketReplication: 's3:GetReplicationConfiguration',
  PutBucketReplication: 's3:PutReplicationConfiguration',
  DeleteBucketReplication: 's3:PutReplicationConfiguration',
  GetBucketAccelerateConfiguration: 's3:GetAccelerateConfiguration',
  PutBucketAccelerateConfiguration: 's3:PutAccelerateConfiguration',
  GetBucketRequestPayment: 's3:GetBucketRequestPayment',
  PutBucketRequestPayment: 's3:PutBucketRequestPayment',
  GetObjectLockConfiguration: 's3:GetBucketObjectLockConfiguration',
  PutObjectLockConfiguration: 's3:PutBucketObjectLockConfiguration',
  GetBucketTagging: 's3:GetBucketTagging',
  PutBucketTagging: 's3:PutBucketTagging',
  DeleteBucketTagging: 's3:PutBucketTagging',
  GetBucketNotificationConfiguration: 's3:GetBucketNotification',
  PutBucketNotificationConfiguration: 's3:PutBucketNotification',
};
/** The S3 operations above that act on an object (the rest act on the bucket). */
const OBJECT_LEVEL = new Set([
  'CopyObject',
  'CreateMultipartUpload',
  'UploadPart',
  'CompleteMultipartUpload',
  'AbortMultipartUpload',
  'ListParts',
]);

/** S3 Tables operations by the resource they act on (Service Authorization Reference, Amazon S3 Tables). */
const S3TABLES_ACCOUNT_LEVEL = new Set(['ListTableBuckets']);
const S3TABLES_BUCKET_LEVEL = new Set([
  'GetTableBucket',
  'DeleteTableBucket',
  'CreateNamespace',
  'ListNamespaces',
  'GetNamespace',
  'DeleteNamespace',
  'CreateTable',
  'ListTables',
  'GetTableBucketMaintenanceConfiguration',
  'PutTableBucketMaintenanceConfiguration',
  'GetTableBucketPolicy',
  'PutTableBucketPolicy',
  'DeleteTableBucketPolicy',
  'GetTableBucketEncryption',
  'PutTableBucketEncryption',
  'DeleteTableBucketEncryption',
  'GetTableBucketMetricsConfiguration',
  'PutTableBucketMetricsConfiguration',
  'DeleteTableBucketMetricsConfiguration',
  'GetTableBucketStorageClass',
  'PutTableBucketStorageClass',
  'GetTableBucketReplication',
  'PutTableBucketReplication',
  'DeleteTableBucketReplication',
]);
/** The S3 Tables operations that take a role (a replication configuration's). */
const REPLICATION_PUTS = new Set(['PutTableBucketReplication', 'PutTableReplication']);
/** Operations on any S3 Tables resource, named by its ARN (a table bucket or a table). */
const S3TABLES_BY_RESOURCE_ARN = new Set(['ListTagsForResource', 'TagResource', 'UntagResource']);

/**
 * What creating asks for beyond the create action (S3 Tables API reference, CreateTableBucket and CreateTable,
 * "Permissions"): a bucket created with encryptionConfiguration, storageClassConfiguration or tags also needs
 * s3tables:PutTableBucketEncryption, PutTableBucketStorageClass, TagResource; a table created with metadata,
 * encryptionConfiguration or tags also needs s3tables:PutTableData, PutTableEncryption, TagResource.
 */
const CREATE_EXTRAS: Readonly<Record<string, readonly (readonly [string, string])[]>> = {
  CreateTableBucket: [
    ['encryptionConfiguration', 's3tables:PutTableBucketEncryption'],
    ['storageClassConfiguration', 's3tables:PutTableBucketStorageClass'],
    ['tags', 's3tables:TagResource'],
  ],
  CreateTable: [
    ['metadata', 's3tables:PutTableData'],
    ['encryptionConfiguration', 's3tables:PutTableEncryption'],
    ['tags', 's3tables:TagResource'],
  ],
};

async function tableArn(env: MappingEnv, bucket: string, namespace: string, name: string): Promise<string> {
  // A table that does not exist is authorized on its bucket's tables (`bucket/<name>/table/*`): the service then
  // answers NotFound to whoever may look.
  const id = await env.lookups.tableId(bucket, namespace, name);
  return `${tableBucketArn(env.region, bucket)}/table/${id ?? '*'}`;
}

async function s3tables(call: OperationCall, env: MappingEnv): Promise<Mapping> {
  const action = `s3tables:${call.operation}`;
  const p = call.params;
  if (S3TABLES_ACCOUNT_LEVEL.has(call.operation)) return [{ action, resource: '*' }];
  if (S3TABLES_BY_RESOURCE_ARN.has(call.operation))
    return [{ action, resource: localArn(env, 's3tables', p.resourceArn) ?? '*' }];
  const input = call.input;
  const extras = (resource: string): RequiredPermission[] =>
    (CREATE_EXTRAS[call.operation] ?? []).flatMap(([member, extra]) =>
      input[member] !== undefined ? [{ action: extra, resource }] : [],
    );
  if (call.operation === 'CreateTableBucket') {
    const resource = tableBucketArn(env.region, str(input.name) ?? '');
    return [{ action, resource }, ...extras(resource)];
  }
  // A replication configuration's role is passed to S3 Tables: "You must have iam:PassRole permission" (S3 Tables
  // API reference, PutTableBucketReplication and PutTableReplication).
  const replicationRoles = REPLICATION_PUTS.has(call.operation)
    ? passRoles([str(child(input.configuration).role)])
    : [];
  // A table named by its ARN (GetTable by ARN, replication, record expiration).
  const byArn = tableFromArn(p.tableArn ?? '');
  if (byArn)
    return [
      { action, resource: `${tableBucketArn(env.region, byArn.bucket)}/table/${byArn.tableId}` },
      ...replicationRoles,
    ];
  const bucket = bucketFromArn(p.tableBucketARN ?? '') ?? '';
  if (call.operation === 'CreateTable') {
    const table = await tableArn(env, bucket, p.namespace ?? '', str(input.name) ?? '');
    return [{ action, resource: tableBucketArn(env.region, bucket) }, ...extras(table)];
  }
  if (S3TABLES_BUCKET_LEVEL.has(call.operation))
    return [{ action, resource: tableBucketArn(env.region, bucket) }, ...replicationRoles];
  if (p.namespace !== undefined && p.name !== undefined)
    return [{ action, resource: await tableArn(env, bucket, p.namespace, p.name) }];
  return 'unmapped';
}

/**
 * The Iceberg REST operations as the S3 Tables actions they are translated into ("Accessing tables using the Amazon
 * S3 Tables Iceberg REST endpoint": the endpoint "works by translating Iceberg REST API operations into
 * corresponding S3 Tables operations").
 */
const ICEBERG_ACTIONS: Readonly<Record<string, { actions: string[]; on: 'bucket' | 'table' }>> = {
  getConfig: { actions: ['s3tables:GetTableBucket'], on: 'bucket' },
  listNamespaces: { actions: ['s3tables:ListNamespaces'], on: 'bucket' },
  createNamespace: { actions: ['s3tables:CreateNamespace'], on: 'bucket' },
  loadNamespaceMetadata: { actions: ['s3tables:GetNamespace'], on: 'bucket' },
  namespaceExists: { actions: ['s3tables:GetNamespace'], on: 'bucket' },
  dropNamespace: { actions: ['s3tables:DeleteNamespace'], on: 'bucket' },
  listTables: { actions: ['s3tables:ListTables'], on: 'bucket' },
  createTable: { actions: ['s3tables:CreateTable'], on: 'bucket' },
  loadTable: { actions: ['s3tables:GetTableMetadataLocation'], on: 'table' },
  tableExists: { actions: ['s3tables:GetTable'], on: 'table' },
  updateTable: { actions: ['s3tables:UpdateTableMetadataLocation'], on: 'table' },
  dropTable: { actions: ['s3tables:DeleteTable'], on: 'table' },
};

async function icebergRest(call: OperationCall, env: MappingEnv): Promise<Mapping> {
  const mapped = ICEBERG_ACTIONS[call.operation];
  if (!mapped) return 'unmapped';
  const bucket = call.params.bucket ?? '';
  const resource =
    mapped.on === 'bucket'
      ? tableBucketArn(env.region, bucket)
      : await tableArn(env, bucket, call.params.namespace ?? '', call.params.table ?? '');
  return mapped.actions.map((action) => ({ action, resource }));
}

/**
 * CloudWatch (Service Authorization Reference, "Actions defined by Amazon CloudWatch"): the alarm operations are
 * authorized on the alarms' ARNs (`arn:aws:cloudwatch:<region>:<account>:alarm:<name>`; all alarms when none is
 * named), the metric operations have no resource type (`*`).
 */
const TAGGING_OPERATIONS = new Set(['ListTagsForResource', 'TagResource', 'UntagResource']);
const CLOUDWATCH_ALARM_OPERATIONS = new Set([
  'PutMetricAlarm',
  'DescribeAlarms',
  'DescribeAlarmHistory',
  'DeleteAlarms',
  'SetAlarmState',
]);
const CLOUDWATCH_METRIC_OPERATIONS = new Set([
  'PutMetricData',
  'GetMetricData',
  'GetMetricStatistics',
  'ListMetrics',
]);

function cloudwatch(call: OperationCall, env: MappingEnv): Mapping {
  const action = `cloudwatch:${call.operation}`;
  if (CLOUDWATCH_METRIC_OPERATIONS.has(call.operation)) return [{ action, resource: '*' }];
  // Tagging is authorized on the resource the ARN names (Service Authorization Reference, CloudWatch).
  if (TAGGING_OPERATIONS.has(call.operation))
    return [{ action, resource: localArn(env, 'cloudwatch', call.input.ResourceARN) ?? '*' }];
  if (!CLOUDWATCH_ALARM_OPERATIONS.has(call.operation)) return 'unmapped';
  const input = call.input;
  const named = [
    str(input.AlarmName),
    ...(Array.isArray(input.AlarmNames) ? input.AlarmNames.map(str) : []),
  ].filter((n): n is string => n !== undefined);
  const names = named.length > 0 ? named : ['*'];
  return names.map((name) => ({ action, resource: arnOf(env, 'cloudwatch', `alarm:${name}`) }));
}

/** The IAM permissions a request needs; `[]` for one that needs none (sts:GetCallerIdentity). */
export async function requiredPermissions(call: OperationCall, env: MappingEnv): Promise<Mapping> {
  switch (call.service) {
    case 'Firehose':
      return firehose(call, env);
    case 'Athena':
      return athena(call, env);
    case 'Glue':
      return glue(call, env);
    case 'S3':
      return s3(call);
    case 'S3Tables':
      return s3tables(call, env);
    case 'S3TablesIcebergRest':
      return icebergRest(call, env);
    case 'CloudWatch':
      return cloudwatch(call, env);
    case 'STS':
      // GetCallerIdentity needs no permission ("No permissions are required to perform this operation"); AssumeRole
      // is decided by the STS module itself, with the role's trust policy.
      return [];
    default:
      return 'unmapped';
  }
}
