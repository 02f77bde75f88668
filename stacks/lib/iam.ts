// IAM policy documents as plain objects, serialized into the resource (no data sources: their reads would be
// deferred behind the upstream guards). The policy Aspect parses the same JSON.
export interface PolicyStatement {
  readonly Sid?: string;
  readonly Effect: 'Allow' | 'Deny';
  readonly Action: readonly string[];
  /** Absent only in trust policies. */
  readonly Resource?: string | readonly string[];
  readonly Principal?: Record<string, string | readonly string[]>;
  readonly Condition?: Record<string, Record<string, string | boolean | readonly string[]>>;
}

export function policyJson(...statements: PolicyStatement[]): string {
  return JSON.stringify({ Version: '2012-10-17', Statement: statements });
}

/**
 * A service role's trust policy. `sourceAccount` adds the confused-deputy condition `aws:SourceAccount` — only for
 * services documented to send that key (the lab policy's checkTrustPolicies knows which); on any other service it
 * would deny the assume-role.
 */
export function assumeRolePolicy(
  service: string,
  extraActions: readonly string[] = [],
  sourceAccount?: string,
): string {
  return policyJson({
    Effect: 'Allow',
    Principal: { Service: service },
    Action: ['sts:AssumeRole', ...extraActions],
    ...(sourceAccount ? { Condition: { StringEquals: { 'aws:SourceAccount': sourceAccount } } } : {}),
  });
}
