// A refused request, answered in the shape the service's clients expect (each service's "Common Errors" and its API
// model): awsJson services (Firehose, Athena, Glue) answer AccessDeniedException / UnrecognizedClientException with
// HTTP 400, S3 Tables (restJson) with 403, S3 its XML AccessDenied / InvalidAccessKeyId (403), STS its awsQuery
// ErrorResponse (AccessDenied, InvalidClientTokenId), and the Iceberg REST endpoint the REST spec's 403
// ForbiddenException / 401 NotAuthorizedException.
import { renderError, renderReply, type ErrorStyle, type WireResponse } from '../protocol';
import { stsError } from './aws-query';
import { AwsServiceError } from '../errors';

export type Refusal =
  | { readonly kind: 'access-denied'; readonly message: string }
  /** No principal has the access key (or a temporary key came without its session token). */
  | { readonly kind: 'unknown-key' }
  | { readonly kind: 'expired' }
  /** An unsigned request. */
  | { readonly kind: 'missing' };

export interface RefusingService {
  readonly name: string;
  readonly errorStyle: ErrorStyle;
}

const INVALID_TOKEN = 'The security token included in the request is invalid.';

/** STS's error document, as STS writes it for its own refusals. */
const awsQueryError = (status: number, code: string, message: string): WireResponse =>
  renderReply({ protocol: 'restXml', messageKey: 'Message' }, stsError(status, code, message));

function icebergError(code: number, type: string, message: string): WireResponse {
  return {
    status: code,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ error: { message, type, code } }),
  };
}

export function refusal(service: RefusingService, refused: Refusal): WireResponse {
  if (service.name === 'STS') {
    if (refused.kind === 'access-denied') return awsQueryError(403, 'AccessDenied', refused.message);
    if (refused.kind === 'expired')
      return awsQueryError(400, 'ExpiredToken', 'The security token included in the request is expired');
    if (refused.kind === 'missing')
      return awsQueryError(403, 'MissingAuthenticationToken', 'Request is missing Authentication Token');
    return awsQueryError(403, 'InvalidClientTokenId', INVALID_TOKEN);
  }
  if (service.name === 'S3TablesIcebergRest') {
    if (refused.kind === 'access-denied') return icebergError(403, 'ForbiddenException', refused.message);
    return icebergError(
      401,
      'NotAuthorizedException',
      refused.kind === 'missing' ? 'Missing Authentication Token' : INVALID_TOKEN,
    );
  }
  const style = service.errorStyle;
  if (style.protocol === 'restXml') {
    const error =
      refused.kind === 'access-denied'
        ? new AwsServiceError('AccessDenied', 403, refused.message)
        : refused.kind === 'missing'
          ? new AwsServiceError('AccessDenied', 403, 'Access Denied')
          : refused.kind === 'expired'
            ? new AwsServiceError('ExpiredToken', 400, 'The provided token has expired.')
            : new AwsServiceError(
                'InvalidAccessKeyId',
                403,
                'The AWS Access Key Id you provided does not exist in our records.',
              );
    return renderError(style, error);
  }
  const status = style.protocol === 'restJson1' ? 403 : 400;
  const error =
    refused.kind === 'access-denied'
      ? new AwsServiceError('AccessDeniedException', status, refused.message)
      : refused.kind === 'missing'
        ? new AwsServiceError('MissingAuthenticationTokenException', status, 'Missing Authentication Token')
        : refused.kind === 'expired'
          ? new AwsServiceError(
              'ExpiredTokenException',
              status,
              'The security token included in the request is expired',
            )
          : new AwsServiceError('UnrecognizedClientException', status, INVALID_TOKEN);
  return renderError(style, error);
}
