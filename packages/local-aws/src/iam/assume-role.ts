// sts:AssumeRole's decision. A role's trust policy is a resource-based policy that must name the caller; whether the
// caller's identity-based policy must also allow sts:AssumeRole depends on how it is named (IAM User Guide, "Policy
// evaluation for requests within a single account": either policy's Allow suffices within the account when the
// resource-based policy names the principal itself; a trust policy that names only the account — its root or its id —
// delegates the decision to the account's identity-based policies). An AWS service principal has no identity-based
// policy: the trust policy alone decides. An explicit Deny in either refuses.
import type { RequestContext } from './conditions';
import { evaluate, type Decision } from './evaluate';
import type { Caller } from './principals';
import type { PolicyDocument } from './policy';

export const ASSUME_ROLE = 'sts:AssumeRole';

export function evaluateAssumeRole(
  caller: Caller,
  role: { readonly arn: string; readonly trustPolicy: PolicyDocument },
  identity: readonly PolicyDocument[],
  context: RequestContext,
): Decision {
  const query = { caller, action: ASSUME_ROLE, resource: role.arn, context };
  const trust = evaluate(query, { identity: [], resource: role.trustPolicy });
  if (!trust.allowed && trust.reason !== 'implicit-deny') return trust;
  const own = caller.kind === 'service' ? undefined : evaluate(query, { identity });
  if (own && !own.allowed && own.reason !== 'implicit-deny') return own;
  if (!trust.allowed) return trust;
  if (caller.kind === 'service' || trust.principalMatch === 'specific' || trust.principalMatch === 'everyone')
    return trust;
  return own ?? { allowed: false, reason: 'implicit-deny' };
}
