// IAM's decision for one request within one account (IAM User Guide, "Policy evaluation logic", "How AWS enforcement
// code logic evaluates requests to allow or deny access" and "Policy evaluation for requests within a single
// account"): every request is denied by default; an explicit Deny in any applicable policy wins; otherwise an Allow in
// an identity-based policy or in the resource's resource-based policy allows it ("If either the identity-based policy
// or the resource-based policy within the same account allows the request and the other doesn't, the request is still
// allowed"). The lab has no SCPs, RCPs, permissions boundaries or session policies, so those steps allow.
// A statement the evaluator does not understand and that could apply to the request refuses it (fail closed).
import { conditionsHold, type RequestContext } from './conditions';
import { principalMatches, type Caller, type PrincipalMatch } from './principals';
import type { PolicyDocument, Statement } from './policy';
import { actionMatches, arnMatches } from './wildcards';

export type PolicyType = 'identity-based' | 'resource-based';

export interface AuthorizationQuery {
  readonly caller: Caller;
  /** `service:Action`, e.g. `firehose:PutRecordBatch`. */
  readonly action: string;
  /** The resource ARN (`*` for actions that take no resource). */
  readonly resource: string;
  readonly context: RequestContext;
}

export interface ApplicablePolicies {
  readonly identity: readonly PolicyDocument[];
  /** The resource's own policy (a bucket policy, a role's trust policy), when it has one. */
  readonly resource?: PolicyDocument;
}

export type Decision =
  | { readonly allowed: true; readonly by: PolicyType; readonly principalMatch?: PrincipalMatch }
  | {
      readonly allowed: false;
      readonly reason: 'explicit-deny';
      readonly policyType: PolicyType;
      readonly source: string;
    }
  | { readonly allowed: false; readonly reason: 'implicit-deny' }
  | {
      readonly allowed: false;
      readonly reason: 'not-understood';
      readonly source: string;
      readonly detail: string;
    };

function actionApplies(s: Statement, action: string): boolean {
  if (s.actions) return s.actions.some((p) => actionMatches(p, action));
  return !(s.notActions ?? []).some((p) => actionMatches(p, action));
}

/** A policy variable (never substituted) stands for anything here: the statement could apply, so it is not understood. */
const unvaried = (pattern: string) => pattern.replace(/\$\{[^}]*\}/g, '*');

function resourceApplies(s: Statement, resource: string): boolean {
  if (s.resources) return s.resources.some((p) => arnMatches(unvaried(p), resource));
  if (s.notResources) return !s.notResources.some((p) => arnMatches(p, resource));
  return true;
}

/** In a resource-based policy the statement must name the caller (NotPrincipal: must not). */
function principalApplies(s: Statement, caller: Caller, type: PolicyType): PrincipalMatch {
  if (type === 'identity-based') return 'specific';
  if (s.principal) return principalMatches(s.principal, caller);
  if (s.notPrincipal) return principalMatches(s.notPrincipal, caller) ? false : 'everyone';
  return false;
}

type StatementOutcome =
  | { effect: 'Allow' | 'Deny'; match: PrincipalMatch; source: string }
  | { notUnderstood: string; source: string };

function applicable(doc: PolicyDocument, type: PolicyType, q: AuthorizationQuery): StatementOutcome[] {
  if (doc.notUnderstood) return [{ notUnderstood: doc.notUnderstood, source: doc.source }];
  const out: StatementOutcome[] = [];
  for (const s of doc.statements) {
    if (!actionApplies(s, q.action) || !resourceApplies(s, q.resource)) continue;
    const match = principalApplies(s, q.caller, type);
    if (!match) continue;
    const where = `${doc.source} statement ${s.index}${s.sid ? ` (${s.sid})` : ''}`;
    if (s.notUnderstood) {
      out.push({ notUnderstood: s.notUnderstood, source: where });
      continue;
    }
    if (conditionsHold(s.conditions, q.context)) out.push({ effect: s.effect, match, source: where });
  }
  return out;
}

const RANK: Record<string, number> = { specific: 3, account: 2, everyone: 1 };

export function evaluate(query: AuthorizationQuery, policies: ApplicablePolicies): Decision {
  const outcomes = [
    ...policies.identity.flatMap((doc) =>
      applicable(doc, 'identity-based', query).map((o) => ({ ...o, type: 'identity-based' as const })),
    ),
    ...(policies.resource
      ? applicable(policies.resource, 'resource-based', query).map((o) => ({
          ...o,
          type: 'resource-based' as const,
        }))
      : []),
  ];
  const deny = outcomes.find((o) => 'effect' in o && o.effect === 'Deny');
  if (deny) return { allowed: false, reason: 'explicit-deny', policyType: deny.type, source: deny.source };
  const unknown = outcomes.find((o) => 'notUnderstood' in o);
  if (unknown && 'notUnderstood' in unknown)
    return {
      allowed: false,
      reason: 'not-understood',
      source: unknown.source,
      detail: unknown.notUnderstood,
    };
  const allows = outcomes.filter(
    (o): o is (typeof outcomes)[number] & { effect: 'Allow'; match: PrincipalMatch } =>
      'effect' in o && o.effect === 'Allow',
  );
  const identity = allows.find((o) => o.type === 'identity-based');
  const resource = allows
    .filter((o) => o.type === 'resource-based')
    .sort((a, b) => (RANK[String(b.match)] ?? 0) - (RANK[String(a.match)] ?? 0))[0];
  if (resource) return { allowed: true, by: 'resource-based', principalMatch: resource.match };
  if (identity) return { allowed: true, by: 'identity-based' };
  return { allowed: false, reason: 'implicit-deny' };
}
