// The document a bucket configuration's Put stores, as S3 takes it from the request: the payload member, or the
// canned ACL header standing for one; checked by S3's rules that need more than the document (a policy is JSON with
// statements, an ACL under BucketOwnerEnforced grants the owner alone). Its own module: bucket-configurations.ts
// keeps and answers documents whatever the request looked like; this is the request side of a Put.
import { wireError } from '../model/wire-errors';
import { bucketConfigurationOf } from './bucket-configurations';
import { canonicalUserId } from './buckets';
import type { S3Call, S3Context } from './operation';
import { payloadMember } from './request-input';

/** The document a configuration's Put stores (its payload member; a canned ACL header stands for one). */
export function configurationDocument(context: S3Context, operation: string, call: S3Call): unknown {
  const { input, bucket } = call;
  const payload = payloadMember(context.model, operation);
  const document = payload ? input[payload[0]] : undefined;
  if (operation === 'PutBucketAcl' && document === undefined)
    return cannedAcl(context.accountId, String(input.ACL ?? 'private'));
  if (document === undefined) throw wireError('s3', 'MissingRequestBodyError', 'Request Body is empty');
  if (operation === 'PutBucketPolicy') checkPolicy(String(document));
  if (operation === 'PutBucketAcl') checkAcl(context, bucket, document);
  return document;
}

function cannedAcl(accountId: string, acl: string) {
  const ownerId = canonicalUserId(accountId);
  if (acl !== 'private' && acl !== 'bucket-owner-full-control')
    throw wireError(
      's3',
      'AccessControlListNotSupported',
      `The bucket does not allow ACLs: the local S3 keeps only the owner's FULL_CONTROL (canned ACL ${acl} refused).`,
    );
  return {
    Owner: { ID: ownerId },
    Grants: [{ Grantee: { ID: ownerId, Type: 'CanonicalUser' }, Permission: 'FULL_CONTROL' }],
  };
}

/** With BucketOwnerEnforced (every new bucket's setting), S3 accepts only ACLs that grant the owner alone. */
function checkAcl(context: S3Context, bucket: string, document: unknown): void {
  const ownership = context.configurations.current(
    bucket,
    bucketConfigurationOf('GetBucketOwnershipControls')!.spec,
  ) as {
    Rules?: { ObjectOwnership?: string }[];
  };
  if (ownership.Rules?.[0]?.ObjectOwnership !== 'BucketOwnerEnforced') return;
  const ownerId = canonicalUserId(context.accountId);
  const grants = ((document as { Grants?: { Grantee?: { ID?: string } }[] }).Grants ?? []).filter(
    (g) => g.Grantee?.ID !== ownerId,
  );
  if (grants.length > 0)
    throw wireError('s3', 'AccessControlListNotSupported', 'The bucket does not allow ACLs');
}

/** S3 refuses a bucket policy that is not a JSON object with statements (MalformedPolicy, 400). */
function checkPolicy(text: string): void {
  const refuse = (why: string) => wireError('s3', 'MalformedPolicy', why);
  if (!text.trimStart().startsWith('{'))
    throw refuse("Policies must be valid JSON and the first byte must be '{'");
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw refuse("Policies must be valid JSON and the first byte must be '{'");
  }
  const statement = (parsed as { Statement?: unknown }).Statement;
  if (statement === undefined || statement === null || typeof statement !== 'object')
    throw refuse('Missing required field Statement');
}
