import { describe, expect, test } from '@jest/globals';
import { Aspects, Testing } from 'cdktf';
import type { TfCommand } from '../lib/contract';
import { LabPolicy } from '../lib/policy/lab-policy';
import {
  fixtureUnit,
  integrationDependency,
  onlyResource,
  resourcesOf,
  type StackJson,
} from '../test/fixtures';
import { spec, VPC_FLOW_LOG_COLUMNS, type TableBucketInputs } from './inputs';
import { TableBucketStack } from './stack';

function synth(inputs: Record<string, unknown> = {}, remoteState: 'local' | 's3' = 'local'): StackJson {
  const app = Testing.app();
  const stack = new TableBucketStack(
    app,
    fixtureUnit<TableBucketInputs>(spec, {
      name: 'table-bucket',
      inputs,
      remoteState,
      dependencies: [integrationDependency(remoteState)],
    }),
  );
  return JSON.parse(Testing.synth(stack)) as StackJson;
}

describe('table-bucket stack', () => {
  const json = synth();

  test('table bucket carries the lab prefix, SSE and unreferenced-file removal', () => {
    const bucket = onlyResource(json, 'aws_s3tables_table_bucket');
    expect(bucket.name).toBe('loglake-01-flow-logs');
    // kms_key_arn present as null: the provider's object type requires the key (terraform-provider-aws#48160).
    expect(bucket.encryption_configuration).toStrictEqual({ sse_algorithm: 'AES256', kms_key_arn: null });
    expect(bucket.maintenance_configuration).toEqual({
      iceberg_unreferenced_file_removal: {
        status: 'enabled',
        settings: { unreferenced_days: 3, non_current_days: 10 },
      },
    });
  });

  test('namespace network and ICEBERG table vpc_flow_logs with the flow-log v2 schema and maintenance', () => {
    expect(onlyResource(json, 'aws_s3tables_namespace').namespace).toBe('network');
    const table = onlyResource(json, 'aws_s3tables_table');
    expect(table.name).toBe('vpc_flow_logs');
    expect(table.format).toBe('ICEBERG');
    const fields = (
      table.metadata as Array<{
        iceberg: Array<{ schema: Array<{ field: Array<{ name: string; type: string }> }> }>;
      }>
    )[0]!.iceberg[0]!.schema[0]!.field;
    expect(fields.map((f) => `${f.name}:${f.type}`)).toEqual(
      VPC_FLOW_LOG_COLUMNS.map((c) => `${c.name}:${c.type}`),
    );
    expect(fields.find((f) => f.name === 'start_time')?.type).toBe('timestamp');
    expect(fields.find((f) => f.name === 'bytes')?.type).toBe('long');
    expect(table.maintenance_configuration).toEqual({
      iceberg_compaction: { status: 'enabled', settings: { target_file_size_mb: 512 } },
      iceberg_snapshot_management: {
        status: 'enabled',
        settings: { min_snapshots_to_keep: 1, max_snapshot_age_hours: 120 },
      },
    });
  });

  test('undo window and cutoff are configurable per unit', () => {
    const custom = synth({
      maintenance: { minSnapshotsToKeep: 5, maxSnapshotAgeHours: 48 },
      workgroup: { bytesScannedCutoffPerQuery: 100 * 1024 * 1024 },
    });
    const table = onlyResource(custom, 'aws_s3tables_table');
    expect(
      (table.maintenance_configuration as { iceberg_snapshot_management: unknown })
        .iceberg_snapshot_management,
    ).toEqual({
      status: 'enabled',
      settings: { min_snapshots_to_keep: 5, max_snapshot_age_hours: 48 },
    });
    const wg = onlyResource(custom, 'aws_athena_workgroup');
    expect(
      (wg.configuration as { bytes_scanned_cutoff_per_query: number }).bytes_scanned_cutoff_per_query,
    ).toBe(104857600);
  });

  test("the S3 Tables analytics integration is not the lab's: no catalog, registration or data-access role here", () => {
    for (const type of ['aws_glue_catalog', 'aws_lakeformation_resource', 'aws_iam_role_policy_attachment'])
      expect({ type, found: resourcesOf(json, type) }).toEqual({ type, found: {} });
    // The only role is the lab's own (below).
    expect(Object.keys(resourcesOf(json, 'aws_iam_role'))).toEqual(['lab-role']);
    // The catalog name comes from the region-level unit's state, behind its guard.
    expect(json.output?.glue_catalog_id?.value).toBe('${local.s3tables_integration_glue_catalog_name}');
    expect(resourcesOf(json, 'terraform_data').s3tables_integration_upstream_guard).toBeDefined();
  });

  test('the grants wait, bounded, until the new namespace and table surface in s3tablescatalog', () => {
    const wait = resourcesOf(json, 'terraform_data')['wait-federated-table'] as {
      triggers_replace: Record<string, string>;
      depends_on: string[];
      provisioner: Array<{ 'local-exec': { command: string; environment: Record<string, string> } }>;
    };
    expect(wait.triggers_replace).toEqual({
      catalog_id:
        '${data.aws_caller_identity.account.account_id}:${local.s3tables_integration_glue_catalog_name}/loglake-01-flow-logs',
      database: 'network',
      table: 'vpc_flow_logs',
    });
    expect(wait.depends_on).toEqual(
      expect.arrayContaining(['aws_s3tables_namespace.namespace', 'aws_s3tables_table.table']),
    );
    const exec = wait.provisioner[0]!['local-exec'];
    expect(exec.command).toBe(
      'node scripts/supported-node.mjs node --import tsx packages/deploy-checks/src/wait-for-federation-cli.ts',
    );
    expect(exec.environment).toMatchObject({
      TIMEOUT_SECONDS: '${self.input.timeout_seconds}',
      TABLE: '${self.triggers_replace.table}',
    });
    for (const grant of Object.values(resourcesOf(json, 'aws_lakeformation_permissions')))
      expect(grant.depends_on).toEqual(expect.arrayContaining(['terraform_data.wait-federated-table']));
    expect(
      resourcesOf(synth({ federationWaitSeconds: 0 }), 'terraform_data')['wait-federated-table'],
    ).toBeUndefined();
  });

  test('Athena workgroup: engine v3, enforced 1 GiB cutoff, managed query results', () => {
    const wg = onlyResource(json, 'aws_athena_workgroup');
    expect(wg.name).toBe('loglake-01');
    expect(wg.configuration).toMatchObject({
      enforce_workgroup_configuration: true,
      bytes_scanned_cutoff_per_query: 1073741824,
      engine_version: { selected_engine_version: 'Athena engine version 3' },
      managed_query_results_configuration: { enabled: true },
    });
    expect((wg.configuration as Record<string, unknown>).result_configuration).toBeUndefined();
  });

  test('Lake Formation grants go to the lab role, never to the deployer (a data lake administrator: N1)', () => {
    const grants = Object.values(resourcesOf(json, 'aws_lakeformation_permissions'));
    expect(grants).toHaveLength(2);
    for (const g of grants) expect(g.principal).toBe('${aws_iam_role.lab-role.arn}');
    expect(JSON.stringify(grants)).not.toContain('aws_iam_session_context');
    const db = grants.find((g) => g.database) as { database: { catalog_id: string; name: string } };
    expect(db.database).toEqual({
      catalog_id:
        '${data.aws_caller_identity.account.account_id}:${local.s3tables_integration_glue_catalog_name}/loglake-01-flow-logs',
      name: 'network',
    });
  });

  test("the lab role: the deployer assumes it (and the lab principals, below); Athena in the lab workgroup, the bucket's Glue catalog, GetDataAccess", () => {
    const role = resourcesOf(json, 'aws_iam_role')['lab-role']!;
    expect(role.name).toBe('loglake-01-lab');
    expect(JSON.parse(String(role.assume_role_policy))).toEqual({
      Version: '2012-10-17',
      Statement: [
        {
          Sid: 'TheDeployer',
          Effect: 'Allow',
          Principal: { AWS: ['${data.aws_iam_session_context.deployer.issuer_arn}'] },
          Action: ['sts:AssumeRole'],
        },
      ],
    });
    const policy = JSON.parse(
      String(resourcesOf(json, 'aws_iam_role_policy')['lab-role-policy']!.policy),
    ) as {
      Statement: { Sid: string; Action: string[]; Resource: string | string[] }[];
    };
    const bySid = Object.fromEntries(policy.Statement.map((st) => [st.Sid, st]));
    expect(bySid.QueryInTheLabWorkgroup!.Resource).toEqual([
      'arn:${data.aws_partition.partition.partition}:athena:us-east-1:${data.aws_caller_identity.account.account_id}:workgroup/${aws_athena_workgroup.workgroup.name}',
    ]);
    expect(bySid.TheLabTablesThroughS3TablesCatalog!.Resource).toContain(
      'arn:${data.aws_partition.partition.partition}:glue:us-east-1:${data.aws_caller_identity.account.account_id}:table/s3tablescatalog/loglake-01-flow-logs/*/*',
    );
    expect(bySid.LakeFormationCredentials!.Action).toEqual(['lakeformation:GetDataAccess']);
    expect(json.output?.lab_role_arn).toEqual({ value: '${aws_iam_role.lab-role.arn}' });
  });

  test('the lab principals may assume the lab role too: the lab assumes it with the credentials that run it (F6)', () => {
    const principal = 'arn:aws:iam::123456789012:role/lab-runner';
    const role = resourcesOf(synth({ labPrincipalArns: [principal] }), 'aws_iam_role')['lab-role']!;
    const trust = JSON.parse(String(role.assume_role_policy)) as {
      Statement: { Sid: string; Effect: string; Principal: { AWS: string[] }; Action: string[] }[];
    };
    expect(trust.Statement).toEqual([
      {
        Sid: 'TheDeployer',
        Effect: 'Allow',
        Principal: { AWS: ['${data.aws_iam_session_context.deployer.issuer_arn}'] },
        Action: ['sts:AssumeRole'],
      },
      {
        Sid: 'TheLabPrincipals',
        Effect: 'Allow',
        Principal: { AWS: [principal] },
        Action: ['sts:AssumeRole'],
      },
    ]);
  });

  test('the post-destroy hook: destroy-time local-exec with CHECK_ATTEMPTS=4 and the lab id; everything else depends on it', () => {
    const hook = resourcesOf(json, 'terraform_data').verify_teardown as {
      input: Record<string, string>;
      provisioner: Array<{ 'local-exec': Record<string, unknown> }>;
      depends_on?: unknown;
    };
    expect(hook.input).toEqual({ lab_id: '01', region: 'us-east-1', check_attempts: '4' });
    const exec = hook.provisioner[0]!['local-exec'];
    expect(exec.when).toBe('destroy');
    expect(exec.command).toBe(
      'node scripts/supported-node.mjs node --import tsx scripts/check-leftovers.ts ${self.input.lab_id}',
    );
    expect(exec.environment).toMatchObject({ CHECK_ATTEMPTS: '${self.input.check_attempts}' });
    expect(exec.working_dir).toBe('../../..');
    expect(exec.on_failure).toBeUndefined(); // default: fail — a failed check fails the destroy
    expect(hook.depends_on).toBeUndefined();
    for (const [type, byId] of Object.entries(json.resource)) {
      for (const [id, r] of Object.entries(byId)) {
        if (type === 'terraform_data' && id === 'verify_teardown') continue;
        expect({ resource: `${type}.${id}`, dependsOn: r.depends_on }).toEqual({
          resource: `${type}.${id}`,
          dependsOn: expect.arrayContaining(['terraform_data.verify_teardown']),
        });
      }
    }
  });

  test('SQL-created tables in network are dropped before the namespace is destroyed, keeping the managed table', () => {
    const reaper = resourcesOf(json, 'terraform_data')['drop-sql-tables'] as {
      input: Record<string, string>;
      depends_on: string[];
      provisioner: Array<{ 'local-exec': Record<string, unknown> }>;
    };
    expect(reaper.depends_on).toEqual(
      expect.arrayContaining(['aws_s3tables_namespace.namespace', 'aws_s3tables_table.table']),
    );
    expect(reaper.input).toMatchObject({ namespace: 'network', keep: 'vpc_flow_logs' });
    expect(reaper.provisioner[0]!['local-exec'].when).toBe('destroy');
  });

  test("the lab's alerts topic with its email subscription; firehose and snapshots read its ARN", () => {
    const withAddress = synth({ alertEmail: 'data-eng@loglake.dev' });
    expect(onlyResource(withAddress, 'aws_sns_topic').name).toBe('loglake-01-alerts');
    // No KMS: CloudWatch alarms cannot publish to a topic encrypted with the AWS-managed SNS key.
    expect(onlyResource(withAddress, 'aws_sns_topic').kms_master_key_id).toBeUndefined();
    expect(onlyResource(withAddress, 'aws_sns_topic_subscription')).toMatchObject({
      topic_arn: '${aws_sns_topic.alerts.arn}',
      protocol: 'email',
      endpoint: 'data-eng@loglake.dev',
    });
    expect(withAddress.output?.alerts_topic_arn).toEqual({ value: '${aws_sns_topic.alerts.arn}' });
  });

  test('an alert address is required to deploy: missing or placeholder refused for apply, a warning for a plan', () => {
    const checked = (command: TfCommand | undefined, alertEmail: string) => {
      const policy = new LabPolicy({ namePrefix: 'loglake-01', command });
      const stack = new TableBucketStack(
        Testing.app(),
        fixtureUnit<TableBucketInputs>(spec, {
          name: 'table-bucket',
          inputs: { alertEmail },
          dependencies: [integrationDependency()],
        }),
        { command },
      );
      Aspects.of(stack).add(policy);
      Testing.synth(stack);
      return policy;
    };
    for (const alertEmail of ['', 'data-engineering@example.com', 'ops@alerts.test']) {
      expect(checked(undefined, alertEmail).violations.join('\n')).toMatch(
        /aws_sns_topic_subscription.alerts-email .*LOGLAKE_ALERT_EMAIL/,
      );
      // A plan shows it; a destroy or an output read in a new shell must never be blocked by it.
      for (const lenient of ['plan', 'destroy', 'output'] as const) {
        const policy = checked(lenient, alertEmail);
        expect(policy.violations).toEqual([]);
        expect(policy.warnings.join('\n')).toMatch(/no alert is ever delivered/);
      }
    }
    expect(checked('apply', 'data-eng@loglake.dev').violations).toEqual([]);
    expect(() => synth({ alertEmail: 'not-an-address' })).toThrow(
      'inputs.alertEmail is "not-an-address", which is not valid',
    );
  });

  test('synthesized for a plan without a real address, the configuration cannot be applied: everything waits for a guard that fails at apply', () => {
    const json = (command: TfCommand | undefined, alertEmail: string) =>
      JSON.parse(
        Testing.synth(
          new TableBucketStack(
            Testing.app(),
            fixtureUnit<TableBucketInputs>(spec, {
              name: 'table-bucket',
              inputs: { alertEmail },
              dependencies: [integrationDependency()],
            }),
            { command },
          ),
        ),
      ) as StackJson;
    for (const alertEmail of ['', 'ops@example.com']) {
      const planned = json('plan', alertEmail);
      const data = resourcesOf(planned, 'terraform_data');
      const guard = data.alert_address_guard as {
        lifecycle: { precondition: { condition: string; error_message: string }[] };
      };
      expect(guard.lifecycle.precondition[0]!.condition).toBe(
        '${terraform_data.alert_address_guard_marker.id == "this configuration is not to be applied"}',
      );
      expect(guard.lifecycle.precondition[0]!.error_message).toContain('Set LOGLAKE_ALERT_EMAIL');
      // Every AWS resource waits for it (the teardown hook and the guard's own marker excepted).
      for (const [type, byId] of Object.entries(planned.resource))
        for (const [id, r] of Object.entries(byId)) {
          if (
            type === 'terraform_data' &&
            ['alert_address_guard', 'alert_address_guard_marker', 'verify_teardown'].includes(id)
          )
            continue;
          expect({
            id: `${type}.${id}`,
            waits: (r.depends_on as string[] | undefined)?.includes('terraform_data.alert_address_guard'),
          }).toEqual({ id: `${type}.${id}`, waits: true });
        }
    }
    // A deployable synth has none: nothing to plan again after the apply.
    expect(
      resourcesOf(json('plan', 'data-eng@loglake.dev'), 'terraform_data').alert_address_guard,
    ).toBeUndefined();
    expect(
      resourcesOf(json('apply', 'data-eng@loglake.dev'), 'terraform_data').alert_address_guard,
    ).toBeUndefined();
    // A destroy applies nothing new.
    expect(resourcesOf(json('destroy', ''), 'terraform_data').alert_address_guard).toBeUndefined();
  });

  test('outputs: bucket ARN and name, namespace, table, catalog ids, workgroup, alerts topic', () => {
    expect(Object.keys(json.output ?? {}).sort()).toEqual([...TableBucketStack.outputs].sort());
  });

  test('backend: local under .lab by default; S3 with use_lockfile and the unit-path key when a state bucket is set', () => {
    expect(json.terraform.backend.local).toEqual({
      path: '../../../.lab/tfstate/sandbox/us-east-1/01-s3-tables-log-lake/table-bucket/terraform.tfstate',
    });
    const s3 = synth({}, 's3').terraform.backend.s3;
    expect(s3).toEqual({
      bucket: 'example-state-bucket',
      key: 'sandbox/us-east-1/01-s3-tables-log-lake/table-bucket/terraform.tfstate',
      region: 'us-east-1',
      encrypt: true,
      use_lockfile: true,
    });
  });

  test('provider default_tags carry lab, unit and managed-by', () => {
    expect(json.provider.aws[0]!.default_tags[0]!.tags).toMatchObject({
      lab: '01',
      unit: 'table-bucket',
      'managed-by': 'cdktf',
    });
  });
});

describe('table-bucket: a namespace or table replaced under the same name', () => {
  const json = synth();
  const triggers = (r: Record<string, unknown>) =>
    ((r.lifecycle as { replace_triggered_by?: string[] } | undefined)?.replace_triggered_by ?? []).sort();
  const replaced = ['aws_s3tables_namespace.namespace.created_at', 'aws_s3tables_table.table.created_at'];

  test('runs the federation wait again (its triggers are the names, which stay the same)', () => {
    expect(triggers(resourcesOf(json, 'terraform_data')['wait-federated-table']!)).toEqual(replaced);
  });

  test('makes every Lake Formation grant on them again (the new Glue database or table has none)', () => {
    const grants = Object.values(resourcesOf(json, 'aws_lakeformation_permissions'));
    expect(grants.length).toBeGreaterThan(0);
    for (const g of grants) expect(triggers(g)).toEqual(replaced);
  });
});
