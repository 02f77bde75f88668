// S3's bucket configurations (the bucket's sub-resources: `?policy`, `?versioning`, `?lifecycle`, …), kept as the
// documents the Put operations carry — read by the model's XML bindings, checked against the model, stored, and
// written back by the Get operation's output shape — with what each Get answers when nothing was put, as the API
// reference documents it: the resource's `NoSuch…` error, or the default every new bucket has (since 2023: SSE-S3
// encryption, Block Public Access on, BucketOwnerEnforced; "Amazon S3 security changes are coming in April of
// 2023" and "Setting default server-side encryption behavior for Amazon S3 buckets", S3 User Guide).
// Kept, not acted on: lifecycle rules do not expire objects, versioning keeps no versions, replication, logging,
// website, CORS, notifications and object lock do nothing locally (packages/local-aws/README.md says so).
import type { AwsServiceError } from '../errors';
import type { CompactModel, MemberRef } from '../model/types';
import { writeXml } from '../model/xml';
import type { LocalReply } from '../protocol';
import { canonicalUserId, type Buckets } from './buckets';
import { wireError } from '../model/wire-errors';
import { malformedXml, xml } from './replies';

const notFound = (code: string, message: string) => () => wireError('s3', code, message);

/** One configuration: its operations, what Get answers before any Put (or after Delete), and S3's own rules. */
interface ConfigurationSpec {
  /** Key of the stored document. */
  readonly name: string;
  readonly get: string;
  readonly put: string;
  readonly delete?: string;
  /** Get of a configuration never put (or deleted): the documented error… */
  readonly missing?: () => AwsServiceError;
  /** …or the configuration every bucket has. */
  readonly initial?: (context: { accountId: string }) => unknown;
  /** After Delete: back to the initial one (encryption) rather than missing (public access block). */
  readonly deleteRestoresInitial?: boolean;
  /**
   * Members of the Put carried in headers that the Get (and the Put's reply) answer in the same header, with the
   * value S3 gives when none was sent.
   */
  readonly headers?: Readonly<Record<string, { header: string; initial: string }>>;
  /** S3's rules beyond the model (checked before the document is stored). */
  readonly check?: (document: Record<string, unknown>, bucket: string, buckets: Buckets) => void;
}

const ownerOf = (accountId: string) => ({ ID: canonicalUserId(accountId) });

export const BUCKET_CONFIGURATIONS: readonly ConfigurationSpec[] = [
  {
    name: 'policy',
    get: 'GetBucketPolicy',
    put: 'PutBucketPolicy',
    delete: 'DeleteBucketPolicy',
    missing: notFound('NoSuchBucketPolicy', 'The bucket policy does not exist'),
  },
  {
    name: 'versioning',
    get: 'GetBucketVersioning',
    put: 'PutBucketVersioning',
    // "If the versioning state has never been set on a bucket, … no versioning state is returned."
    initial: () => ({}),
  },
  {
    name: 'lifecycle',
    get: 'GetBucketLifecycleConfiguration',
    put: 'PutBucketLifecycleConfiguration',
    delete: 'DeleteBucketLifecycle',
    missing: notFound('NoSuchLifecycleConfiguration', 'The lifecycle configuration does not exist'),
    // "all_storage_classes_128K … is the default for lifecycle configurations" since September 2024 (User Guide,
    // "Transitioning objects using Amazon S3 Lifecycle").
    headers: {
      TransitionDefaultMinimumObjectSize: {
        header: 'x-amz-transition-default-minimum-object-size',
        initial: 'all_storage_classes_128K',
      },
    },
    check: (document) => {
      const rules = (document.Rules ?? []) as Record<string, unknown>[];
      if (rules.length === 0) throw malformedXml('A lifecycle configuration needs at least one Rule.');
      const ids = rules.map((r) => r.ID).filter((id) => id !== undefined);
      if (new Set(ids).size !== ids.length)
        throw wireError(
          's3',
          'InvalidArgument',
          'Rule ID must be unique. Found same ID for more than one rule',
        );
    },
  },
  {
    name: 'encryption',
    get: 'GetBucketEncryption',
    put: 'PutBucketEncryption',
    delete: 'DeleteBucketEncryption',
    initial: () => ({
      Rules: [{ ApplyServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' }, BucketKeyEnabled: false }],
    }),
    // "DeleteBucketEncryption … resets the default encryption for the bucket as server-side encryption with
    // Amazon S3 managed keys (SSE-S3)."
    deleteRestoresInitial: true,
  },
  {
    name: 'publicAccessBlock',
    get: 'GetPublicAccessBlock',
    put: 'PutPublicAccessBlock',
    delete: 'DeletePublicAccessBlock',
    initial: () => ({
      BlockPublicAcls: true,
      IgnorePublicAcls: true,
      BlockPublicPolicy: true,
      RestrictPublicBuckets: true,
    }),
    missing: notFound(
      'NoSuchPublicAccessBlockConfiguration',
      'The public access block configuration was not found',
    ),
  },
  {
    name: 'ownershipControls',
    get: 'GetBucketOwnershipControls',
    put: 'PutBucketOwnershipControls',
    delete: 'DeleteBucketOwnershipControls',
    initial: () => ({ Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] }),
    missing: notFound('OwnershipControlsNotFoundError', 'The bucket ownership controls were not found'),
  },
  {
    name: 'acl',
    get: 'GetBucketAcl',
    put: 'PutBucketAcl',
    initial: ({ accountId }) => fullControl(accountId),
  },
  {
    name: 'cors',
    get: 'GetBucketCors',
    put: 'PutBucketCors',
    delete: 'DeleteBucketCors',
    missing: notFound('NoSuchCORSConfiguration', 'The CORS configuration does not exist'),
  },
  {
    name: 'website',
    get: 'GetBucketWebsite',
    put: 'PutBucketWebsite',
    delete: 'DeleteBucketWebsite',
    missing: notFound(
      'NoSuchWebsiteConfiguration',
      'The specified bucket does not have a website configuration',
    ),
  },
  { name: 'logging', get: 'GetBucketLogging', put: 'PutBucketLogging', initial: () => ({}) },
  {
    name: 'replication',
    get: 'GetBucketReplication',
    put: 'PutBucketReplication',
    delete: 'DeleteBucketReplication',
    missing: notFound('ReplicationConfigurationNotFoundError', 'The replication configuration was not found'),
    check: (_document, bucket, buckets) => {
      if (versioningStatus(buckets, bucket) !== 'Enabled')
        throw wireError(
          's3',
          'InvalidRequest',
          "Versioning must be 'Enabled' on the bucket to apply a replication configuration",
        );
    },
  },
  {
    name: 'accelerate',
    get: 'GetBucketAccelerateConfiguration',
    put: 'PutBucketAccelerateConfiguration',
    initial: () => ({}),
  },
  {
    name: 'requestPayment',
    get: 'GetBucketRequestPayment',
    put: 'PutBucketRequestPayment',
    initial: () => ({ Payer: 'BucketOwner' }),
  },
  {
    name: 'objectLock',
    get: 'GetObjectLockConfiguration',
    put: 'PutObjectLockConfiguration',
    missing: notFound(
      'ObjectLockConfigurationNotFoundError',
      'Object Lock configuration does not exist for this bucket',
    ),
    check: (_document, bucket, buckets) => {
      if (versioningStatus(buckets, bucket) !== 'Enabled')
        throw wireError(
          's3',
          'InvalidBucketState',
          'Versioning must be enabled on the bucket to apply an Object Lock configuration',
        );
    },
  },
  {
    name: 'tagging',
    get: 'GetBucketTagging',
    put: 'PutBucketTagging',
    delete: 'DeleteBucketTagging',
    missing: notFound('NoSuchTagSet', 'The TagSet does not exist'),
    check: (document) => {
      const tags = (document.TagSet ?? []) as { Key?: string }[];
      if (tags.length > 50) throw wireError('s3', 'BadRequest', 'Object tags cannot be greater than 50');
      const keys = tags.map((t) => t.Key ?? '');
      if (new Set(keys).size !== keys.length)
        throw wireError('s3', 'InvalidTag', 'Cannot provide multiple Tags with the same key');
      if (keys.some((k) => k.toLowerCase().startsWith('aws:')))
        throw wireError('s3', 'InvalidTag', 'System tags cannot be added/updated by requester');
    },
  },
  {
    name: 'notification',
    get: 'GetBucketNotificationConfiguration',
    put: 'PutBucketNotificationConfiguration',
    initial: () => ({}),
  },
];

function fullControl(accountId: string) {
  const owner = ownerOf(accountId);
  return {
    Owner: owner,
    Grants: [{ Grantee: { ...owner, Type: 'CanonicalUser' }, Permission: 'FULL_CONTROL' }],
  };
}

function versioningStatus(buckets: Buckets, bucket: string): string | undefined {
  return (buckets.configuration(bucket, 'versioning') as { Status?: string } | undefined)?.Status;
}

const byOperation = new Map<string, { spec: ConfigurationSpec; kind: 'get' | 'put' | 'delete' }>();
for (const spec of BUCKET_CONFIGURATIONS) {
  byOperation.set(spec.get, { spec, kind: 'get' });
  byOperation.set(spec.put, { spec, kind: 'put' });
  if (spec.delete) byOperation.set(spec.delete, { spec, kind: 'delete' });
}

/** The configuration an operation reads, writes or deletes, if it is one of them. */
export function bucketConfigurationOf(operation: string) {
  return byOperation.get(operation);
}

export class BucketConfigurations {
  constructor(
    private readonly buckets: Buckets,
    private readonly model: CompactModel,
    private readonly accountId: string,
  ) {}

  /** The configuration as Get answers it: the stored document, the bucket's initial one, or the NoSuch… error. */
  current(bucket: string, spec: ConfigurationSpec): unknown {
    const stored = this.buckets.configuration(bucket, spec.name);
    if (stored !== undefined && stored !== null) return stored;
    // null = deleted: the initial configuration comes back only where S3 has no NoSuch… error for it.
    const deleted = stored === null;
    if (spec.initial && (!deleted || spec.deleteRestoresInitial || !spec.missing))
      return spec.initial({ accountId: this.accountId });
    throw (spec.missing as () => AwsServiceError)();
  }

  get(bucket: string, operation: string): LocalReply {
    const found = byOperation.get(operation);
    if (!found) throw new Error(`${operation} is not a bucket configuration operation`);
    const document = this.current(bucket, found.spec);
    const reply = this.reply(operation, document);
    return {
      ...reply,
      raw: { ...reply.raw!, headers: { ...reply.raw!.headers, ...this.headers(bucket, found.spec) } },
    };
  }

  /** `input`: the Put's members (its header members are kept for the Get). */
  put(bucket: string, operation: string, document: unknown, input: Record<string, unknown> = {}): LocalReply {
    const found = byOperation.get(operation);
    if (!found) throw new Error(`${operation} is not a bucket configuration operation`);
    this.buckets.info(bucket);
    if (document && typeof document === 'object')
      found.spec.check?.(document as Record<string, unknown>, bucket, this.buckets);
    this.buckets.setConfiguration(bucket, found.spec.name, document);
    const sent = Object.fromEntries(
      Object.keys(found.spec.headers ?? {}).flatMap((member) =>
        typeof input[member] === 'string' ? [[member, input[member]]] : [],
      ),
    );
    this.buckets.setConfiguration(
      bucket,
      `${found.spec.name}.headers`,
      Object.keys(sent).length ? sent : undefined,
    );
    return { status: 200, raw: { headers: this.headers(bucket, found.spec), body: '' } };
  }

  /** The configuration's header members as S3 answers them: as sent with the Put, else S3's default. */
  private headers(bucket: string, spec: ConfigurationSpec): Record<string, string> {
    const sent = (this.buckets.configuration(bucket, `${spec.name}.headers`) ?? {}) as Record<string, string>;
    return Object.fromEntries(
      Object.entries(spec.headers ?? {}).map(([member, { header, initial }]) => [
        header,
        sent[member] ?? initial,
      ]),
    );
  }

  delete(bucket: string, operation: string): LocalReply {
    const found = byOperation.get(operation);
    if (!found) throw new Error(`${operation} is not a bucket configuration operation`);
    this.buckets.info(bucket);
    this.buckets.setConfiguration(bucket, found.spec.name, null);
    this.buckets.setConfiguration(bucket, `${found.spec.name}.headers`, undefined);
    return { status: 204, raw: { headers: {}, body: '' } };
  }

  /** The Get operation's reply: its payload member's document, or the output structure as the document root. */
  private reply(operation: string, document: unknown): LocalReply {
    const outputName = this.model.operations[operation]?.output;
    const output = outputName ? this.model.shapes[outputName] : undefined;
    if (!outputName || !output || output.type !== 'structure')
      throw new Error(`The S3 model keeps no output shape for ${operation}`);
    const payload = Object.entries(output.members).find(([, member]) => member.httpPayload);
    const xmlns = this.model.xmlNamespace;
    if (payload) {
      const [name, member] = payload;
      const target = this.model.shapes[member.target];
      if (target && target.type !== 'structure')
        return {
          status: 200,
          raw: { headers: { 'content-type': 'application/json' }, body: String(document) },
        };
      return xml(200, writeXml(this.model, member, document, elementName(this.model, member, name), xmlns));
    }
    const ref: MemberRef = { target: outputName };
    return xml(200, writeXml(this.model, ref, document, output.xmlName ?? outputName, xmlns));
  }
}

/** A payload member's element name: its xmlName, else its target's, else the member's name. */
export function elementName(model: CompactModel, member: MemberRef, name: string): string {
  const target = model.shapes[member.target];
  return member.xmlName ?? (target && 'xmlName' in target ? target.xmlName : undefined) ?? name;
}
