// One request's way through the endpoint, once its body is read: the admin API (/_local/*, behind AdminAccess with
// authorization on), else the service that claims it (unserved services and unclaimed requests answered in the
// caller's protocol: unserved-services.ts), spoken in the request's error style; a target that is not valid
// percent-encoding refused; the authorization step; the service's handler; and what it throws as the service's
// error (AwsServiceError as is, a name the warehouse cannot store as a validation error, anything else as internal).
import { StoredNameError } from '@loglake/lakehouse';
import { handleAdmin, type AdminContext } from './admin';
import type { AdminAccess } from './authz/admin-access';
import type { RequestAuthorizer } from './authz/request-authorizer';
import { AwsServiceError } from './errors';
import { QUERY_STYLE } from './http-exchange';
import { internalError, tooLarge, wireError } from './model/wire-errors';
import { badRequest } from './iceberg-rest/errors';
import { badTargetEscape } from './percent-encoding';
import {
  renderError,
  renderReply,
  speakingIn,
  type LocalRequest,
  type ServiceModule,
  type WireResponse,
} from './protocol';
import { RequestBodyError } from './request-body';
import { unclaimedReply, unservedServiceReply } from './unserved-services';

export interface DispatchContext {
  /** In the order they are offered each request: the first that claims it serves it. */
  services: ServiceModule[];
  /** With authorization: the step before each service's handler. */
  authorizer?: RequestAuthorizer;
  /** With authorization: who may use the admin API. */
  adminAccess?: AdminAccess;
  admin: AdminContext;
}

export type Dispatch = (request: LocalRequest) => Promise<WireResponse>;

export function createDispatch(context: DispatchContext): Dispatch {
  const { services, authorizer, adminAccess, admin } = context;
  return async (request) => {
    if (request.path.startsWith('/_local/')) {
      // The admin API is an administrator's: with authorization on, the caller is checked before anything runs.
      const refused = adminAccess?.check(request);
      if (refused) return refused;
      return handleAdmin(request, admin);
    }
    // A service the endpoint does not serve (IAM, SNS, Lambda…), and a request no service claims, are answered in
    // the protocol the caller speaks (unserved-services.ts).
    let claimed: ServiceModule | undefined;
    try {
      const unserved = unservedServiceReply(request);
      if (unserved) return unserved;
      claimed = services.find((s) => s.claims(request));
    } catch (error) {
      // Only an awsQuery form is read to be claimed: one over the limit is refused in that protocol.
      if (!(error instanceof RequestBodyError)) throw error;
      return renderError(QUERY_STYLE, tooLarge(undefined, error.message, error));
    }
    // A target that is not valid percent-encoding cannot be read one way only: refused before anyone reads it.
    const badEscape = badTargetEscape(request.path, request.rawQuery ?? '');
    if (!claimed) return unclaimedReply(request, badEscape ? uriProblem(badEscape) : undefined);
    // A service spoken in several protocols (CloudWatch) answers errors in the request's.
    const style = claimed.errorStyleFor?.(request) ?? claimed.errorStyle;
    const service = speakingIn(claimed, style);
    if (badEscape) return renderError(service.errorStyle, badUri(service, badEscape));
    try {
      if (authorizer) {
        // The request-authentication/authorization step: who signed it, and may they (authz/request-authorizer.ts).
        // It authorizes the service's own reading of the request (ServiceModule.operationOf), which handle() serves.
        const outcome = await authorizer.authorize(request, service);
        if ('refused' in outcome) return outcome.refused;
        request.caller = outcome.caller;
      }
      return renderReply(service.errorStyle, await claimed.handle(request));
    } catch (error) {
      return renderError(service.errorStyle, serviceErrorOf(service, error));
    }
  };
}

/** What a service's handler threw, as the error the service answers. */
function serviceErrorOf(service: ServiceModule, error: unknown): AwsServiceError {
  if (error instanceof AwsServiceError) return error;
  if (error instanceof StoredNameError)
    // A name the one name → path mapping cannot store: the caller's input, the service's validation error.
    return (
      service.api?.invalid(error.message) ??
      wireError(undefined, 'ValidationException', error.message, { cause: error })
    );
  return internalError(
    service.internalErrorCode,
    `Internal error in the local endpoint: ${error instanceof Error ? error.message : String(error)}`,
    error,
  );
}

const uriProblem = (bad: { where: string; escape: string }) =>
  `its ${bad.where} holds ${JSON.stringify(bad.escape)}, which is no valid percent-encoding of UTF-8 (encode "%" as %25).`;

/**
 * A path or query string that is not valid percent-encoding, in the service's error: S3's InvalidURI ("Couldn't parse
 * the specified URI", 400: Amazon S3 API Reference, "Error responses"), the Iceberg REST spec's 400, the others'
 * malformed-input error (SerializationException, ValidationError…, 400).
 */
function badUri(service: ServiceModule, bad: { where: string; escape: string }): AwsServiceError {
  const message = `Couldn't parse the specified URI: ${uriProblem(bad)}`;
  switch (service.errorStyle.protocol) {
    case 'restXml':
      return wireError('s3', 'InvalidURI', message);
    case 'icebergRest':
      return badRequest(message);
    default:
      return service.api?.malformed(message) ?? wireError(undefined, 'ValidationException', message);
  }
}
