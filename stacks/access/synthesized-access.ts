// Who may do what in the lab, read from the synthesized stacks (the cdk.tf.json Terraform receives): every IAM role
// with its trust policy, inline policies and managed-policy attachments, every S3 bucket policy, every Lake
// Formation grant, and the stacks' outputs — each reference resolved to the value it would have once applied in one
// account (./terraform-expressions). The local endpoint evaluates exactly these documents, so the offline lab tests
// the policies the stacks deploy.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildLab, type LabUnits } from '../app';
import { StacksError } from '../lib/errors';
import { TerraformExpressions, type AccessValues, type SynthesizedStack } from './terraform-expressions';

export interface SynthesizedRole {
  /** The unit (stack) and the resource key it comes from, e.g. `firehose` / `role`. */
  readonly stack: string;
  readonly id: string;
  readonly arn: string;
  readonly name: string;
  readonly trustPolicy: unknown;
  readonly policies: ReadonlyArray<{ readonly name: string; readonly document: unknown }>;
  readonly managedPolicyArns: readonly string[];
}

export interface SynthesizedGrant {
  readonly stack: string;
  readonly id: string;
  readonly principal: string;
  readonly permissions: readonly string[];
  /** `<account>` (the default catalog) or `<account>:s3tablescatalog/<table bucket>`. */
  readonly catalogId: string;
  readonly database: string;
  /** A table grant: the table's name, or `*` for every table of the database; absent for a database grant. */
  readonly table?: string;
}

export interface SynthesizedResourcePolicy {
  readonly stack: string;
  readonly id: string;
  readonly resourceArn: string;
  readonly document: unknown;
}

export interface SynthesizedAccess {
  readonly account: string;
  readonly roles: readonly SynthesizedRole[];
  readonly resourcePolicies: readonly SynthesizedResourcePolicy[];
  readonly grants: readonly SynthesizedGrant[];
  /** Each stack's outputs that resolve without guessing (an id AWS generates, such as a table's, does not). */
  readonly outputs: Readonly<Record<string, Readonly<Record<string, string>>>>;
}

type Resources = Readonly<Record<string, Readonly<Record<string, unknown>>>>;

function parseJson(text: string, where: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new StacksError(`${where} is not JSON: ${(error as Error).message}`, { value: text, cause: error });
  }
}

/** Reads the access model from synthesized stacks (name → cdk.tf.json content). */
export function readSynthesizedAccess(
  stacks: Readonly<Record<string, SynthesizedStack>>,
  lab: LabUnits,
  values: AccessValues,
): SynthesizedAccess {
  const dependencies = Object.fromEntries(
    Object.keys(stacks).map((name) => [
      name,
      Object.fromEntries((lab.units[name]?.dependencies ?? []).map((d) => [d.name, d.unit])),
    ]),
  );
  const refs = new TerraformExpressions(stacks, dependencies, values);
  // Built here, handed out read-only.
  const roles: Array<
    SynthesizedRole & { policies: Array<{ name: string; document: unknown }>; managedPolicyArns: string[] }
  > = [];
  const resourcePolicies: SynthesizedResourcePolicy[] = [];
  const grants: SynthesizedGrant[] = [];
  const outputs: Record<string, Record<string, string>> = {};

  // Every role first: a stack may attach a policy to a role another stack of the lab defines (snapshots gives the
  // table-bucket unit's lab role read access to the snapshots).
  for (const [stack, json] of Object.entries(stacks)) {
    const text = (value: unknown, where: string) => refs.resolve(stack, value, where);
    roles.push(
      ...Object.entries(json.resource?.aws_iam_role ?? {}).map(([id, r]) => ({
        stack,
        id,
        name: text(r.name, `aws_iam_role.${id}.name`),
        arn: refs.resolve(stack, `\${aws_iam_role.${id}.arn}`, `aws_iam_role.${id}`),
        trustPolicy: parseJson(
          text(r.assume_role_policy, `aws_iam_role.${id}.assume_role_policy`),
          `aws_iam_role.${id}.assume_role_policy`,
        ),
        policies: [] as Array<{ name: string; document: unknown }>,
        managedPolicyArns: [] as string[],
      })),
    );
  }

  for (const [stack, json] of Object.entries(stacks)) {
    const of = (type: string): Resources => json.resource?.[type] ?? {};
    const text = (value: unknown, where: string) => refs.resolve(stack, value, where);
    const stackRoles = roles.filter((r) => r.stack === stack);
    const roleNamed = (name: string, where: string) => {
      const role = stackRoles.find((r) => r.name === name) ?? roles.find((r) => r.name === name);
      if (!role)
        throw new StacksError(
          `stack ${stack}, ${where}: attaches to role ${name}, which no stack of the lab defines`,
          { value: name },
        );
      return role;
    };
    for (const [id, p] of Object.entries(of('aws_iam_role_policy'))) {
      const where = `aws_iam_role_policy.${id}`;
      roleNamed(text(p.role, `${where}.role`), where).policies.push({
        name: text(p.name, `${where}.name`),
        document: parseJson(text(p.policy, `${where}.policy`), `${where}.policy`),
      });
    }
    for (const [id, a] of Object.entries(of('aws_iam_role_policy_attachment'))) {
      const where = `aws_iam_role_policy_attachment.${id}`;
      roleNamed(text(a.role, `${where}.role`), where).managedPolicyArns.push(
        text(a.policy_arn, `${where}.policy_arn`),
      );
    }
    for (const [id, p] of Object.entries(of('aws_s3_bucket_policy'))) {
      const where = `aws_s3_bucket_policy.${id}`;
      resourcePolicies.push({
        stack,
        id,
        resourceArn: `arn:${values.partition ?? 'aws'}:s3:::${text(p.bucket, `${where}.bucket`)}`,
        document: parseJson(text(p.policy, `${where}.policy`), `${where}.policy`),
      });
    }
    for (const [id, g] of Object.entries(of('aws_lakeformation_permissions'))) {
      const where = `aws_lakeformation_permissions.${id}`;
      const database = g.database as Readonly<Record<string, unknown>> | undefined;
      const table = g.table as Readonly<Record<string, unknown>> | undefined;
      if (!database && !table)
        throw new StacksError(
          `stack ${stack}, ${where}: grants on neither a database nor a table, which the access model does not read`,
          { value: id },
        );
      const target = (database ?? table) as Readonly<Record<string, unknown>>;
      grants.push({
        stack,
        id,
        principal: text(g.principal, `${where}.principal`),
        permissions: (g.permissions as unknown[]).map((p) => text(p, `${where}.permissions`)),
        catalogId: text(target.catalog_id ?? g.catalog_id, `${where}.catalog_id`),
        database: text(database ? target.name : target.database_name, `${where}.database`),
        ...(table ? { table: table.wildcard === true ? '*' : text(table.name, `${where}.table.name`) } : {}),
      });
    }
    outputs[stack] = {};
    for (const name of Object.keys(json.output ?? {})) {
      try {
        outputs[stack][name] = refs.output(stack, name);
      } catch {
        // An output AWS generates (a table's id) is simply not in the model; nothing in it is guessed.
      }
    }
  }
  return { account: values.account, roles, resourcePolicies, grants, outputs };
}

/**
 * Synthesizes the lab (as `cdktf synth` does: every unit's stack, the lab policy Aspect included) into a scratch
 * folder and reads the access model from the result.
 */
export async function synthesizeAccess(lab: LabUnits, values: AccessValues): Promise<SynthesizedAccess> {
  const outdir = mkdtempSync(join(tmpdir(), 'loglake-access-'));
  try {
    // `plan`: the synth a plan makes (mock outputs allowed where no state exists; the model resolves each
    // dependency from the producer's own stack, never from a mock).
    const { app } = await buildLab(lab, { outdir, command: 'plan' });
    app.synth();
    const stacks = Object.fromEntries(
      lab.order.map((name) => [
        name,
        parseJson(
          readFileSync(join(outdir, 'stacks', name, 'cdk.tf.json'), 'utf8'),
          `${name}/cdk.tf.json`,
        ) as SynthesizedStack,
      ]),
    );
    return readSynthesizedAccess(stacks, lab, values);
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}
