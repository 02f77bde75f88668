import { describe, expect, test } from '@jest/globals';
import { Aspects, Testing } from 'cdktf';
import {
  fixtureRemoteState,
  fixtureUnit,
  LAB_PATH,
  resourcesOf,
  tableBucketDependency,
  type StackJson,
} from '../test/fixtures';
import type { ResolvedDependency } from '../lib/contract';
import { LabPolicy } from '../lib/policy/lab-policy';
import { UnitConfigError } from '../lib/errors';
import { spec, type AnalystInputs } from './inputs';
import { AnalystStack } from './stack';

const refDataDependency: ResolvedDependency = {
  name: 'ref_data',
  unit: 'ref-data',
  path: `${LAB_PATH}/ref-data`,
  outputs: ['namespaces'],
  mockOutputs: { namespaces: 'ref,enriched,lab' },
  mockAllowedCommands: ['init', 'validate', 'plan'],
  remoteState: fixtureRemoteState('ref-data'),
};

function build(inputs: Record<string, unknown> = {}) {
  const unit = fixtureUnit<AnalystInputs>(spec, {
    name: 'analyst',
    inputs,
    dependencies: [tableBucketDependency(['table_bucket_name', 'table_catalog_id']), refDataDependency],
  });
  const app = Testing.app();
  const stack = new AnalystStack(app, unit, { command: 'plan' });
  const policy = new LabPolicy({ namePrefix: unit.namePrefix, command: 'plan' });
  Aspects.of(stack).add(policy);
  const json = JSON.parse(Testing.synth(stack)) as StackJson;
  return { json, policy };
}

interface Statement {
  Sid?: string;
  Effect: string;
  Action: string[];
  Resource?: string | string[];
  Principal?: Record<string, string[]>;
}
const statementsOf = (text: unknown) => (JSON.parse(String(text)) as { Statement: Statement[] }).Statement;

describe('analyst stack', () => {
  const { json, policy } = build();
  const role = resourcesOf(json, 'aws_iam_role').role as Record<string, unknown>;
  const statements = statementsOf(resourcesOf(json, 'aws_iam_role_policy')['role-policy']?.policy);

  test('the lab policy passes (documented trust keys, no wildcard actions, no writes on "*", lab prefix)', () => {
    expect(policy.violations).toEqual([]);
    expect(role.name).toBe('loglake-01-analyst');
  });

  test("the deployer and the unit's trusted principals may assume it, nobody else", () => {
    const trusted = build({ trustedPrincipalArns: ['arn:aws:iam::123456789012:role/data-analysts'] }).json;
    const trust = statementsOf(
      (resourcesOf(trusted, 'aws_iam_role').role as Record<string, unknown>).assume_role_policy,
    );
    expect(trust).toEqual([
      {
        Sid: 'NamedAnalysts',
        Effect: 'Allow',
        Principal: {
          AWS: [
            '${data.aws_iam_session_context.deployer.issuer_arn}',
            'arn:aws:iam::123456789012:role/data-analysts',
          ],
        },
        Action: ['sts:AssumeRole'],
      },
    ]);
  });

  test('IAM allows reading only: Athena in the lab workgroup, Glue lookups, Lake Formation data access', () => {
    const actions = statements.flatMap((s) => s.Action);
    expect(statements.every((s) => s.Effect === 'Allow')).toBe(true);
    expect(
      actions.filter((a) => !/^(athena|glue|lakeformation):(Get|List|BatchGet|Start|Stop)/.test(a)),
    ).toEqual([]);
    // Nothing that writes or administers, nothing on the error bucket, Firehose or S3 Tables maintenance.
    for (const forbidden of [
      /^s3:/,
      /^s3tables:/,
      /^firehose:/,
      /Update|Create|Delete|Put/,
      /^athena:.*WorkGroup$/,
    ])
      expect(actions.filter((a) => forbidden.test(a) && a !== 'athena:GetWorkGroup')).toEqual([]);
  });

  test("Athena only in the analysts' own workgroup (enforced, managed results, capped): never the lab's shared one, whose history Lake Formation does not govern", () => {
    const athenaStatements = statements.filter((s) => s.Action.some((a) => a.startsWith('athena:')));
    expect(athenaStatements.map((s) => s.Sid)).toEqual(['QueryInTheAnalystsWorkgroup']);
    expect(athenaStatements[0]!.Resource).toEqual([
      'arn:${data.aws_partition.partition.partition}:athena:us-east-1:${data.aws_caller_identity.account.account_id}:workgroup/${aws_athena_workgroup.workgroup.name}',
    ]);
    expect(JSON.stringify(json)).not.toContain('table_bucket_workgroup_name');
    const workgroup = resourcesOf(json, 'aws_athena_workgroup').workgroup as Record<string, unknown>;
    expect(workgroup).toMatchObject({
      name: 'loglake-01-analyst',
      force_destroy: true,
      configuration: {
        enforce_workgroup_configuration: true,
        bytes_scanned_cutoff_per_query: 1024 ** 3,
        managed_query_results_configuration: { enabled: true },
        engine_version: { selected_engine_version: 'Athena engine version 3' },
      },
    });
    expect(build({ workgroup: { bytesScannedCutoffPerQuery: 10 * 1024 ** 2 } }).policy.violations).toEqual(
      [],
    );
    expect(() => build({ workgroup: { bytesScannedCutoffPerQuery: 1024 } })).toThrow(
      /bytesScannedCutoffPerQuery/,
    );
  });

  test("Glue lookups reach the three namespaces of the lab's table bucket, no other", () => {
    const resources = statements.find((s) => s.Sid === 'LookUpTheLabTablesThroughS3TablesCatalog')
      ?.Resource as string[];
    const tables = resources
      .filter((r) => r.includes(':table/'))
      .map((r) => r.split('/').slice(-2).join('/'));
    expect(tables).toEqual(['network/*', 'ref/*', 'enriched/*']);
  });

  test('Lake Formation grants SELECT and DESCRIBE on the tables of network, ref and enriched, and nothing else', () => {
    const grants = Object.values(resourcesOf(json, 'aws_lakeformation_permissions')) as Array<{
      principal: string;
      permissions: string[];
      database?: { name: string };
      table?: { database_name: string; wildcard: boolean };
    }>;
    expect(grants.every((g) => g.principal === '${aws_iam_role.role.arn}')).toBe(true);
    const byName = (a: unknown[], b: unknown[]) => String(a[0]).localeCompare(String(b[0]));
    expect(
      grants
        .filter((g) => g.database)
        .map((g) => [g.database?.name, g.permissions])
        .sort(byName),
    ).toEqual([
      ['enriched', ['DESCRIBE']],
      ['network', ['DESCRIBE']],
      ['ref', ['DESCRIBE']],
    ]);
    expect(
      grants
        .filter((g) => g.table)
        .map((g) => [g.table?.database_name, g.table?.wildcard, g.permissions])
        .sort(byName),
    ).toEqual([
      ['enriched', true, ['SELECT', 'DESCRIBE']],
      ['network', true, ['SELECT', 'DESCRIBE']],
      ['ref', true, ['SELECT', 'DESCRIBE']],
    ]);
  });

  test("outputs as the other units: the role's ARN and name, the analysts' workgroup", () => {
    expect(json.output).toEqual({
      role_arn: { value: '${aws_iam_role.role.arn}' },
      role_name: { value: '${aws_iam_role.role.name}' },
      analyst_workgroup: { value: '${aws_athena_workgroup.workgroup.name}' },
    });
  });

  test('bad inputs name the field and the fix', () => {
    expect(() => build({ trustedPrincipalArns: ['analysts'] })).toThrow(UnitConfigError);
    expect(() => build({ trustedPrincipalArns: ['analysts'] })).toThrow(
      /trustedPrincipalArns.*IAM role or user ARNs/,
    );
    expect(() => build({ namespaces: [] })).toThrow(/namespaces.*is empty/);
  });
});
