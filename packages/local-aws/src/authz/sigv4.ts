// Who signed a request: the access key of its Signature Version 4 credential scope (Authorization header, or the
// X-Amz-Credential query parameter of a presigned URL) and the session token temporary credentials carry (AWS
// General Reference, "Signature Version 4 request elements"). The signature itself is not verified locally: the
// access key identifies the principal, as it does on AWS, but is not a secret here (README, "Authorization").
import type { LocalRequest } from '../protocol';

export interface RequestCredential {
  readonly accessKeyId: string;
  /** The credential scope's region and service, when the request was signed with SigV4. */
  readonly region?: string;
  readonly service?: string;
  readonly sessionToken?: string;
}

const header = (request: LocalRequest, name: string): string | undefined => {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/** The request's credential, or undefined for an unsigned (anonymous) request. */
export function requestCredential(request: LocalRequest): RequestCredential | undefined {
  const token =
    header(request, 'x-amz-security-token') ?? request.query.get('X-Amz-Security-Token') ?? undefined;
  const authorization = header(request, 'authorization');
  const scope = authorization
    ? /Credential=([^,\s]+)/.exec(authorization)?.[1]
    : (request.query.get('X-Amz-Credential') ?? undefined);
  if (scope) {
    const [accessKeyId = '', , region, service] = scope.split('/');
    return { accessKeyId, region, service, ...(token ? { sessionToken: token } : {}) };
  }
  const v2 = authorization ? /^AWS ([^:]+):/.exec(authorization)?.[1] : undefined;
  if (v2) return { accessKeyId: v2, ...(token ? { sessionToken: token } : {}) };
  return undefined;
}
