// Who signed a request, read as AWS reads it: Signature Version 4 only, in the Authorization header or as a presigned
// URL's query parameters (IAM User Guide, "Elements of an AWS API request signature" and "Authentication methods";
// SigV2 is not accepted: "Services, such as Amazon S3, and Regions no longer support SigV2 signing", "Troubleshoot
// Signature Version 4 signing"). The credential scope must be well formed — `<access key>/<yyyymmdd>/<region>/
// <service>/aws4_request` — and name the service addressed; the access key must have the form STS and IAM give it
// (AccessKeyId: 16–128 word characters) before anything is looked up by it. The signature itself is not verified
// locally (README, "Authorization"), but it must look like one (64 hex digits).
import type { LocalRequest } from '../protocol';

export interface RequestCredential {
  readonly accessKeyId: string;
  /** The credential scope's region and service. */
  readonly region: string;
  readonly service: string;
  readonly sessionToken?: string;
}

/** Why a request's identity cannot be read (each protocol answers it with its own error: ./denials). */
export type CredentialProblem =
  /** Neither an Authorization header nor presigned parameters. */
  | { readonly kind: 'missing' }
  /** Signature Version 2 (`Authorization: AWS <key>:<sig>`, or `AWSAccessKeyId=&Signature=` in the query). */
  | { readonly kind: 'sigv2'; readonly detail: string }
  /** An Authorization scheme that is no AWS signature at all (`Bearer …`). */
  | { readonly kind: 'unsupported-scheme'; readonly detail: string }
  /** A SigV4 signature that lacks a part or whose credential scope is not well formed. */
  | { readonly kind: 'malformed'; readonly detail: string; readonly presigned: boolean }
  /** A credential scoped to another service than the one addressed. */
  | { readonly kind: 'wrong-service'; readonly service: string; readonly expected: string }
  /** A signature that cannot be one (not 64 hex digits). */
  | { readonly kind: 'bad-signature'; readonly detail: string }
  /** A presigned URL past its X-Amz-Expires. */
  | { readonly kind: 'request-expired'; readonly detail: string };

export type CredentialReading =
  { readonly credential: RequestCredential } | { readonly problem: CredentialProblem };

/** The SigV4 signing name of each service the endpoint serves (the models' `aws.auth#sigv4` name). */
export const SIGNING_NAMES: Readonly<Record<string, string>> = {
  Firehose: 'firehose',
  Athena: 'athena',
  Glue: 'glue',
  S3: 's3',
  S3Tables: 's3tables',
  // S3 Tables' Iceberg REST endpoint signs as S3 Tables ("signing name s3tables", user guide).
  S3TablesIcebergRest: 's3tables',
  CloudWatch: 'monitoring',
  STS: 'sts',
};

/** STS's and IAM's AccessKeyId: `[\w]*`, 16 to 128 characters (STS API Reference, Credentials). */
export const ACCESS_KEY_ID = /^\w{16,128}$/;
const ALGORITHM = 'AWS4-HMAC-SHA256';
const SIGNATURE = /^[0-9a-f]{64}$/;
const DATE = /^\d{8}$/;
const REGION = /^[a-z0-9-]{1,64}$/;
const SCOPE_FORMAT = '<YOUR-AKID>/YYYYMMDD/REGION/SERVICE/aws4_request';

const header = (request: LocalRequest, name: string): string | undefined => {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

const malformed = (detail: string, presigned = false): CredentialReading => ({
  problem: { kind: 'malformed', detail, presigned },
});

/** The credential scope's parts, or why it is not one. */
function scopeOf(
  scope: string,
  presigned: boolean,
): { accessKeyId: string; region: string; service: string } | CredentialReading {
  const parts = scope.split('/');
  const [accessKeyId = '', date = '', region = '', service = '', terminator = ''] = parts;
  if (
    parts.length !== 5 ||
    !DATE.test(date) ||
    !REGION.test(region) ||
    !service ||
    terminator !== 'aws4_request'
  )
    return malformed(`the Credential is mal-formed; expecting "${SCOPE_FORMAT}"; got "${scope}"`, presigned);
  return { accessKeyId, region, service };
}

/** The pairs of `Credential=…, SignedHeaders=…, Signature=…`, or the first part that is no pair. */
function pairsOf(text: string): Map<string, string> | { notPair: string } {
  const pairs = new Map<string, string>();
  for (const raw of text.split(',')) {
    const part = raw.trim();
    if (part === '') continue;
    const eq = part.indexOf('=');
    if (eq <= 0) return { notPair: part };
    pairs.set(part.slice(0, eq), part.slice(eq + 1));
  }
  return pairs;
}

function fromHeader(request: LocalRequest, authorization: string): CredentialReading {
  const space = authorization.indexOf(' ');
  const scheme = space < 0 ? authorization : authorization.slice(0, space);
  const rest = space < 0 ? '' : authorization.slice(space + 1);
  if (scheme === 'AWS') return { problem: { kind: 'sigv2', detail: authorization } };
  if (scheme !== ALGORITHM) {
    // What AWS's JSON services answer for any other scheme (and S3 calls "Unsupported Authorization Type").
    const pairs = pairsOf(rest || scheme);
    const notPair = 'notPair' in pairs ? pairs.notPair : rest || scheme;
    return {
      problem: {
        kind: 'unsupported-scheme',
        detail: `'${notPair}' not a valid key=value pair (missing equal-sign) in Authorization header: '${authorization}'.`,
      },
    };
  }
  const pairs = pairsOf(rest);
  if ('notPair' in pairs)
    return malformed(
      `'${pairs.notPair}' not a valid key=value pair (missing equal-sign) in Authorization header: '${authorization}'.`,
    );
  const missing = ['Credential', 'Signature', 'SignedHeaders']
    .filter((name) => !pairs.get(name))
    .map((name) => `Authorization header requires '${name}' parameter.`);
  if (!header(request, 'x-amz-date') && !header(request, 'date'))
    missing.push("Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' header.");
  if (missing.length > 0) return malformed(`${missing.join(' ')} Authorization=${authorization}`);
  const scope = scopeOf(pairs.get('Credential') as string, false);
  if ('problem' in scope || 'credential' in scope) return scope;
  const signature = pairs.get('Signature') as string;
  if (!SIGNATURE.test(signature))
    return { problem: { kind: 'bad-signature', detail: `Signature=${signature}` } };
  const token = header(request, 'x-amz-security-token');
  return { credential: { ...scope, ...(token !== undefined ? { sessionToken: token } : {}) } };
}

/**
 * A presigned URL's credential (S3 API Reference, "Authenticating Requests: Using Query Parameters (AWS Signature
 * Version 4)"): X-Amz-Algorithm, -Credential, -Date, -Expires, -SignedHeaders and -Signature are all required;
 * X-Amz-Expires is the seconds the URL is valid for after X-Amz-Date, at least 1 and at most 604800 (seven days).
 * A URL past it is refused ("Request has expired"), and one without it or with another value is malformed.
 */
function fromQuery(request: LocalRequest, now: number): CredentialReading {
  const q = request.query;
  const presigned = [
    'X-Amz-Algorithm',
    'X-Amz-Credential',
    'X-Amz-Date',
    'X-Amz-Expires',
    'X-Amz-SignedHeaders',
    'X-Amz-Signature',
  ];
  const missing = presigned.filter((name) => !q.get(name));
  if (missing.length > 0)
    return malformed(
      `Query-string authentication version 4 requires the X-Amz-Algorithm, X-Amz-Credential, X-Amz-Signature, X-Amz-Date, X-Amz-Expires and X-Amz-SignedHeaders parameters; missing ${missing.join(', ')}.`,
      true,
    );
  if (q.get('X-Amz-Algorithm') !== ALGORITHM)
    return malformed(
      `X-Amz-Algorithm only supports "${ALGORITHM}"; got "${q.get('X-Amz-Algorithm')}".`,
      true,
    );
  const scope = scopeOf(q.get('X-Amz-Credential') as string, true);
  if ('problem' in scope || 'credential' in scope) return scope;
  const signature = q.get('X-Amz-Signature') as string;
  if (!SIGNATURE.test(signature))
    return { problem: { kind: 'bad-signature', detail: `X-Amz-Signature=${signature}` } };
  const date = q.get('X-Amz-Date') as string;
  const expires = q.get('X-Amz-Expires') as string;
  const signedAt = parseAmzDate(date);
  if (signedAt === undefined)
    return malformed(
      `X-Amz-Date must be in the ISO8601 Long Format "yyyyMMdd'T'HHmmss'Z'"; got "${date}".`,
      true,
    );
  if (!/^\d+$/.test(expires))
    return malformed(`X-Amz-Expires should be a number of seconds from 1 to 604800; got "${expires}".`, true);
  const seconds = Number(expires);
  if (seconds < 1 || seconds > MAX_PRESIGNED_SECONDS)
    return malformed(
      `X-Amz-Expires must be at least 1 and less than a week (in seconds) that is, the given X-Amz-Expires must be at most ${MAX_PRESIGNED_SECONDS} seconds; got ${expires}.`,
      true,
    );
  if (signedAt + seconds * 1000 < now)
    return {
      problem: {
        kind: 'request-expired',
        detail: `Request has expired (X-Amz-Date ${date}, X-Amz-Expires ${expires}, server time ${new Date(now).toISOString()}).`,
      },
    };
  const token = q.get('X-Amz-Security-Token');
  return { credential: { ...scope, ...(token !== null ? { sessionToken: token } : {}) } };
}

/** The longest a presigned URL may be valid: seven days. */
const MAX_PRESIGNED_SECONDS = 604800;

/** `yyyyMMddTHHmmssZ` as epoch milliseconds. */
function parseAmzDate(text: string): number | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(text);
  if (!m) return undefined;
  const ms = Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!);
  return Number.isFinite(ms) ? ms : undefined;
}

/**
 * The request's SigV4 credential, checked against the service it addresses (`signingName`; undefined for the admin
 * API, which is no AWS service and has no signing name), or the problem that keeps it from being one. Nothing is
 * looked up here.
 */
export function readCredential(
  request: LocalRequest,
  signingName: string | undefined,
  now = Date.now(),
): CredentialReading {
  const authorization = header(request, 'authorization');
  const query = request.query;
  const presigned =
    query.has('X-Amz-Credential') || query.has('X-Amz-Algorithm') || query.has('X-Amz-Signature');
  const v2Query = query.has('AWSAccessKeyId') || (query.has('Signature') && !presigned);
  if (authorization !== undefined && (presigned || v2Query))
    return malformed('Only one auth mechanism allowed: an Authorization header or query-string parameters.');
  let reading: CredentialReading;
  if (authorization !== undefined) reading = fromHeader(request, authorization.trim());
  else if (presigned) reading = fromQuery(request, now);
  else if (v2Query)
    return { problem: { kind: 'sigv2', detail: `AWSAccessKeyId=${query.get('AWSAccessKeyId') ?? ''}` } };
  else return { problem: { kind: 'missing' } };
  if ('problem' in reading) return reading;
  if (signingName !== undefined && reading.credential.service !== signingName)
    return { problem: { kind: 'wrong-service', service: reading.credential.service, expected: signingName } };
  return reading;
}

/** The SigV4 credential scope's parts as written (nothing checked): for messages and for telling services apart. */
function writtenScope(request: LocalRequest): string[] | undefined {
  const authorization = header(request, 'authorization');
  const scope = authorization
    ? /Credential=([^,\s]+)/.exec(authorization)?.[1]
    : (request.query.get('X-Amz-Credential') ?? undefined);
  return scope?.split('/');
}

/** The access key of a request that carries one in a SigV4 scope (whatever else is wrong with it), for messages. */
export function accessKeyOf(request: LocalRequest): string | undefined {
  return writtenScope(request)?.[0];
}

/**
 * The service a request's SigV4 scope names (its signing name: `iam`, `sns`, `monitoring`…), unchecked: which
 * protocol to answer an unserved service in. Who the caller is is read by readCredential alone.
 */
export function scopeServiceOf(request: LocalRequest): string | undefined {
  // Read from the right: the scope ends `<service>/aws4_request` whatever the key holds (a key with `/` in it is
  // refused by readCredential, but must not pass for another service here).
  const parts = writtenScope(request);
  return parts && parts.length >= 5 && parts.at(-1) === 'aws4_request'
    ? parts.at(-2) || undefined
    : undefined;
}
