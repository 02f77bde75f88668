import { describe, expect, test } from '@jest/globals';
import { Testing } from 'cdktf';
import { fixtureUnit, resourcesOf, tableBucketDependency, type StackJson } from '../test/fixtures';
import { spec, type RefDataInputs } from './inputs';
import { RefDataStack } from './stack';

function synth(inputs: Record<string, unknown> = {}): StackJson {
  const unit = fixtureUnit<RefDataInputs>(spec, {
    name: 'ref-data',
    inputs,
    dependencies: [
      tableBucketDependency(['table_bucket_arn', 'table_bucket_name', 'table_catalog_id', 'lab_role_arn']),
    ],
  });
  return JSON.parse(Testing.synth(new RefDataStack(Testing.app(), unit))) as StackJson;
}

describe('ref-data stack', () => {
  const json = synth();

  test('namespaces ref, enriched and lab in the table bucket read from remote state', () => {
    const ns = Object.values(resourcesOf(json, 'aws_s3tables_namespace'));
    expect(ns.map((n) => n.namespace).sort()).toEqual(['enriched', 'lab', 'ref']);
    for (const n of ns) {
      expect(n.table_bucket_arn).toBe('${local.table_bucket_table_bucket_arn}');
      expect(n.depends_on).toEqual(['terraform_data.table_bucket_upstream_guard']);
    }
  });

  test('whole-lab destroy: each namespace has a destroy-time step that drops its SQL tables first', () => {
    const data = resourcesOf(json, 'terraform_data');
    for (const name of ['ref', 'enriched', 'lab']) {
      const reaper = data[`drop-tables-${name}`] as {
        depends_on: string[];
        input: Record<string, string>;
        provisioner: Array<{ 'local-exec': Record<string, unknown> }>;
      };
      // Depending on the namespace means Terraform destroys the reaper (running its provisioner) before the namespace.
      expect(reaper.depends_on).toEqual([`aws_s3tables_namespace.namespace-${name}`]);
      expect(reaper.input).toEqual({
        table_bucket_arn: '${local.table_bucket_table_bucket_arn}',
        namespace: name,
        region: 'us-east-1',
        keep: '',
      });
      const exec = reaper.provisioner[0]!['local-exec'];
      expect(exec.when).toBe('destroy');
      expect(exec.command).toBe(
        'node scripts/supported-node.mjs node --import tsx packages/teardown/src/drop-namespace-tables-cli.ts',
      );
      expect(exec.environment).toEqual({
        TABLE_BUCKET_ARN: '${self.input.table_bucket_arn}',
        NAMESPACE: '${self.input.namespace}',
        KEEP_TABLES: '${self.input.keep}',
        AWS_REGION: '${self.input.region}',
      });
    }
  });

  test('the lab principal may create and read tables in each namespace', () => {
    const grants = Object.values(resourcesOf(json, 'aws_lakeformation_permissions'));
    expect(grants).toHaveLength(6);
    expect(grants.filter((g) => g.database).map((g) => g.permissions)).toEqual(
      Array(3).fill(['DESCRIBE', 'CREATE_TABLE', 'ALTER', 'DROP']),
    );
  });

  test('the drop step can be switched off', () => {
    expect(
      Object.keys(resourcesOf(synth({ dropTablesOnDestroy: false }), 'terraform_data')).filter((k) =>
        k.startsWith('drop-tables'),
      ),
    ).toEqual([]);
  });

  test('grants on a namespace wait, bounded, for it to surface in s3tablescatalog (EntityNotFound is not retried)', () => {
    const data = resourcesOf(json, 'terraform_data');
    for (const ns of ['ref', 'enriched', 'lab']) {
      const wait = data[`wait-federated-${ns}`] as {
        triggers_replace: Record<string, string>;
        depends_on: string[];
        input: Record<string, string>;
      };
      expect(wait.triggers_replace).toMatchObject({ database: ns });
      expect(wait.depends_on).toContain(`aws_s3tables_namespace.namespace-${ns}`);
      expect(wait.input.timeout_seconds).toBe('180');
    }
    for (const [id, grant] of Object.entries(resourcesOf(json, 'aws_lakeformation_permissions'))) {
      const ns = /^lf-([a-z]+)-/.exec(id)![1];
      expect(grant.depends_on).toContain(`terraform_data.wait-federated-${ns}`);
    }
  });

  test('lab principals get the same grants as the deployer in every namespace', () => {
    const arn = 'arn:aws:iam::123456789012:role/analyst';
    const grants = Object.values(
      resourcesOf(synth({ labPrincipalArns: [arn] }), 'aws_lakeformation_permissions'),
    );
    expect(grants).toHaveLength(12);
    const theirs = grants.filter((g) => g.principal === arn);
    expect(theirs).toHaveLength(6);
    expect(theirs.filter((g) => g.table).map((g) => g.permissions)).toEqual(Array(3).fill(['ALL']));
  });

  test('bad namespace names are refused with unit, field and fix', () => {
    expect(() => synth({ namespaces: ['Ref-Data'] })).toThrow(
      'unit ref-data: inputs.namespaces contains "Ref-Data", which is not valid. Fix: namespaces are lower-case identifiers',
    );
  });
});

describe('ref-data: a namespace replaced under the same name', () => {
  const json = synth();
  const triggers = (r: Record<string, unknown>) =>
    (r.lifecycle as { replace_triggered_by?: string[] } | undefined)?.replace_triggered_by ?? [];

  test("runs its federation wait again and makes its grants again; another namespace's stay", () => {
    for (const name of ['ref', 'enriched', 'lab']) {
      const marker = `aws_s3tables_namespace.namespace-${name}.created_at`;
      expect(triggers(resourcesOf(json, 'terraform_data')[`wait-federated-${name}`]!)).toEqual([marker]);
      const grants = Object.entries(resourcesOf(json, 'aws_lakeformation_permissions')).filter(
        ([, g]) =>
          (g.database as { name?: string } | undefined)?.name === name ||
          (g.table as { database_name?: string } | undefined)?.database_name === name,
      );
      expect(grants.length).toBeGreaterThan(0);
      for (const [, g] of grants) expect(triggers(g)).toEqual([marker]);
    }
  });
});
