// AWS's access denied message (IAM User Guide, "Troubleshooting access denied error messages"): "User: <principal> is
// not authorized to perform: <action> on resource: <resource> because no <policy type> policy allows the <action>
// action" for an implicit deny, "... with an explicit deny in a <policy type> policy" for an explicit one. S3 quotes
// the resource; an action that takes no resource (`*`) is named without "on resource". A request the local evaluator
// refused because it could not evaluate a policy says which policy and what it did not understand.
import type { Decision } from './evaluate';
import type { Caller } from './principals';

export interface DeniedMessageOptions {
  /** S3 writes the resource in double quotes. */
  readonly quoteResource?: boolean;
  /** STS's AssumeRole denial names no policy type. */
  readonly withoutReason?: boolean;
}

export function accessDeniedMessage(
  caller: Caller,
  action: string,
  resource: string,
  decision: Exclude<Decision, { allowed: true }>,
  options: DeniedMessageOptions = {},
): string {
  const on = resource === '*' ? '' : ` on resource: ${options.quoteResource ? `"${resource}"` : resource}`;
  const head = `User: ${caller.arn} is not authorized to perform: ${action}${on}`;
  if (decision.reason === 'not-understood')
    return `${head} because the local endpoint cannot evaluate ${decision.source}: ${decision.detail} (it refuses rather than guesses)`;
  if (options.withoutReason) return head;
  if (decision.reason === 'explicit-deny')
    return `${head} with an explicit deny in a ${decision.policyType} policy`;
  return `${head} because no identity-based policy allows the ${action} action`;
}
