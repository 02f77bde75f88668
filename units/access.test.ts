// The lab's access model read from its synthesized stacks (the real live tree, synthesized as `cdktf synth` does).
import { describe, expect, test } from '@jest/globals';
import { synthesizeAccess } from '@loglake/stacks/access';
import { resolveLab } from './index';

const VALUES = { account: '123456789012', deployerArn: 'arn:aws:iam::123456789012:role/lab-deployer' };

describe('the access model of the synthesized lab', () => {
  let access: Awaited<ReturnType<typeof synthesizeAccess>>;
  const role = (name: string) => {
    const found = access.roles.find((r) => r.name === name);
    if (!found) throw new Error(`no role ${name} in ${access.roles.map((r) => r.name).join(', ')}`);
    return found;
  };

  test('synthesizes every unit and resolves each role with its trust policy and inline policies', async () => {
    access = await synthesizeAccess(await resolveLab({ env: {} }), VALUES);
    expect(access.roles.map((r) => r.name).sort()).toEqual([
      'loglake-01-analyst',
      'loglake-01-firehose',
      'loglake-01-lab',
      'loglake-01-snapshot-build',
      'loglake-01-snapshot-resolve-watermark',
      'loglake-01-snapshot-scheduler',
      'loglake-01-snapshot-state-machine',
      'loglake-s3tables-lakeformation-us-east-1',
    ]);
    const firehose = role('loglake-01-firehose');
    expect(firehose.arn).toBe('arn:aws:iam::123456789012:role/loglake-01-firehose');
    expect(firehose.trustPolicy).toMatchObject({
      Statement: [{ Principal: { Service: 'firehose.amazonaws.com' } }],
    });
    expect(JSON.stringify(firehose.policies[0]?.document)).toContain(
      'arn:aws:glue:us-east-1:123456789012:table/s3tablescatalog/loglake-01-flow-logs/network/vpc_flow_logs',
    );
    expect(JSON.stringify(firehose.policies[0]?.document)).toContain(
      'arn:aws:s3:::loglake-01-firehose-errors-123456789012/*',
    );
    // The analyst's trust names the deployer (the synthesizing principal's issuer ARN).
    expect(role('loglake-01-analyst').trustPolicy).toMatchObject({
      Statement: [{ Principal: { AWS: [VALUES.deployerArn] }, Action: ['sts:AssumeRole'] }],
    });
    expect(role('loglake-s3tables-lakeformation-us-east-1').managedPolicyArns).toEqual([
      'arn:aws:iam::aws:policy/service-role/AmazonS3TablesLakeFormationServiceRole',
    ]);
  });

  test('bucket policies by bucket ARN, and Lake Formation grants with their catalog, database and table', () => {
    expect(access.resourcePolicies.map((p) => p.resourceArn).sort()).toEqual([
      'arn:aws:s3:::loglake-01-firehose-errors-123456789012',
      'arn:aws:s3:::loglake-01-snapshots-123456789012',
    ]);
    const analyst = access.grants.filter((g) => g.principal === role('loglake-01-analyst').arn);
    expect(analyst.map((g) => `${g.database}/${g.table ?? '-'}:${g.permissions.join('+')}`).sort()).toEqual([
      'enriched/*:SELECT+DESCRIBE',
      'enriched/-:DESCRIBE',
      'network/*:SELECT+DESCRIBE',
      'network/-:DESCRIBE',
      'ref/*:SELECT+DESCRIBE',
      'ref/-:DESCRIBE',
    ]);
    expect(new Set(analyst.map((g) => g.catalogId))).toEqual(
      new Set(['123456789012:s3tablescatalog/loglake-01-flow-logs']),
    );
    // The lab's SQL runs as the lab role, which holds the grants; the deployer (a data lake administrator) none.
    expect(access.grants.filter((g) => g.principal === VALUES.deployerArn)).toEqual([]);
    const lab = role('loglake-01-lab');
    expect(lab.trustPolicy).toMatchObject({ Statement: [{ Principal: { AWS: [VALUES.deployerArn] } }] });
    const labGrants = access.grants.filter((g) => g.principal === lab.arn);
    for (const ns of ['network', 'ref', 'enriched', 'lab'])
      expect(
        labGrants.some((g) => g.database === ns && g.table === '*' && g.permissions.includes('ALL')),
      ).toBe(true);
    expect(
      labGrants.some((g) => g.database === 'loglake_01_snapshots' && g.permissions.includes('SELECT')),
    ).toBe(true);
    // snapshots attaches its reading policy to table-bucket's role.
    expect(lab.policies.map((p) => p.name).sort()).toEqual(['loglake-01-lab', 'loglake-01-lab-snapshots']);
  });

  test('outputs that resolve are there; one AWS generates (a table id) is left out rather than guessed', () => {
    expect(access.outputs.firehose?.role_arn).toBe('arn:aws:iam::123456789012:role/loglake-01-firehose');
    expect(access.outputs.analyst?.role_arn).toBe('arn:aws:iam::123456789012:role/loglake-01-analyst');
    expect(access.outputs['table-bucket']?.workgroup_name).toBe('loglake-01');
    expect(access.outputs['table-bucket']).not.toHaveProperty('table_arn');
  });
});
