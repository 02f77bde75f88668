// Inputs of the analyst unit: a read-only role for the lab's analysts. Pure.
import type { InputsSpec, UnitContext } from '../lib/contract';
import { FieldReader, IAM_ARN_RE, readNamespaces } from '../lib/fields';

export interface AnalystInputs {
  /** The role's name; defaults to `<prefix>-<labId>-analyst`. */
  readonly roleName: string;
  /**
   * Who may assume the role besides the deployer (who runs the lab's analyst experiment): IAM role or user ARNs,
   * named in the role's trust policy.
   */
  readonly trustedPrincipalArns: readonly string[];
  /** The namespaces whose tables the analyst reads (Lake Formation SELECT and DESCRIBE, nothing else). */
  readonly namespaces: readonly string[];
  /** How long an assumed session lasts at most (IAM: 1–12 hours). */
  readonly maxSessionDurationSeconds: number;
}

export const ANALYST_OUTPUTS = ['role_arn', 'role_name'] as const;

export const spec: InputsSpec<AnalystInputs> = {
  stack: 'analyst',
  outputs: ANALYST_OUTPUTS,
  resolveInputs(raw, unit: UnitContext): AnalystInputs {
    const r = new FieldReader(unit.name, raw);
    const namespaces = readNamespaces(r, ['network', 'ref', 'enriched'], '["network"]');
    return {
      roleName: r.string('roleName', `${unit.namePrefix}-analyst`, {
        re: new RegExp(`^${unit.namePrefix}-[A-Za-z0-9+=,.@_-]{1,40}$`),
        fix: `the role name must start with "${unit.namePrefix}-" (IAM: letters, digits and +=,.@_-)`,
      }),
      trustedPrincipalArns: r.strings('trustedPrincipalArns', [], {
        re: IAM_ARN_RE,
        fix: 'give IAM role or user ARNs (arn:aws:iam::<account>:role/<name>)',
      }),
      namespaces,
      maxSessionDurationSeconds: r.int('maxSessionDurationSeconds', 3600, {
        min: 3600,
        max: 43200,
        why: 'IAM accepts 1 to 12 hours',
      }),
    };
  },
};
