import { describe, expect, test } from '@jest/globals';
import type { LevelConfig, UnitConfig } from './define';
import { loadInputsSpec } from './load';
import { resolveLabTree, type LabTree } from './resolve';

const firehoseDep = {
  table_bucket: {
    configPath: '../table-bucket',
    outputs: ['table_bucket_arn', 'table_bucket_name'],
    mockOutputs: {
      table_bucket_arn: 'arn:aws:s3tables:us-east-1:123456789012:bucket/mock',
      table_bucket_name: 'mock',
    },
  },
};

function tree(
  over: {
    root?: Partial<LabTree['root']>;
    lab?: LevelConfig;
    labDir?: string;
    region?: string;
    units?: Record<string, UnitConfig>;
    regional?: Record<string, UnitConfig>;
  } = {},
): LabTree {
  const units = over.units ?? { 'table-bucket': {}, firehose: { dependencies: firehoseDep } };
  return {
    root: { labId: '01', prefix: 'loglake', tags: { 'managed-by': 'cdktf' }, ...over.root },
    env: { name: 'sandbox', config: { tags: { env: 'sandbox' } } },
    region: { name: over.region ?? 'us-east-1' },
    lab: { dir: over.labDir ?? '01-s3-tables-log-lake', config: over.lab },
    units: Object.entries(units).map(([name, config]) => ({ name, config })),
    regional: Object.entries(over.regional ?? {}).map(([name, config]) => ({ name, config })),
  };
}

const integrationDep = {
  s3tables_integration: {
    configPath: '../../_regional/s3tables-integration',
    outputs: ['glue_catalog_name'],
    mockOutputs: { glue_catalog_name: 's3tablescatalog' },
  },
};

const resolve = (t: LabTree, env: NodeJS.ProcessEnv = {}) => resolveLabTree(t, loadInputsSpec, env);

describe('resolveLabTree', () => {
  test('merges root → env → region → lab → unit; unit wins, tags and inputs merge key by key', async () => {
    const lab = await resolve(
      tree({
        lab: {
          tags: { owner: 'lab' },
          inputs: { workgroup: { bytesScannedCutoffPerQuery: 20 * 1024 * 1024 } },
        },
        units: {
          'table-bucket': { tags: { owner: 'unit' }, inputs: { workgroup: { name: 'loglake-01-adhoc' } } },
          firehose: { dependencies: firehoseDep },
        },
      }),
    );
    const tb = lab.units['table-bucket']!;
    expect(tb.tags).toEqual({
      'managed-by': 'cdktf',
      env: 'sandbox',
      owner: 'unit',
      lab: '01',
      unit: 'table-bucket',
    });
    expect(tb.inputs).toMatchObject({
      workgroup: { name: 'loglake-01-adhoc', bytesScannedCutoffPerQuery: 20971520 },
    });
    expect(lab.units.firehose!.tags.owner).toBe('lab');
    expect(lab.order).toEqual(['table-bucket', 'firehose']);
  });

  test('remote state: key is the unit path; bucket from config or LAB_STATE_BUCKET; otherwise local under .lab', async () => {
    const local = await resolve(tree());
    expect(local.units.firehose!.remoteState).toEqual({
      backend: 'local',
      key: 'sandbox/us-east-1/01-s3-tables-log-lake/firehose/terraform.tfstate',
      path: '.lab/tfstate/sandbox/us-east-1/01-s3-tables-log-lake/firehose/terraform.tfstate',
    });
    const fromEnv = await resolve(tree(), { LAB_STATE_BUCKET: 'my-state' });
    expect(fromEnv.units.firehose!.remoteState).toEqual({
      backend: 's3',
      bucket: 'my-state',
      key: 'sandbox/us-east-1/01-s3-tables-log-lake/firehose/terraform.tfstate',
      region: 'us-east-1',
    });
    const fromConfig = await resolve(
      tree({ root: { remoteState: { bucket: 'cfg-state', region: 'eu-west-1' } } }),
      { LAB_STATE_BUCKET: 'ignored' },
    );
    expect(fromConfig.units['table-bucket']!.remoteState).toMatchObject({
      bucket: 'cfg-state',
      region: 'eu-west-1',
    });
    // The consumer's dependency points at the producer's backend.
    expect(fromEnv.units.firehose!.dependencies[0]!.remoteState).toEqual(
      fromEnv.units['table-bucket']!.remoteState,
    );
  });

  test('dependency resolution: producer by relative path, outputs, mocks, default mock commands', async () => {
    const lab = await resolve(tree());
    expect(lab.units.firehose!.dependencies).toEqual([
      expect.objectContaining({
        name: 'table_bucket',
        unit: 'table-bucket',
        outputs: ['table_bucket_arn', 'table_bucket_name'],
        mockAllowedCommands: ['init', 'validate', 'plan'],
      }),
    ]);
  });

  test("region-level units: merged without the lab level, no lab tag, own state key, deployed first, not the lab's", async () => {
    const lab = await resolve(
      tree({
        lab: { tags: { owner: 'lab' }, inputs: { mode: 'adopt' } },
        regional: { 's3tables-integration': {} },
        units: { 'table-bucket': { dependencies: integrationDep }, firehose: { dependencies: firehoseDep } },
      }),
    );
    const integration = lab.units['s3tables-integration']!;
    expect(integration).toMatchObject({
      level: 'region',
      path: 'sandbox/us-east-1/_regional/s3tables-integration',
      labId: '',
      namePrefix: 'loglake',
      // The lab level's inputs (mode: adopt) do not reach it.
      inputs: { mode: 'create' },
      remoteState: {
        key: 'sandbox/us-east-1/_regional/s3tables-integration/terraform.tfstate',
      },
    });
    expect(integration.tags).toEqual({ 'managed-by': 'cdktf', env: 'sandbox', unit: 's3tables-integration' });
    expect(lab.units['table-bucket']!.dependencies[0]).toMatchObject({
      unit: 's3tables-integration',
      remoteState: integration.remoteState,
    });
    expect(lab.order).toEqual(['s3tables-integration', 'table-bucket', 'firehose']);
    expect(lab.regionalUnits).toEqual(['s3tables-integration']);
    expect(lab.labUnits).toEqual(['table-bucket', 'firehose']);
  });

  const bad: Array<[string, () => LabTree, string]> = [
    [
      'a region-level unit depending on a lab unit',
      () =>
        tree({
          regional: {
            's3tables-integration': {
              dependencies: {
                tb: { configPath: '../../01-s3-tables-log-lake/table-bucket', outputs: ['table_bucket_arn'] },
              },
            },
          },
        }),
      'unit s3tables-integration: dependencies point at sandbox/us-east-1/01-s3-tables-log-lake/table-bucket, inside a lab. Fix: a region-level unit may depend only on other region-level units',
    ],
    [
      'a lab unit named like a region-level one',
      () => tree({ regional: { firehose: {} } }),
      'is also the name of a unit in sandbox/us-east-1/_regional (unit names are stack ids, so they must be unique)',
    ],
    [
      'cutoff below Athena minimum',
      () =>
        tree({ units: { 'table-bucket': { inputs: { workgroup: { bytesScannedCutoffPerQuery: 1024 } } } } }),
      "unit table-bucket: inputs.workgroup.bytesScannedCutoffPerQuery is 1024, but must be an integer at least 10485760 (Athena's minimum per-query cutoff is 10 MiB = 10485760 bytes). Fix: set it to an integer at least 10485760, e.g. 1073741824",
    ],
    ['bad lab id', () => tree({ root: { labId: '1' } }), 'labId is "1". Fix: use two digits, e.g. "01"'],
    [
      'lab id not matching the folder',
      () => tree({ lab: { labId: '02' } }),
      'labId is "02" but the lab folder is "01-s3-tables-log-lake". Fix: rename the folder to "02-<name>" or set labId to its number',
    ],
    [
      'bad region',
      () => tree({ region: 'mars-1' }),
      'region is "mars-1", not an AWS region. Fix: name the region folder like "us-east-1"',
    ],
    [
      'region not matching the folder',
      () => tree({ root: { region: 'eu-west-1' } }),
      'region is "eu-west-1" but the lab sits in the region folder "us-east-1". Fix: move the lab under units/sandbox/eu-west-1/ or set region to "us-east-1"',
    ],
    [
      'bad prefix',
      () => tree({ root: { prefix: 'Log_Lake' } }),
      'prefix is "Log_Lake". Fix: use 2–20 characters a-z, 0-9, - starting with a letter',
    ],
    [
      'unknown dependency path',
      () =>
        tree({
          units: {
            'table-bucket': {},
            firehose: {
              dependencies: { table_bucket: { ...firehoseDep.table_bucket, configPath: '../tables' } },
            },
          },
        }),
      'unit firehose: dependencies.table_bucket.configPath is "../tables", which names no unit (resolved to sandbox/us-east-1/01-s3-tables-log-lake/tables). Fix: point it at one of "../table-bucket"',
    ],
    [
      'output the producer does not have',
      () =>
        tree({
          units: {
            'table-bucket': {},
            firehose: {
              dependencies: { table_bucket: { configPath: '../table-bucket', outputs: ['bucket'] } },
            },
          },
        }),
      'unit firehose: dependencies.table_bucket.outputs names "bucket", which unit table-bucket does not output. Fix: use one of: table_bucket_arn',
    ],
    [
      'mocks allowed for apply',
      () =>
        tree({
          units: {
            'table-bucket': {},
            firehose: {
              dependencies: {
                table_bucket: {
                  ...firehoseDep.table_bucket,
                  mockOutputsAllowedTerraformCommands: ['plan', 'apply'],
                },
              },
            },
          },
        }),
      'unit firehose: dependencies.table_bucket.mockOutputsAllowedTerraformCommands allows "apply". Fix: mock values must never reach apply/destroy',
    ],
    [
      'bucket name without prefix',
      () => tree({ units: { 'table-bucket': { inputs: { bucketName: 'flows' } } } }),
      'unit table-bucket: inputs.bucketName is "flows", which is not valid. Fix: the table bucket name must start with the lab prefix "loglake-01"',
    ],
    [
      // A kind is a folder's name: a path that leads to a real kind's folder is still refused, never followed.
      'stack kind written as a path',
      () => tree({ units: { 'table-bucket': {}, other: { stack: 'snapshots/../table-bucket' } } }),
      'unit other: stack is "snapshots/../table-bucket", but the catalog has no stacks/snapshots/../table-bucket/inputs.ts',
    ],
    [
      'unknown catalog entry',
      () => tree({ units: { 'table-bucket': {}, snapshots2: { stack: 'nope' } } }),
      'unit snapshots2: stack is "nope", but the catalog has no stacks/nope/inputs.ts',
    ],
    [
      'dependency cycle',
      () =>
        tree({
          units: {
            'table-bucket': { dependencies: { fh: { configPath: '../firehose', outputs: ['stream_name'] } } },
            firehose: { dependencies: firehoseDep },
          },
        }),
      'form a cycle (firehose → table-bucket → firehose)',
    ],
  ];
  test.each(bad)('bad input fails with unit, field and fix: %s', async (_name, make, message) => {
    await expect(resolve(make())).rejects.toThrow(message);
  });
});
