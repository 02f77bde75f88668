// Inputs of the analyst unit: a read-only role for the lab's analysts. Pure.
import type { InputsSpec, UnitContext } from '../lib/contract';
import { FieldReader, IAM_ARN_RE, readNamespaces } from '../lib/fields';
import { ATHENA_MIN_CUTOFF } from '../lib/policy/rules';
import { GIB } from '../table-bucket/inputs';

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
  /**
   * The analysts' own Athena workgroup, the only one the role may use: Lake Formation does not govern Athena's query
   * history, a workgroup does (Athena User Guide, "Use Athena to query data registered with Lake Formation"), so in
   * the lab's shared workgroup the role could list, read and stop everyone's queries. It enforces its settings,
   * keeps results in Athena's managed storage and caps each query's scan.
   */
  readonly workgroup: { readonly name: string; readonly bytesScannedCutoffPerQuery: number };
}

export const ANALYST_OUTPUTS = ['role_arn', 'role_name', 'analyst_workgroup'] as const;

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
      workgroup: {
        name: r.child('workgroup').string('name', `${unit.namePrefix}-analyst`, {
          re: new RegExp(`^${unit.namePrefix}-[a-z0-9-]{1,40}$`),
          fix: `the workgroup name must start with "${unit.namePrefix}-" and use a-z, 0-9 and -`,
        }),
        bytesScannedCutoffPerQuery: r.child('workgroup').int('bytesScannedCutoffPerQuery', GIB, {
          min: ATHENA_MIN_CUTOFF,
          why: "Athena's minimum per-query cutoff is 10 MiB = 10485760 bytes",
        }),
      },
    };
  },
};
