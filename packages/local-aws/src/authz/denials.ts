// A refused request, answered in the shape the service's clients expect (each service's "Common Errors" and its API
// model): awsJson services (Firehose, Athena, Glue, CloudWatch) answer AccessDeniedException /
// UnrecognizedClientException with HTTP 400, S3 Tables (restJson) with 403, S3 its XML AccessDenied /
// InvalidAccessKeyId (403), STS its awsQuery ErrorResponse (AccessDenied, InvalidClientTokenId), and the Iceberg REST
// endpoint the REST spec's 403 ForbiddenException / 401 NotAuthorizedException. A signature AWS would not read is
// refused as each protocol refuses it: SigV2 and malformed SigV4 are IncompleteSignature(Exception) for the JSON and
// query services ("The request signature does not conform to AWS standards", Common Errors, HTTP 400) and S3's
// InvalidRequest ("Please use AWS4-HMAC-SHA256") / AuthorizationHeaderMalformed / AuthorizationQueryParametersError;
// a credential scoped to another service is InvalidSignatureException ("Credential should be scoped to correct
// service: '<name>'."), STS's SignatureDoesNotMatch, S3's AuthorizationHeaderMalformed ("incorrect service").
import { renderError, type ErrorStyle, type WireResponse } from '../protocol';
import { AwsServiceError } from '../errors';
import type { CredentialProblem } from './sigv4';

export type Refusal =
  | { readonly kind: 'access-denied'; readonly message: string }
  /** No principal has the access key (or a temporary key came without its session token). */
  | { readonly kind: 'unknown-key'; readonly accessKeyId?: string }
  | { readonly kind: 'expired' }
  /** A signature the endpoint cannot read as SigV4 for this service (missing, SigV2, malformed, mis-scoped). */
  | { readonly kind: 'credential'; readonly problem: CredentialProblem };

export interface RefusingService {
  readonly errorStyle: ErrorStyle;
}

const INVALID_TOKEN = 'The security token included in the request is invalid.';
const INCOMPLETE = 'IncompleteSignature';
const SIGNATURE_MISMATCH =
  'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.';
const scoped = (service: string) => `Credential should be scoped to correct service: '${service}'. `;

/** The message of a signature problem, as the JSON and query services word it. */
function signatureMessage(problem: Exclude<CredentialProblem, { kind: 'missing' }>): string {
  switch (problem.kind) {
    case 'sigv2':
      return `'${problem.detail.replace(/^AWS\s+/, '')}' not a valid key=value pair (missing equal-sign) in Authorization header: '${problem.detail}'. Sign requests with Signature Version 4 (AWS4-HMAC-SHA256).`;
    case 'wrong-service':
      return `${scoped(problem.expected)}(the credential scope names '${problem.service}')`;
    case 'bad-signature':
      return `${SIGNATURE_MISMATCH} (${problem.detail})`;
    default:
      return problem.detail;
  }
}

function s3SignatureError(problem: Exclude<CredentialProblem, { kind: 'missing' }>): AwsServiceError {
  switch (problem.kind) {
    case 'sigv2':
      return new AwsServiceError(
        'The authorization mechanism you have provided is not supported. Please use AWS4-HMAC-SHA256.',
        { type: 'InvalidRequest', status: 400 },
      );
    case 'unsupported-scheme':
      return new AwsServiceError('Unsupported Authorization Type', {
        type: 'InvalidArgument',
        status: 400,
        fields: {
          ArgumentName: 'Authorization',
        },
      });
    case 'malformed':
      return problem.presigned
        ? new AwsServiceError(problem.detail, { type: 'AuthorizationQueryParametersError', status: 400 })
        : new AwsServiceError(`The authorization header is malformed; ${problem.detail}`, {
            type: 'AuthorizationHeaderMalformed',
            status: 400,
          });
    case 'wrong-service':
      return new AwsServiceError(
        `The authorization header is malformed; incorrect service "${problem.service}". This endpoint belongs to "${problem.expected}".`,
        { type: 'AuthorizationHeaderMalformed', status: 400 },
      );
    case 'bad-signature':
      return new AwsServiceError(
        `The request signature we calculated does not match the signature you provided. Check your key and signing method. (${problem.detail})`,
        { type: 'SignatureDoesNotMatch', status: 403 },
      );
    case 'request-expired':
      return new AwsServiceError(problem.detail, { type: 'AccessDenied', status: 403 });
  }
}

/** The service's error for a refusal, by its protocol; rendered by the protocol's own error writer. */
function refusalError(style: ErrorStyle, refused: Refusal): AwsServiceError {
  const denied = refused.kind === 'access-denied' ? refused.message : undefined;
  const problem = refused.kind === 'credential' ? refused.problem : undefined;
  const missing = problem?.kind === 'missing';
  const unreadable = problem && problem.kind !== 'missing' ? problem : undefined;
  switch (style.protocol) {
    case 'awsQuery':
      if (denied !== undefined) return new AwsServiceError(denied, { type: 'AccessDenied', status: 403 });
      if (refused.kind === 'expired')
        return new AwsServiceError('The security token included in the request is expired', {
          type: 'ExpiredToken',
          status: 400,
        });
      if (missing)
        return new AwsServiceError('Request is missing Authentication Token', {
          type: 'MissingAuthenticationToken',
          status: 403,
        });
      if (unreadable) {
        const mismatch = unreadable.kind === 'wrong-service' || unreadable.kind === 'bad-signature';
        return mismatch
          ? new AwsServiceError(signatureMessage(unreadable), { type: 'SignatureDoesNotMatch', status: 403 })
          : new AwsServiceError(signatureMessage(unreadable), { type: INCOMPLETE, status: 400 });
      }
      return new AwsServiceError(INVALID_TOKEN, { type: 'InvalidClientTokenId', status: 403 });
    case 'icebergRest':
      if (denied !== undefined)
        return new AwsServiceError(denied, { type: 'ForbiddenException', status: 403 });
      return new AwsServiceError(
        missing
          ? 'Missing Authentication Token'
          : unreadable
            ? signatureMessage(unreadable)
            : refused.kind === 'expired'
              ? 'The security token included in the request is expired'
              : INVALID_TOKEN,
        { type: 'NotAuthorizedException', status: 401 },
      );
    case 'restXml':
      if (denied !== undefined) return new AwsServiceError(denied, { type: 'AccessDenied', status: 403 });
      if (missing) return new AwsServiceError('Access Denied', { type: 'AccessDenied', status: 403 });
      if (unreadable) return s3SignatureError(unreadable);
      if (refused.kind === 'expired')
        return new AwsServiceError('The provided token has expired.', { type: 'ExpiredToken', status: 400 });
      return new AwsServiceError('The AWS Access Key Id you provided does not exist in our records.', {
        type: 'InvalidAccessKeyId',
        status: 403,
        fields:
          refused.kind === 'unknown-key' && refused.accessKeyId !== undefined
            ? { AWSAccessKeyId: refused.accessKeyId }
            : {},
      });
    default: {
      const status = style.protocol === 'restJson1' ? 403 : 400;
      if (denied !== undefined)
        return new AwsServiceError(denied, { type: 'AccessDeniedException', status: status });
      if (missing)
        return new AwsServiceError('Missing Authentication Token', {
          type: 'MissingAuthenticationTokenException',
          status: status,
        });
      if (unreadable) {
        const invalid = unreadable.kind === 'wrong-service' || unreadable.kind === 'bad-signature';
        return invalid
          ? new AwsServiceError(signatureMessage(unreadable), {
              type: 'InvalidSignatureException',
              status: status,
            })
          : new AwsServiceError(signatureMessage(unreadable), {
              type: `${INCOMPLETE}Exception`,
              status: 400,
            });
      }
      if (refused.kind === 'expired')
        return new AwsServiceError('The security token included in the request is expired', {
          type: 'ExpiredTokenException',
          status: status,
        });
      return new AwsServiceError(INVALID_TOKEN, { type: 'UnrecognizedClientException', status: status });
    }
  }
}

export function refusal(service: RefusingService, refused: Refusal): WireResponse {
  return renderError(service.errorStyle, refusalError(service.errorStyle, refused));
}
