// STS when the endpoint does not enforce authorization: GetCallerIdentity answers for the endpoint's one account,
// as its root user — every request is served whatever signs it, as for the root user on AWS ("No permissions are
// required to perform this operation", STS API Reference) — so a Terraform provider block with default settings and
// `data "aws_caller_identity"` work. AssumeRole needs the principals and trust policies authorization brings.
import { LOCAL_ACCOUNT_ID } from './arn';
import { awsQueryError, stsResponse, xmlTag } from './aws-query';
import type { ServiceModule } from './protocol';
import { badPercentEscape } from './percent-encoding';
import { queryForm } from './query-protocol';

const STS_ACTIONS = new Set(['AssumeRole', 'GetCallerIdentity']);

export function createCallerIdentityService(): ServiceModule {
  return {
    name: 'STS',
    errorStyle: { protocol: 'awsQuery', messageKey: 'Message' },
    internalErrorCode: 'InternalFailure',
    // A request with an X-Amz-Target speaks awsJson, whatever its body holds: not STS's.
    claims: (request) =>
      request.headers['x-amz-target'] === undefined &&
      STS_ACTIONS.has(queryForm(request)?.get('Action') ?? ''),
    async handle(request) {
      const bad = badPercentEscape(request.body.toString('utf8'));
      if (bad !== undefined)
        return awsQueryError(
          400,
          'ValidationError',
          `The request body is not valid percent-encoding: ${JSON.stringify(bad)} is no escape of UTF-8 text (encode "%" as %25).`,
        );
      if (queryForm(request)?.get('Action') !== 'GetCallerIdentity')
        return awsQueryError(
          400,
          'UnsupportedOperation',
          'STS AssumeRole is served only when the local endpoint enforces authorization (pnpm lab local --authorize): ' +
            'without it there are no roles or trust policies to assume.',
        );
      return stsResponse(
        'GetCallerIdentity',
        `${xmlTag('Arn', `arn:aws:iam::${LOCAL_ACCOUNT_ID}:root`)}${xmlTag('UserId', LOCAL_ACCOUNT_ID)}${xmlTag('Account', LOCAL_ACCOUNT_ID)}`,
      );
    },
  };
}
