// The account's IAM as the local endpoint enforces it: who a caller is, what its identity-based policies and the
// resource's resource-based policy decide for an action, and AssumeRole (trust policy first). Services ask it directly
// for what they do on a caller's behalf (Athena's Glue lookups) or as a role (Firehose delivering).
import { LOCAL_ACCOUNT_ID } from '../arn';
import type { JsonStore } from '../store';
import { evaluateAssumeRole, ASSUME_ROLE } from '../iam/assume-role';
import { RequestContext } from '../iam/conditions';
import { evaluate, type Decision } from '../iam/evaluate';
import { accessDeniedMessage } from '../iam/messages';
import { assumedRoleCaller, principalArnOf, serviceCaller, type Caller } from '../iam/principals';
import { AccessDirectory } from './directory';
import type { AuthorizationOptions } from './options';
import { SessionStore, type IssuedSession } from './sessions';

/** A decision that refused, with AWS's message for it. */
export interface Denial {
  readonly decision: Exclude<Decision, { allowed: true }>;
  readonly message: string;
}

export type AssumeRoleOutcome =
  { readonly session: IssuedSession; readonly caller: Caller } | { readonly denied: string };

/** STS: 15 minutes to the role's maximum (1 hour by default). */
export const MIN_SESSION_SECONDS = 900;

export class LocalIam {
  readonly directory: AccessDirectory;
  readonly sessions: SessionStore;

  constructor(options: AuthorizationOptions, store: JsonStore) {
    this.directory = new AccessDirectory(options);
    this.sessions = new SessionStore(
      options.credentials,
      store,
      (arn) => this.directory.roleByArn(arn) !== undefined,
    );
  }

  /**
   * The request context keys the local endpoint knows (IAM User Guide, "AWS global condition context keys"). Requests
   * reach it over loopback HTTP: `aws:SecureTransport` is true, as it is for every request an AWS SDK sends to AWS
   * over TLS (README, "Authorization": the one deliberate difference).
   */
  context(caller: Caller, extra: Readonly<Record<string, string | undefined>> = {}): RequestContext {
    const now = new Date();
    return new RequestContext({
      'aws:SecureTransport': 'true',
      'aws:CurrentTime': now.toISOString(),
      'aws:EpochTime': String(Math.floor(now.getTime() / 1000)),
      ...(caller.kind === 'service'
        ? {}
        : {
            'aws:PrincipalArn': principalArnOf(caller),
            'aws:PrincipalAccount': caller.account ?? LOCAL_ACCOUNT_ID,
            'aws:PrincipalType': caller.kind === 'assumed-role' ? 'AssumedRole' : 'User',
          }),
      ...extra,
    });
  }

  /** IAM's decision for one action on one resource, with AWS's message when it refuses. */
  decide(
    caller: Caller,
    action: string,
    resource: string,
    options: { context?: RequestContext; quoteResource?: boolean } = {},
  ): Denial | undefined {
    const role = caller.roleArn ? this.directory.roleByArn(caller.roleArn) : undefined;
    const decision = evaluate(
      { caller, action, resource, context: options.context ?? this.context(caller) },
      { identity: role?.identityPolicies ?? [], resource: this.directory.resourcePolicyFor(resource) },
    );
    if (decision.allowed) return undefined;
    return {
      decision,
      message: accessDeniedMessage(caller, action, resource, decision, {
        quoteResource: options.quoteResource,
      }),
    };
  }

  /**
   * sts:AssumeRole's decision for a caller (an assumed-role session) or for an AWS service acting for one of the
   * account's resources (`aws:SourceArn`, `aws:SourceAccount` in the context, as services send them): the session's
   * caller, or AWS's denial. STS answers a role that does not exist as it answers one that does not trust the caller.
   */
  actAs(
    caller: Caller,
    roleArn: string,
    sessionName: string,
    extraContext: Readonly<Record<string, string | undefined>> = {},
  ): { readonly caller: Caller } | { readonly denied: string } {
    const denied = (decision: Exclude<Decision, { allowed: true }>) => ({
      denied: accessDeniedMessage(caller, ASSUME_ROLE, roleArn, decision, {
        withoutReason: decision.reason !== 'not-understood',
      }),
    });
    const role = this.directory.roleByArn(roleArn);
    if (!role) return denied({ allowed: false, reason: 'implicit-deny' });
    const own = caller.roleArn ? this.directory.roleByArn(caller.roleArn) : undefined;
    const decision = evaluateAssumeRole(
      caller,
      role,
      own?.identityPolicies ?? [],
      this.context(caller, extraContext),
    );
    if (!decision.allowed) return denied(decision);
    return { caller: assumedRoleCaller(role.arn, sessionName) };
  }

  /** sts:AssumeRole: the decision, then session credentials. */
  assumeRole(
    caller: Caller,
    roleArn: string,
    sessionName: string,
    durationSeconds: number,
    extraContext: Readonly<Record<string, string | undefined>> = {},
  ): AssumeRoleOutcome {
    const acting = this.actAs(caller, roleArn, sessionName, extraContext);
    if ('denied' in acting) return acting;
    return { session: this.sessions.issue(roleArn, sessionName, durationSeconds), caller: acting.caller };
  }

  /** What an AWS service acting for a resource of the account assumes a role as (its trust policy must name it). */
  serviceContext(context: {
    sourceArn?: string;
    sourceAccount?: string;
  }): Record<string, string | undefined> {
    return {
      'aws:SourceArn': context.sourceArn,
      'aws:SourceAccount': context.sourceAccount ?? (context.sourceArn ? LOCAL_ACCOUNT_ID : undefined),
    };
  }

  /** The credentials an AWS service gets for a role it acts as (the local stand-in for a service: Lambda). */
  assumeAsService(
    service: string,
    roleArn: string,
    context: { sourceArn?: string; sourceAccount?: string } = {},
  ): AssumeRoleOutcome {
    return this.assumeRole(
      serviceCaller(service),
      roleArn,
      service.split('.')[0] ?? service,
      3600,
      this.serviceContext(context),
    );
  }
}
