// AWS STS (awsQuery: a form POST with `Action=`, XML replies), served when the endpoint enforces authorization:
// AssumeRole gives a role's session credentials when the role's trust policy allows the caller (AWS STS API Reference,
// AssumeRole: RoleArn, RoleSessionName 2–64 of [\w+=,.@-], DurationSeconds 900 up to the role's maximum, 3600 by
// default), GetCallerIdentity says who the caller is ("No permissions are required to perform this operation").
import { createHash } from 'node:crypto';
import { LOCAL_ACCOUNT_ID } from '../arn';
import type { Caller } from '../iam/principals';
import type { LocalReply, LocalRequest, ServiceModule } from '../protocol';
import { awsQueryError, stsResponse as response, xmlTag } from '../aws-query';
import { badPercentEscape } from '../percent-encoding';
import { refusal } from './denials';
import { MIN_SESSION_SECONDS, type LocalIam } from './local-iam';

const STS_ACTIONS = ['AssumeRole', 'GetCallerIdentity'] as const;
/** The roles' maximum session duration (IAM's default; the lab's roles keep it). */
const MAX_SESSION_SECONDS = 3600;

function formOf(request: LocalRequest): URLSearchParams | undefined {
  const type = String(request.headers['content-type'] ?? '');
  if (request.method !== 'POST' || !type.startsWith('application/x-www-form-urlencoded')) return undefined;
  return new URLSearchParams(request.body.toString('utf8'));
}

const validation = (message: string) => awsQueryError(400, 'ValidationError', message);

/** A role's unique id as IAM shows it (AROA…), stable for the role ARN. */
function roleId(roleArn: string): string {
  const digest = createHash('sha256').update(roleArn).digest();
  const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  return `AROA${[...digest.subarray(0, 17)].map((b) => chars[b % chars.length]).join('')}`;
}

const userIdOf = (caller: Caller) =>
  caller.roleArn ? `${roleId(caller.roleArn)}:${caller.arn.split('/').pop() ?? ''}` : caller.arn;

export function createStsService(iam: LocalIam): ServiceModule {
  const assumeRole = (form: URLSearchParams, caller: Caller): LocalReply => {
    const roleArn = form.get('RoleArn');
    const sessionName = form.get('RoleSessionName');
    if (!roleArn)
      return validation(
        "1 validation error detected: Value null at 'roleArn' failed to satisfy constraint: Member must not be null",
      );
    if (!sessionName)
      return validation(
        "1 validation error detected: Value null at 'roleSessionName' failed to satisfy constraint: Member must not be null",
      );
    if (!/^[\w+=,.@-]{2,64}$/.test(sessionName))
      return validation(
        `1 validation error detected: Value '${sessionName}' at 'roleSessionName' failed to satisfy constraint: Member must satisfy regular expression pattern: [\\w+=,.@-]*`,
      );
    const duration = Number(form.get('DurationSeconds') ?? MAX_SESSION_SECONDS);
    if (!Number.isInteger(duration) || duration < MIN_SESSION_SECONDS)
      return validation(
        `1 validation error detected: Value '${form.get('DurationSeconds')}' at 'durationSeconds' failed to satisfy constraint: Member must have value greater than or equal to ${MIN_SESSION_SECONDS}`,
      );
    if (duration > MAX_SESSION_SECONDS)
      return validation('The requested DurationSeconds exceeds the MaxSessionDuration set for this role.');
    const outcome = iam.assumeRole(caller, roleArn, sessionName, duration);
    if ('denied' in outcome) return awsQueryError(403, 'AccessDenied', outcome.denied);
    const { session } = outcome;
    return response(
      'AssumeRole',
      `<AssumedRoleUser>${xmlTag('AssumedRoleId', userIdOf(outcome.caller))}${xmlTag('Arn', outcome.caller.arn)}</AssumedRoleUser>` +
        `<Credentials>${xmlTag('AccessKeyId', session.accessKeyId)}${xmlTag('SecretAccessKey', session.secretAccessKey)}` +
        `${xmlTag('SessionToken', session.sessionToken)}${xmlTag('Expiration', session.expiration)}</Credentials>`,
    );
  };

  return {
    name: 'STS',
    // STS writes its errors itself (awsQuery's ErrorResponse); this style is only the fallback for internal errors.
    errorStyle: { protocol: 'awsQuery', messageKey: 'Message' },
    internalErrorCode: 'InternalFailure',
    // A request with an X-Amz-Target speaks awsJson, whatever its body holds (request-protocol.ts reads it alike):
    // a form `Action=` in it does not make it STS's.
    claims: (request) => {
      if (request.headers['x-amz-target'] !== undefined) return false;
      const action = formOf(request)?.get('Action');
      return action !== null && action !== undefined && (STS_ACTIONS as readonly string[]).includes(action);
    },
    operationOf: (request) => {
      const action = formOf(request)?.get('Action');
      return action ? { operation: action, params: {}, input: {} } : undefined;
    },
    async handle(request) {
      const form = formOf(request) as URLSearchParams;
      const caller = request.caller;
      if (!caller) {
        const refused = refusal(
          { errorStyle: this.errorStyle },
          { kind: 'credential', problem: { kind: 'missing' } },
        );
        return { status: refused.status, raw: { headers: refused.headers, body: refused.body } };
      }
      // A form that is not valid percent-encoding is read one way by no one: STS's validation error, naming it.
      const bad = badPercentEscape(request.body.toString('utf8'));
      if (bad !== undefined)
        return validation(
          `The request body is not valid percent-encoding: ${JSON.stringify(bad)} is no escape of UTF-8 text (encode "%" as %25).`,
        );
      if (form.get('Action') === 'AssumeRole') return assumeRole(form, caller);
      return response(
        'GetCallerIdentity',
        `${xmlTag('Arn', caller.arn)}${xmlTag('UserId', userIdOf(caller))}${xmlTag('Account', caller.account ?? LOCAL_ACCOUNT_ID)}`,
      );
    },
  };
}
