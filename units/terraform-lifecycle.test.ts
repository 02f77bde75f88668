// The whole Terraform lifecycle against the local endpoint with the machine's Terraform and mirrored AWS provider
// (the toolchain terraform-validate.test.ts finds): init, apply of the resource types the stacks use
// (test/terraform-lifecycle.ts), a second plan that must be empty, an apply of a change, destroy — and after each, the
// endpoint's state read back through the AWS SDK. Skips, saying why, without a toolchain (or with
// LOGLAKE_FOREIGN_CLIENTS=skip, which CI sets on one of its two Node lines).
import { describe, expect, test, beforeAll, afterAll } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AthenaClient,
  GetWorkGroupCommand,
  ListTagsForResourceCommand as AthenaTags,
} from '@aws-sdk/client-athena';
import {
  CloudWatchClient,
  DescribeAlarmsCommand,
  ListTagsForResourceCommand as AlarmTags,
} from '@aws-sdk/client-cloudwatch';
import {
  DescribeDeliveryStreamCommand,
  FirehoseClient,
  ListDeliveryStreamsCommand,
  ListTagsForDeliveryStreamCommand,
} from '@aws-sdk/client-firehose';
import { GetDatabaseCommand, GetDatabasesCommand, GetTagsCommand, GlueClient } from '@aws-sdk/client-glue';
import {
  GetBucketLifecycleConfigurationCommand,
  GetBucketPolicyCommand,
  GetBucketVersioningCommand,
  GetPublicAccessBlockCommand,
  ListBucketsCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import {
  GetTableBucketMaintenanceConfigurationCommand,
  GetTableBucketPolicyCommand,
  GetTableMaintenanceConfigurationCommand,
  GetTablePolicyCommand,
  ListTableBucketsCommand,
  ListTablesCommand,
  S3TablesClient,
} from '@aws-sdk/client-s3tables';
import { startLocalEndpoint, type LocalEndpoint } from '@loglake/local-aws';
import { check, Checks, foreignClientsSkipped } from '@loglake/local-aws/testing';
import { findToolchain, type TerraformToolchain } from '@loglake/stacks/testing';
import {
  ACCOUNT,
  labConfiguration,
  NAMES,
  runProblem,
  SETTINGS,
  stateAddresses,
  terraformRunner,
  writeConfiguration,
} from './test/terraform-lifecycle';

const toolchain = findToolchain();
const why = foreignClientsSkipped() ?? ('missing' in toolchain ? toolchain.missing : undefined);
if (why) console.log(`Terraform lifecycle test skipped: ${why}`);
const maybe = why ? describe.skip : describe;

/** Every managed resource of the configuration (what the state must hold after an apply). */
const RESOURCES = Object.entries(
  labConfiguration({ endpoint: 'http://x', awsVersion: '0', changed: false }).resource as Record<
    string,
    object
  >,
)
  .flatMap(([type, byName]) => Object.keys(byName).map((name) => `${type}.${name}`))
  .sort();

maybe('Terraform lifecycle against the local endpoint (machine Terraform, mirrored AWS provider)', () => {
  const tc = toolchain as TerraformToolchain;
  let dir: string;
  let endpoint: LocalEndpoint;
  let clients: ReturnType<typeof sdkClients>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'loglake-tf-lifecycle-'));
    endpoint = await startLocalEndpoint({ dataDir: join(dir, 'endpoint') });
    clients = sdkClients(endpoint.url);
  });
  afterAll(async () => {
    clients?.destroy();
    await endpoint?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test(`init, apply, empty plan, apply of a change, destroy (hashicorp/aws from ${'mirror' in toolchain ? toolchain.mirror : ''})`, async () => {
    const checks = new Checks(`Terraform (${tc.terraform}) with hashicorp/aws ${tc.awsVersion}`);
    const terraform = terraformRunner(tc.terraform, tc.mirror, dir);
    const configure = (changed: boolean) =>
      writeConfiguration(
        dir,
        labConfiguration({ endpoint: endpoint.url, awsVersion: tc.awsVersion, changed }),
      );
    const succeeds = async (args: string[]) => {
      const run = await terraform(args);
      check(run.code === 0, `terraform ${args[0]} exited ${run.code}:\n${runProblem(run)}`);
      return run;
    };
    const timings: string[] = [];
    const timed = async (label: string, args: string[]) => {
      const run = await succeeds(args);
      timings.push(`${label} ${(run.ms / 1000).toFixed(0)} s`);
    };
    const noChanges = async (label: string) => {
      // -detailed-exitcode: 0 no changes, 2 changes, 1 error.
      const run = await terraform(['plan', '-detailed-exitcode']);
      timings.push(`${label} ${(run.ms / 1000).toFixed(0)} s`);
      check(
        run.code === 0,
        `plan exited ${run.code} (${run.code === 2 ? 'changes' : 'error'}):\n${runProblem(run)}`,
      );
    };
    const state = () => stateAddresses(readFileSync(join(dir, 'terraform.tfstate'), 'utf8')).sort();

    configure(false);
    await checks.step('terraform init (the mirrored provider)', () =>
      timed('init', ['init', '-backend=false']),
    );
    await checks.step('terraform apply', () => timed('apply', ['apply', '-auto-approve']));
    await checks.step('the state holds every resource', () => {
      check(JSON.stringify(state()) === JSON.stringify(RESOURCES), `state ${JSON.stringify(state())}`);
    });
    await readBack(checks, clients, 'after apply', SETTINGS.initial);
    await checks.step('terraform plan -detailed-exitcode: no changes after the apply', () =>
      noChanges('plan'),
    );

    configure(true);
    await checks.step('terraform apply of a change (every resource type but the lifecycle)', () =>
      timed('apply of the change', ['apply', '-auto-approve']),
    );
    await readBack(checks, clients, 'after the change', SETTINGS.changed);
    await checks.step('terraform plan -detailed-exitcode: no changes after the change', () =>
      noChanges('plan after the change'),
    );

    await checks.step('terraform destroy', () => timed('destroy', ['destroy', '-auto-approve']));
    await checks.step('the state is empty', () =>
      check(state().length === 0, `state ${JSON.stringify(state())}`),
    );
    await checks.step('the endpoint holds none of it after destroy', () => nothingLeft(clients));

    console.log(`${checks.summary()}\n  ${timings.join(', ')}`);
    expect(checks.failed.map((f) => `${f.name}: ${f.detail}`)).toEqual([]);
  }, 900_000);
});

function sdkClients(url: string) {
  const config = {
    endpoint: url,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  };
  const c = {
    s3tables: new S3TablesClient(config),
    athena: new AthenaClient(config),
    glue: new GlueClient(config),
    cloudwatch: new CloudWatchClient(config),
    s3: new S3Client({ ...config, forcePathStyle: true }),
    firehose: new FirehoseClient(config),
  };
  return { ...c, destroy: () => Object.values(c).forEach((client) => client.destroy()) };
}

const tableBucketArn = `arn:aws:s3tables:us-east-1:${ACCOUNT}:bucket/${NAMES.tableBucket}`;

/** Each resource as the endpoint holds it, with the settings of `s` (the initial or the changed configuration). */
async function readBack(
  checks: Checks,
  c: ReturnType<typeof sdkClients>,
  when: string,
  s: (typeof SETTINGS)['initial'],
) {
  await checks.step(`S3 Tables ${when}: bucket maintenance, table maintenance, both policies`, async () => {
    const bucket = await c.s3tables.send(
      new GetTableBucketMaintenanceConfigurationCommand({ tableBucketARN: tableBucketArn }),
    );
    const removal =
      bucket.configuration?.icebergUnreferencedFileRemoval?.settings?.icebergUnreferencedFileRemoval;
    check(removal?.unreferencedDays === s.unreferencedDays, `unreferencedDays ${removal?.unreferencedDays}`);
    const table = { tableBucketARN: tableBucketArn, namespace: NAMES.namespace, name: NAMES.table };
    const maintenance = await c.s3tables.send(new GetTableMaintenanceConfigurationCommand(table));
    const snapshots =
      maintenance.configuration?.icebergSnapshotManagement?.settings?.icebergSnapshotManagement;
    check(
      snapshots?.maxSnapshotAgeHours === s.maxSnapshotAgeHours,
      `maxSnapshotAgeHours ${snapshots?.maxSnapshotAgeHours}`,
    );
    const bucketPolicy = await c.s3tables.send(
      new GetTableBucketPolicyCommand({ tableBucketARN: tableBucketArn }),
    );
    check(
      bucketPolicy.resourcePolicy?.includes('AccountReadsTables'),
      `bucket policy ${bucketPolicy.resourcePolicy}`,
    );
    const tablePolicy = await c.s3tables.send(new GetTablePolicyCommand(table));
    check(
      tablePolicy.resourcePolicy?.includes('FirehoseWrites'),
      `table policy ${tablePolicy.resourcePolicy}`,
    );
  });
  await checks.step(`Athena ${when}: the workgroup's cutoff, engine version and tags`, async () => {
    const { WorkGroup } = await c.athena.send(new GetWorkGroupCommand({ WorkGroup: NAMES.workgroup }));
    const config = WorkGroup?.Configuration;
    check(config?.BytesScannedCutoffPerQuery === s.cutoff, `cutoff ${config?.BytesScannedCutoffPerQuery}`);
    check(
      config?.EngineVersion?.SelectedEngineVersion === 'Athena engine version 3',
      JSON.stringify(config?.EngineVersion),
    );
    const { Tags } = await c.athena.send(
      new AthenaTags({ ResourceARN: `arn:aws:athena:us-east-1:${ACCOUNT}:workgroup/${NAMES.workgroup}` }),
    );
    checkTags(Tags, s.owner);
  });
  await checks.step(`Glue ${when}: the database's description and tags`, async () => {
    const { Database } = await c.glue.send(new GetDatabaseCommand({ Name: NAMES.database }));
    check(Database?.Description === s.databaseDescription, `description ${Database?.Description}`);
    const { Tags } = await c.glue.send(
      new GetTagsCommand({ ResourceArn: `arn:aws:glue:us-east-1:${ACCOUNT}:database/${NAMES.database}` }),
    );
    checkTags(
      Object.entries(Tags ?? {}).map(([Key, Value]) => ({ Key, Value })),
      s.owner,
    );
  });
  await checks.step(`CloudWatch ${when}: the alarm's threshold and tags`, async () => {
    const { MetricAlarms } = await c.cloudwatch.send(
      new DescribeAlarmsCommand({ AlarmNames: [NAMES.alarm] }),
    );
    check(MetricAlarms?.[0]?.Threshold === s.threshold, `threshold ${MetricAlarms?.[0]?.Threshold}`);
    const { Tags } = await c.cloudwatch.send(
      new AlarmTags({ ResourceARN: `arn:aws:cloudwatch:us-east-1:${ACCOUNT}:alarm:${NAMES.alarm}` }),
    );
    checkTags(Tags, s.owner);
  });
  await checks.step(
    `S3 ${when}: the bucket as private-bucket.ts configures it, and its versioning`,
    async () => {
      const Bucket = NAMES.errorBucket;
      const block = await c.s3.send(new GetPublicAccessBlockCommand({ Bucket }));
      check(
        Object.values(block.PublicAccessBlockConfiguration ?? {}).filter((v) => v === true).length === 4,
        JSON.stringify(block.PublicAccessBlockConfiguration),
      );
      const { Policy } = await c.s3.send(new GetBucketPolicyCommand({ Bucket }));
      check(Policy?.includes('DenyInsecureTransport'), `policy ${Policy}`);
      const lifecycle = await c.s3.send(new GetBucketLifecycleConfigurationCommand({ Bucket }));
      check(lifecycle.Rules?.[0]?.Expiration?.Days === 14, JSON.stringify(lifecycle.Rules));
      const versioning = await c.s3.send(new GetBucketVersioningCommand({ Bucket }));
      check(versioning.Status === s.versioning, `versioning ${versioning.Status}`);
    },
  );
  await checks.step(
    `Firehose ${when}: the stream's buffering, its error bucket's compression, tags`,
    async () => {
      const { DeliveryStreamDescription: d } = await c.firehose.send(
        new DescribeDeliveryStreamCommand({ DeliveryStreamName: NAMES.stream }),
      );
      const iceberg = d?.Destinations?.[0]?.IcebergDestinationDescription;
      check(
        iceberg?.BufferingHints?.IntervalInSeconds === s.bufferingInterval,
        JSON.stringify(iceberg?.BufferingHints),
      );
      check(
        iceberg?.S3DestinationDescription?.CompressionFormat === 'GZIP',
        JSON.stringify(iceberg?.S3DestinationDescription),
      );
      const { Tags } = await c.firehose.send(
        new ListTagsForDeliveryStreamCommand({ DeliveryStreamName: NAMES.stream }),
      );
      checkTags(Tags, s.owner);
    },
  );
}

/** The provider's default_tags and the resource's own, as the resource carries them. */
function checkTags(tags: { Key?: string; Value?: string }[] | undefined, owner: string | undefined) {
  const got = Object.fromEntries((tags ?? []).map((t) => [t.Key, t.Value]));
  const want = { lab: '01', project: 'loglake', unit: 'lab', ...(owner ? { owner } : {}) };
  check(
    JSON.stringify(
      Object.keys(got)
        .sort()
        .map((k) => [k, got[k]]),
    ) === JSON.stringify(Object.entries(want).sort()),
    `tags ${JSON.stringify(got)}`,
  );
}

async function nothingLeft(c: ReturnType<typeof sdkClients>) {
  const buckets = await c.s3tables.send(new ListTableBucketsCommand({}));
  check(!buckets.tableBuckets?.some((b) => b.name === NAMES.tableBucket), 'the table bucket is still there');
  const tables = await c.s3tables
    .send(new ListTablesCommand({ tableBucketARN: tableBucketArn }))
    .catch(() => undefined);
  check(!tables?.tables?.length, 'tables are still there');
  const workgroup = await c.athena
    .send(new GetWorkGroupCommand({ WorkGroup: NAMES.workgroup }))
    .catch(() => undefined);
  check(!workgroup, 'the workgroup is still there');
  const { DatabaseList } = await c.glue.send(new GetDatabasesCommand({}));
  check(!DatabaseList?.some((d) => d.Name === NAMES.database), 'the database is still there');
  const { MetricAlarms } = await c.cloudwatch.send(new DescribeAlarmsCommand({ AlarmNames: [NAMES.alarm] }));
  check(!MetricAlarms?.length, 'the alarm is still there');
  const { Buckets } = await c.s3.send(new ListBucketsCommand({}));
  check(!Buckets?.some((b) => b.Name === NAMES.errorBucket), 'the S3 bucket is still there');
  const { DeliveryStreamNames } = await c.firehose.send(new ListDeliveryStreamsCommand({}));
  check(!DeliveryStreamNames?.includes(NAMES.stream), 'the stream is still there');
}
