// Who makes a request, as IAM sees it, and whether a policy's Principal element names them (IAM User Guide, "AWS JSON
// policy elements: Principal": an account id or `arn:aws:iam::<account>:root` stands for every principal of the account;
// a role ARN for the sessions of that role; an assumed-role session ARN for that session; a service principal for the
// AWS service acting on your behalf; `"*"` for everyone).

export type CallerKind = 'assumed-role' | 'user' | 'service';

export interface Caller {
  readonly kind: CallerKind;
  /** How error messages name the caller: the session ARN, the user ARN, or the service principal. */
  readonly arn: string;
  readonly account?: string;
  /** An assumed-role session: the role's ARN (what `aws:PrincipalArn` is and what grants to the role name). */
  readonly roleArn?: string;
  /** A service principal, e.g. `firehose.amazonaws.com`. */
  readonly service?: string;
}

/** How specifically a Principal element names the caller: the trust rule for AssumeRole depends on it. */
export type PrincipalMatch = 'specific' | 'account' | 'everyone' | false;

const ACCOUNT_ROOT = /^arn:aws[a-z-]*:iam::(\d{12}):root$/;

export function assumedRoleCaller(roleArn: string, sessionName: string): Caller {
  const match = /^arn:(aws[a-z-]*):iam::(\d{12}):role\/(?:.*\/)?([^/]+)$/.exec(roleArn);
  if (!match) throw new Error(`${roleArn} is not a role ARN`);
  const [, partition, account, name] = match as unknown as [string, string, string, string];
  return {
    kind: 'assumed-role',
    arn: `arn:${partition}:sts::${account}:assumed-role/${name}/${sessionName}`,
    account,
    roleArn,
  };
}

export function serviceCaller(service: string): Caller {
  return { kind: 'service', arn: service, service };
}

/** The principal ARN a caller is known by in policies and grants (`aws:PrincipalArn`). */
export function principalArnOf(caller: Caller): string {
  return caller.roleArn ?? caller.arn;
}

function awsValueMatches(value: string, caller: Caller): PrincipalMatch {
  if (caller.kind === 'service') return false;
  if (value === '*') return 'everyone';
  const root = ACCOUNT_ROOT.exec(value);
  if (root) return root[1] === caller.account ? 'account' : false;
  if (/^\d{12}$/.test(value)) return value === caller.account ? 'account' : false;
  if (value === caller.arn || (caller.roleArn !== undefined && value === caller.roleArn)) return 'specific';
  return false;
}

/** Whether (and how specifically) a Principal element names the caller. */
export function principalMatches(
  spec: { any: boolean; aws: readonly string[]; service: readonly string[] },
  caller: Caller,
): PrincipalMatch {
  if (spec.any) return 'everyone';
  let best: PrincipalMatch = false;
  for (const value of spec.aws) {
    const match = awsValueMatches(value, caller);
    if (match === 'specific') return 'specific';
    if (match) best = match;
  }
  if (caller.kind === 'service' && spec.service.includes(caller.service as string)) return 'specific';
  return best;
}
