// S3's operations on buckets themselves: create (with its region, object ownership and Object Lock headers), head,
// delete, list, location and policy status. Its own module beside buckets.ts (what a bucket record holds) and
// bucket-configurations.ts (the `?policy`, `?versioning`, … documents): these are the handlers and their replies.
import type { CreateBucketConfiguration } from '@aws-sdk/client-s3';
import type { Wire } from '../model/api';
import type { LocalReply, LocalRequest } from '../protocol';
import { xmlEscape } from '../xml';
import { bucketConfigurationOf } from './bucket-configurations';
import { decodeContinuationToken } from './objects';
import type { S3Call, S3Context, S3Handlers } from './operation';
import { empty, iso, NS, ownerElement, tag, xml } from './replies';

export function bucketHandlers(context: S3Context): S3Handlers {
  const { buckets } = context;
  return {
    ListBuckets: ({ request }) => listBuckets(context, request),
    CreateBucket: (call) => createBucket(context, call),
    HeadBucket: ({ bucket }) => {
      const info = buckets.info(bucket);
      return empty(200, { 'x-amz-bucket-region': info.region, 'x-amz-access-point-alias': 'false' });
    },
    GetBucketPolicyStatus: ({ bucket }) => {
      // "IsPublic": a policy that allows anyone ("Principal": "*") without a condition (User Guide, "The meaning
      // of public").
      const policy = context.configurations.current(bucket, bucketConfigurationOf('GetBucketPolicy')!.spec);
      return xml(
        200,
        `<PolicyStatus xmlns="${NS}">${tag('IsPublic', isPublicPolicy(String(policy)))}</PolicyStatus>`,
      );
    },
    GetBucketLocation: ({ bucket }) => {
      const { region } = buckets.info(bucket);
      // us-east-1 is the empty LocationConstraint (API reference, GetBucketLocation).
      const constraint = region === 'us-east-1' ? '' : xmlEscape(region);
      return xml(200, `<LocationConstraint xmlns="${NS}">${constraint}</LocationConstraint>`);
    },
    DeleteBucket: ({ bucket }) => {
      buckets.delete(bucket);
      return empty(204);
    },
  };
}

function createBucket({ buckets, region: defaultRegion }: S3Context, { bucket, input, request }: S3Call) {
  const config = input.CreateBucketConfiguration as Wire<CreateBucketConfiguration> | undefined;
  const region = config?.LocationConstraint ?? defaultRegion;
  buckets.create(bucket, region);
  const ownership = request.headers['x-amz-object-ownership'];
  if (typeof ownership === 'string')
    buckets.setConfiguration(bucket, 'ownershipControls', { Rules: [{ ObjectOwnership: ownership }] });
  if (input.ObjectLockEnabledForBucket === true) {
    // Object Lock needs versioning, and S3 turns it on with the lock (User Guide, "Enable Object Lock").
    buckets.setConfiguration(bucket, 'versioning', { Status: 'Enabled' });
    buckets.setConfiguration(bucket, 'objectLock', { ObjectLockEnabled: 'Enabled' });
  }
  return empty(200, { location: `/${bucket}` });
}

function listBuckets({ buckets, accountId }: S3Context, request: LocalRequest): LocalReply {
  const prefix = request.query.get('prefix') ?? '';
  const max = Number(request.query.get('max-buckets') ?? '10000');
  const after = decodeContinuationToken(request.query.get('continuation-token'));
  const all = buckets
    .list()
    .filter((b) => b.name.startsWith(prefix) && (after === undefined || b.name > after));
  const page = all.slice(0, max);
  const next = all.length > page.length ? page[page.length - 1]?.name : undefined;
  const entries = page.map(
    (b) =>
      `<Bucket>${tag('Name', b.name)}${tag('CreationDate', iso(b.createdAt))}${tag('BucketRegion', b.region)}</Bucket>`,
  );
  return xml(
    200,
    `<ListAllMyBucketsResult xmlns="${NS}"><Buckets>${entries.join('')}</Buckets>${ownerElement(accountId)}` +
      `${next ? tag('ContinuationToken', Buffer.from(next).toString('base64')) : ''}${prefix ? tag('Prefix', prefix) : ''}</ListAllMyBucketsResult>`,
  );
}

function isPublicPolicy(text: string): boolean {
  const statements = ([] as unknown[]).concat((JSON.parse(text) as { Statement?: unknown }).Statement ?? []);
  return statements.some((raw) => {
    const s = raw as { Effect?: string; Principal?: unknown; Condition?: unknown };
    const principal = s.Principal as string | { AWS?: unknown } | undefined;
    const anyone =
      principal === '*' ||
      (typeof principal === 'object' && ([] as unknown[]).concat(principal?.AWS ?? []).includes('*'));
    return s.Effect === 'Allow' && anyone && s.Condition === undefined;
  });
}
