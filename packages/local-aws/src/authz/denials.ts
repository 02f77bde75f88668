// A refused request, answered in the shape the service's clients expect (each service's "Common Errors" and its API
// model): awsJson services (Firehose, Athena, Glue) answer AccessDeniedException / UnrecognizedClientException with
// HTTP 400, S3 Tables (restJson) with 403, S3 its XML AccessDenied / InvalidAccessKeyId (403), STS its awsQuery
// ErrorResponse (AccessDenied, InvalidClientTokenId), and the Iceberg REST endpoint the REST spec's 403
// ForbiddenException / 401 NotAuthorizedException.
import { renderError, type ErrorStyle, type WireResponse } from '../protocol';
import { AwsServiceError } from '../errors';

export type Refusal =
  | { readonly kind: 'access-denied'; readonly message: string }
  /** No principal has the access key (or a temporary key came without its session token). */
  | { readonly kind: 'unknown-key' }
  | { readonly kind: 'expired' }
  /** An unsigned request. */
  | { readonly kind: 'missing' };

export interface RefusingService {
  readonly errorStyle: ErrorStyle;
}

const INVALID_TOKEN = 'The security token included in the request is invalid.';

/** The service's error for a refusal, by its protocol; rendered by the protocol's own error writer. */
function refusalError(style: ErrorStyle, refused: Refusal): AwsServiceError {
  const denied = refused.kind === 'access-denied' ? refused.message : undefined;
  switch (style.protocol) {
    case 'awsQuery':
      if (denied !== undefined) return new AwsServiceError('AccessDenied', 403, denied);
      if (refused.kind === 'expired')
        return new AwsServiceError(
          'ExpiredToken',
          400,
          'The security token included in the request is expired',
        );
      if (refused.kind === 'missing')
        return new AwsServiceError(
          'MissingAuthenticationToken',
          403,
          'Request is missing Authentication Token',
        );
      return new AwsServiceError('InvalidClientTokenId', 403, INVALID_TOKEN);
    case 'icebergRest':
      if (denied !== undefined) return new AwsServiceError('ForbiddenException', 403, denied);
      return new AwsServiceError(
        'NotAuthorizedException',
        401,
        refused.kind === 'missing' ? 'Missing Authentication Token' : INVALID_TOKEN,
      );
    case 'restXml':
      if (denied !== undefined) return new AwsServiceError('AccessDenied', 403, denied);
      if (refused.kind === 'missing') return new AwsServiceError('AccessDenied', 403, 'Access Denied');
      if (refused.kind === 'expired')
        return new AwsServiceError('ExpiredToken', 400, 'The provided token has expired.');
      return new AwsServiceError(
        'InvalidAccessKeyId',
        403,
        'The AWS Access Key Id you provided does not exist in our records.',
      );
    default: {
      const status = style.protocol === 'restJson1' ? 403 : 400;
      if (denied !== undefined) return new AwsServiceError('AccessDeniedException', status, denied);
      if (refused.kind === 'missing')
        return new AwsServiceError(
          'MissingAuthenticationTokenException',
          status,
          'Missing Authentication Token',
        );
      if (refused.kind === 'expired')
        return new AwsServiceError(
          'ExpiredTokenException',
          status,
          'The security token included in the request is expired',
        );
      return new AwsServiceError('UnrecognizedClientException', status, INVALID_TOKEN);
    }
  }
}

export function refusal(service: RefusingService, refused: Refusal): WireResponse {
  return renderError(service.errorStyle, refusalError(service.errorStyle, refused));
}
