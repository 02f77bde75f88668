// A lab user's session with the AWS CLI against the local endpoint: the calls the README and the articles make —
// caller identity, S3 Tables bucket, namespaces and tables (one without a schema), Glue's view of them, a Firehose
// stream to Iceberg with records, an Athena workgroup and query with its results, CloudWatch metrics and an alarm,
// an S3 bucket with a multipart upload and its configurations, tags on each — with the CLI's own pagination
// (`--max-items`, `--starting-token`), `--query` and `--output table`, and the services the endpoint does not serve,
// which must answer quickly naming the service. Each step is one check (checks.ts).
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LOCAL_ACCOUNT_ID } from '../../src/arn';
import { check, Checks, NotApplicable } from './checks';
import type { AwsCli } from './toolchains';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  ms: number;
}

/** Runs the CLI against the endpoint with a clean configuration of its own (no profile, no pager). */
export function cliRunner(cli: AwsCli, endpoint: string, work: string) {
  writeFileSync(join(work, 'config'), '');
  writeFileSync(join(work, 'credentials'), '');
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    LANG: 'C.UTF-8',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_DEFAULT_REGION: 'us-east-1',
    AWS_CONFIG_FILE: join(work, 'config'),
    AWS_SHARED_CREDENTIALS_FILE: join(work, 'credentials'),
    AWS_PAGER: '',
    AWS_EC2_METADATA_DISABLED: 'true',
  };
  return (args: string[]): Promise<CliRun> =>
    new Promise((resolve) => {
      const started = Date.now();
      execFile(
        cli.path,
        ['--endpoint-url', endpoint, ...args],
        { env, cwd: work, timeout: 120_000, maxBuffer: 64 * 1024 * 1024 },
        (error, stdout, stderr) => {
          const code = error ? (typeof error.code === 'number' ? error.code : 255) : 0;
          resolve({ code, stdout, stderr, ms: Date.now() - started });
        },
      );
    });
}

const ARN = (service: string, resource: string) =>
  `arn:aws:${service}:us-east-1:${LOCAL_ACCOUNT_ID}:${resource}`;

/**
 * What an older CLI release cannot make (no `s3tables` commands; no Iceberg destination for Firehose), made another
 * way (the AWS SDK) so the steps after it still run.
 */
export interface SessionSetup {
  /** The table bucket, its namespaces and the flow table; the bucket's ARN. */
  tableBucket(bucket: string, namespaces: string[]): Promise<string>;
  /** CreateDeliveryStream with this input (the CLI's --cli-input-json). */
  deliveryStream(input: Record<string, unknown>): Promise<void>;
}

/** The session, for one CLI; `tag` keeps its resources apart from another CLI's on the same endpoint. */
export async function awsCliSession(
  cli: AwsCli,
  endpoint: string,
  work: string,
  tag: string,
  setup: SessionSetup,
): Promise<Checks> {
  const checks = new Checks(`AWS CLI ${cli.version.replace('aws-cli/', '')} (${cli.path})`);
  const aws = cliRunner(cli, endpoint, work);
  /** A call that must succeed; its JSON output (or text, with --output text/table). */
  const ok = async (args: string[]): Promise<string> => {
    const r = await aws(args);
    // An older release without the command: the step does not apply to it.
    if (r.code !== 0 && /Invalid choice|Unknown options|Unknown parameter in input/.test(r.stderr))
      throw new NotApplicable(`this CLI release does not have it (${r.stderr.trim().split('\n').at(-1)})`);
    check(r.code === 0, `aws ${args.join(' ')} exited ${r.code}: ${r.stderr.trim() || r.stdout.trim()}`);
    return r.stdout;
  };
  const json = async <T = Record<string, unknown>>(args: string[]): Promise<T> =>
    JSON.parse((await ok([...args, '--output', 'json'])) || '{}') as T;
  const text = async (args: string[]) => (await ok([...args, '--output', 'text'])).trim();
  const binary = cli.major === 2 ? ['--cli-binary-format', 'raw-in-base64-out'] : [];

  const bucketName = `cli-${tag}-lab`;
  let bucketArn = '';
  const account = LOCAL_ACCOUNT_ID;

  await checks.step('sts get-caller-identity --query Account', async () => {
    const got = await text(['sts', 'get-caller-identity', '--query', 'Account']);
    check(got === account, `Account ${got}, expected ${account}`);
  });

  const namespaces = ['flows', 'ref', 'snapshots'];
  let viaCli = true;
  await checks.step('s3tables create-table-bucket', async () => {
    try {
      const out = await json<{ arn: string }>(['s3tables', 'create-table-bucket', '--name', bucketName]);
      check(out.arn?.endsWith(`:bucket/${bucketName}`), `arn ${out.arn}`);
      bucketArn = out.arn;
    } catch (error) {
      if (!(error instanceof NotApplicable)) throw error;
      viaCli = false;
      bucketArn = await setup.tableBucket(bucketName, namespaces);
      throw error;
    }
  });
  const cliOnly = () => {
    if (!viaCli)
      throw new NotApplicable('this CLI release has no s3tables commands (made with the AWS SDK instead)');
    if (!bucketArn) throw new NotApplicable('no table bucket');
  };
  await checks.step('s3tables create-namespace (three)', async () => {
    cliOnly();
    for (const ns of namespaces)
      await ok(['s3tables', 'create-namespace', '--table-bucket-arn', bucketArn, '--namespace', ns]);
  });
  await checks.step('s3tables list-namespaces --max-items 2, then --starting-token', async () => {
    cliOnly();
    type Page = { namespaces: { namespace: string[] }[]; NextToken?: string };
    const first = await json<Page>([
      's3tables',
      'list-namespaces',
      '--table-bucket-arn',
      bucketArn,
      '--max-items',
      '2',
    ]);
    check(first.namespaces.length === 2 && first.NextToken, `first page ${JSON.stringify(first)}`);
    const rest = await json<Page>([
      's3tables',
      'list-namespaces',
      '--table-bucket-arn',
      bucketArn,
      '--max-items',
      '2',
      '--starting-token',
      first.NextToken as string,
    ]);
    const all = [...first.namespaces, ...rest.namespaces].map((n) => n.namespace[0]).sort();
    check(
      JSON.stringify(all) === JSON.stringify([...namespaces].sort()) && !rest.NextToken,
      `pages ${JSON.stringify(all)}`,
    );
  });
  const schema = join(work, 'schema.json');
  writeFileSync(
    schema,
    JSON.stringify({
      iceberg: {
        schema: {
          fields: [
            { name: 'srcaddr', type: 'string' },
            { name: 'bytes', type: 'long' },
          ],
        },
      },
    }),
  );
  await checks.step('s3tables create-table --metadata file://…', async () => {
    cliOnly();
    const out = await json<{ tableARN: string }>([
      's3tables',
      'create-table',
      '--table-bucket-arn',
      bucketArn,
      '--namespace',
      'flows',
      '--name',
      'vpc_flow_logs',
      '--format',
      'ICEBERG',
      '--metadata',
      `file://${schema}`,
    ]);
    check(out.tableARN?.includes(`bucket/${bucketName}/table/`), `tableARN ${out.tableARN}`);
  });
  await checks.step('s3tables create-table without a schema (the first writer sets it)', async () => {
    cliOnly();
    await ok([
      's3tables',
      'create-table',
      '--table-bucket-arn',
      bucketArn,
      '--namespace',
      'ref',
      '--name',
      'later',
      '--format',
      'ICEBERG',
    ]);
  });
  await checks.step('s3tables get-table --query: modifiedAt not before createdAt', async () => {
    cliOnly();
    const [created, modified] = await json<string[]>([
      's3tables',
      'get-table',
      '--table-bucket-arn',
      bucketArn,
      '--namespace',
      'flows',
      '--name',
      'vpc_flow_logs',
      '--query',
      '[createdAt, modifiedAt]',
    ]);
    check(
      Date.parse(String(modified)) >= Date.parse(String(created)),
      `createdAt ${created}, modifiedAt ${modified}`,
    );
  });
  await checks.step('s3tables list-tables --output table', async () => {
    cliOnly();
    const table = await ok(['s3tables', 'list-tables', '--table-bucket-arn', bucketArn, '--output', 'table']);
    check(table.includes('vpc_flow_logs') && table.includes('later') && /[|+-]{3}/.test(table), table);
  });

  await checks.step(
    'glue get-databases --catalog-id <account>:s3tablescatalog/<bucket>, paged by --max-items',
    async () => {
      if (!bucketArn) throw new NotApplicable('no table bucket');
      const catalog = ['--catalog-id', `${account}:s3tablescatalog/${bucketName}`];
      type Page = { DatabaseList: { Name: string }[]; NextToken?: string };
      const first = await json<Page>(['glue', 'get-databases', ...catalog, '--max-items', '2']);
      check(first.DatabaseList.length === 2 && first.NextToken, `first page ${JSON.stringify(first)}`);
      const rest = await json<Page>([
        'glue',
        'get-databases',
        ...catalog,
        '--starting-token',
        first.NextToken as string,
      ]);
      const all = [...first.DatabaseList, ...rest.DatabaseList].map((d) => d.Name).sort();
      check(
        JSON.stringify(all) === JSON.stringify([...namespaces].sort()),
        `databases ${JSON.stringify(all)}`,
      );
    },
  );
  await checks.step('glue get-tables --catalog-id …: the table and its columns', async () => {
    if (!bucketArn) throw new NotApplicable('no table bucket');
    const columns = await json<string[]>([
      'glue',
      'get-tables',
      '--catalog-id',
      `${account}:s3tablescatalog/${bucketName}`,
      '--database-name',
      'flows',
      '--query',
      "TableList[?Name=='vpc_flow_logs'].StorageDescriptor.Columns[].Name",
    ]);
    check(
      JSON.stringify(columns) === JSON.stringify(['srcaddr', 'bytes']),
      `columns ${JSON.stringify(columns)}`,
    );
  });
  const database = `cli_${tag}_snapshots`;
  await checks.step('glue create-database --tags, get-tags', async () => {
    await ok([
      'glue',
      'create-database',
      '--database-input',
      `Name=${database},Description=snapshots`,
      '--tags',
      'lab=cli',
    ]);
    const tags = await json<{ Tags: Record<string, string> }>([
      'glue',
      'get-tags',
      '--resource-arn',
      ARN('glue', `database/${database}`),
    ]);
    check(tags.Tags?.lab === 'cli', `tags ${JSON.stringify(tags)}`);
  });

  const stream = `cli-${tag}-flows`;
  const streamInput = join(work, 'stream.json');
  const streamDefinition = {
    DeliveryStreamName: stream,
    DeliveryStreamType: 'DirectPut',
    IcebergDestinationConfiguration: {
      RoleARN: ARN('iam', 'role/firehose').replace(':us-east-1:', '::'),
      CatalogConfiguration: { CatalogARN: ARN('glue', `catalog/s3tablescatalog/${bucketName}`) },
      DestinationTableConfigurationList: [
        { DestinationDatabaseName: 'flows', DestinationTableName: 'vpc_flow_logs' },
      ],
      BufferingHints: { SizeInMBs: 1, IntervalInSeconds: 60 },
      S3Configuration: {
        RoleARN: ARN('iam', 'role/firehose').replace(':us-east-1:', '::'),
        BucketARN: `arn:aws:s3:::cli-${tag}-errors`,
        BufferingHints: { SizeInMBs: 5, IntervalInSeconds: 300 },
        CompressionFormat: 'GZIP',
      },
    },
    Tags: [{ Key: 'lab', Value: 'cli' }],
  };
  writeFileSync(streamInput, JSON.stringify(streamDefinition));
  await checks.step('firehose create-delivery-stream --cli-input-json (Iceberg, tags)', async () => {
    try {
      await ok(['firehose', 'create-delivery-stream', '--cli-input-json', `file://${streamInput}`]);
    } catch (error) {
      if (error instanceof NotApplicable) await setup.deliveryStream(streamDefinition);
      throw error;
    }
  });
  await checks.step('firehose describe-delivery-stream: the settings given, error bucket apart', async () => {
    const d = await json<Record<string, unknown>>([
      'firehose',
      'describe-delivery-stream',
      '--delivery-stream-name',
      stream,
      '--query',
      'DeliveryStreamDescription.Destinations[0].IcebergDestinationDescription.{hints: BufferingHints, s3hints: S3DestinationDescription.BufferingHints, compression: S3DestinationDescription.CompressionFormat}',
    ]);
    // A release whose Firehose model predates Iceberg destinations drops the description it does not know.
    if (d === null)
      throw new NotApplicable("this CLI release's Firehose model has no IcebergDestinationDescription");
    const want = {
      hints: { SizeInMBs: 1, IntervalInSeconds: 60 },
      s3hints: { SizeInMBs: 5, IntervalInSeconds: 300 },
      compression: 'GZIP',
    };
    check(JSON.stringify(d) === JSON.stringify(want), `described ${JSON.stringify(d)}`);
  });
  await checks.step('firehose list-tags-for-delivery-stream', async () => {
    const tags = await json<{ Tags: { Key: string; Value: string }[] }>([
      'firehose',
      'list-tags-for-delivery-stream',
      '--delivery-stream-name',
      stream,
    ]);
    check(
      tags.Tags?.some((t) => t.Key === 'lab' && t.Value === 'cli'),
      `tags ${JSON.stringify(tags)}`,
    );
  });
  await checks.step('firehose put-record and put-record-batch', async () => {
    const one = await json<{ RecordId: string }>([
      'firehose',
      'put-record',
      '--delivery-stream-name',
      stream,
      ...binary,
      '--record',
      JSON.stringify({ Data: JSON.stringify({ srcaddr: '10.0.0.1', bytes: 42 }) }),
    ]);
    check(one.RecordId, `put-record ${JSON.stringify(one)}`);
    const batch = await json<{ FailedPutCount: number }>([
      'firehose',
      'put-record-batch',
      '--delivery-stream-name',
      stream,
      ...binary,
      '--records',
      JSON.stringify([1, 2, 3].map((i) => ({ Data: JSON.stringify({ srcaddr: `10.0.0.${i}`, bytes: i }) }))),
    ]);
    check(batch.FailedPutCount === 0, `put-record-batch ${JSON.stringify(batch)}`);
  });

  const workgroup = `cli-${tag}`;
  await checks.step('athena create-work-group (engine version 3, tags), get-work-group --query', async () => {
    await ok([
      'athena',
      'create-work-group',
      '--name',
      workgroup,
      '--configuration',
      `ResultConfiguration={OutputLocation=s3://cli-${tag}-results/},EngineVersion={SelectedEngineVersion="Athena engine version 3"}`,
      '--tags',
      'Key=lab,Value=cli',
    ]);
    const selected = await text([
      'athena',
      'get-work-group',
      '--work-group',
      workgroup,
      '--query',
      'WorkGroup.Configuration.EngineVersion.SelectedEngineVersion',
    ]);
    check(selected === 'Athena engine version 3', `SelectedEngineVersion ${selected}`);
  });
  await checks.step('athena list-work-groups --output table', async () => {
    const table = await ok(['athena', 'list-work-groups', '--output', 'table']);
    check(table.includes(workgroup) && table.includes('primary'), table);
  });
  await checks.step('athena list-tags-for-resource', async () => {
    const tags = await json<{ Tags: { Key: string; Value: string }[] }>([
      'athena',
      'list-tags-for-resource',
      '--resource-arn',
      ARN('athena', `workgroup/${workgroup}`),
    ]);
    check(
      tags.Tags?.some((t) => t.Key === 'lab' && t.Value === 'cli'),
      `tags ${JSON.stringify(tags)}`,
    );
  });
  await checks.step(
    'athena start-query-execution, get-query-results --max-items 2 / --starting-token',
    async () => {
      const id = await text([
        'athena',
        'start-query-execution',
        '--work-group',
        workgroup,
        '--query-string',
        'SELECT x FROM (VALUES 1, 2, 3) AS t(x) ORDER BY x',
        '--query',
        'QueryExecutionId',
      ]);
      let state = '';
      for (let i = 0; i < 120 && !['SUCCEEDED', 'FAILED', 'CANCELLED'].includes(state); i++) {
        state = await text([
          'athena',
          'get-query-execution',
          '--query-execution-id',
          id,
          '--query',
          'QueryExecution.Status.State',
        ]);
        if (state !== 'SUCCEEDED') await new Promise((r) => setTimeout(r, 250));
      }
      check(state === 'SUCCEEDED', `query ${id} ended ${state}`);
      type Page = { ResultSet: { Rows: { Data: { VarCharValue?: string }[] }[] }; NextToken?: string };
      const first = await json<Page>([
        'athena',
        'get-query-results',
        '--query-execution-id',
        id,
        '--max-items',
        '2',
      ]);
      check(first.NextToken, `no NextToken after 2 of 4 rows: ${JSON.stringify(first)}`);
      const rest = await json<Page>([
        'athena',
        'get-query-results',
        '--query-execution-id',
        id,
        '--starting-token',
        first.NextToken as string,
      ]);
      const values = [...first.ResultSet.Rows, ...rest.ResultSet.Rows].map((r) => r.Data[0]?.VarCharValue);
      check(
        JSON.stringify(values) === JSON.stringify(['x', '1', '2', '3']),
        `rows ${JSON.stringify(values)}`,
      );
    },
  );

  const namespace = `Lab/CLI-${tag}`;
  await checks.step('cloudwatch put-metric-data, list-metrics --max-items 1 / --starting-token', async () => {
    for (const metric of ['Records', 'Bytes'])
      await ok([
        'cloudwatch',
        'put-metric-data',
        '--namespace',
        namespace,
        '--metric-name',
        metric,
        '--value',
        '5',
        '--unit',
        'Count',
      ]);
    type Page = { Metrics: { MetricName: string }[]; NextToken?: string };
    const first = await json<Page>([
      'cloudwatch',
      'list-metrics',
      '--namespace',
      namespace,
      '--max-items',
      '1',
    ]);
    check(first.Metrics.length === 1 && first.NextToken, `first page ${JSON.stringify(first)}`);
    const rest = await json<Page>([
      'cloudwatch',
      'list-metrics',
      '--namespace',
      namespace,
      '--starting-token',
      first.NextToken as string,
    ]);
    const names = [...first.Metrics, ...rest.Metrics].map((m) => m.MetricName).sort();
    check(JSON.stringify(names) === JSON.stringify(['Bytes', 'Records']), `metrics ${JSON.stringify(names)}`);
  });
  await checks.step('cloudwatch get-metric-statistics', async () => {
    const now = Date.now();
    const sum = await text([
      'cloudwatch',
      'get-metric-statistics',
      '--namespace',
      namespace,
      '--metric-name',
      'Records',
      '--start-time',
      new Date(now - 3_600_000).toISOString(),
      '--end-time',
      new Date(now + 60_000).toISOString(),
      '--period',
      '3600',
      '--statistics',
      'Sum',
      '--query',
      'sum(Datapoints[].Sum)',
    ]);
    check(Number(sum) === 5, `Sum ${sum}`);
  });
  const alarm = `cli-${tag}-records`;
  await checks.step('cloudwatch put-metric-alarm --tags, describe-alarms --output table', async () => {
    await ok([
      'cloudwatch',
      'put-metric-alarm',
      '--alarm-name',
      alarm,
      '--namespace',
      namespace,
      '--metric-name',
      'Records',
      '--statistic',
      'Sum',
      '--period',
      '60',
      '--evaluation-periods',
      '1',
      '--threshold',
      '100',
      '--comparison-operator',
      'GreaterThanThreshold',
      '--dimensions',
      'Name=Stream,Value=flows',
      '--tags',
      'Key=lab,Value=cli',
    ]);
    const table = await ok(['cloudwatch', 'describe-alarms', '--alarm-names', alarm, '--output', 'table']);
    check(table.includes(alarm) && table.includes('INSUFFICIENT_DATA') && table.includes('flows'), table);
  });
  await checks.step('cloudwatch list-tags-for-resource', async () => {
    const tags = await json<{ Tags: { Key: string; Value: string }[] }>([
      'cloudwatch',
      'list-tags-for-resource',
      '--resource-arn',
      ARN('cloudwatch', `alarm:${alarm}`),
    ]);
    check(
      tags.Tags?.some((t) => t.Key === 'lab' && t.Value === 'cli'),
      `tags ${JSON.stringify(tags)}`,
    );
  });
  await checks.step('cloudwatch delete-alarms', async () => {
    await ok(['cloudwatch', 'delete-alarms', '--alarm-names', alarm]);
    const left = await json<unknown[]>([
      'cloudwatch',
      'describe-alarms',
      '--alarm-names',
      alarm,
      '--query',
      'MetricAlarms',
    ]);
    check(Array.isArray(left) && left.length === 0, `alarms left ${JSON.stringify(left)}`);
  });

  const files = `cli-${tag}-files`;
  await checks.step('s3 mb; list-buckets --query: CreationDate real, Owner present', async () => {
    await ok(['s3', 'mb', `s3://${files}`]);
    const out = await json<{ date: string; owner: string }>([
      's3api',
      'list-buckets',
      '--query',
      `{date: Buckets[?Name=='${files}'] | [0].CreationDate, owner: Owner.ID}`,
    ]);
    check(Math.abs(Date.parse(out.date) - Date.now()) < 600_000, `CreationDate ${out.date}`);
    check(typeof out.owner === 'string' && out.owner.length > 0, `Owner.ID ${out.owner}`);
  });
  await checks.step('s3api head-bucket (the bucket region)', async () => {
    const out = await ok(['s3api', 'head-bucket', '--bucket', files]);
    // Releases whose model has HeadBucket's output (botocore 1.35 on, so the v1 CLI here) print the
    // x-amz-bucket-region header; older ones print nothing.
    if (out.trim() !== '' || cli.major === 1)
      check(
        JSON.parse(out || '{}').BucketRegion === 'us-east-1',
        `head-bucket printed ${JSON.stringify(out)}`,
      );
  });
  const big = join(work, 'big.bin');
  writeFileSync(big, randomBytes(9 * 1024 * 1024 + 123));
  const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
  await checks.step('s3 cp of 9 MiB (a multipart upload), head-object, cp back', async () => {
    await ok(['s3', 'cp', big, `s3://${files}/data/big.bin`]);
    const length = await text([
      's3api',
      'head-object',
      '--bucket',
      files,
      '--key',
      'data/big.bin',
      '--query',
      'ContentLength',
    ]);
    check(Number(length) === 9 * 1024 * 1024 + 123, `ContentLength ${length}`);
    await ok(['s3', 'cp', `s3://${files}/data/big.bin`, join(work, 'back.bin')]);
    check(sha(join(work, 'back.bin')) === sha(big), 'the downloaded object differs from the uploaded file');
  });
  await checks.step('s3 ls', async () => {
    const out = await ok(['s3', 'ls', `s3://${files}/data/`]);
    check(out.includes('big.bin'), out);
  });
  await checks.step('s3api put-bucket-versioning, get-bucket-versioning', async () => {
    await ok([
      's3api',
      'put-bucket-versioning',
      '--bucket',
      files,
      '--versioning-configuration',
      'Status=Enabled',
    ]);
    const status = await text(['s3api', 'get-bucket-versioning', '--bucket', files, '--query', 'Status']);
    check(status === 'Enabled', `Status ${status}`);
  });
  await checks.step('s3api get-bucket-policy of a bucket without one: NoSuchBucketPolicy', async () => {
    const r = await aws(['s3api', 'get-bucket-policy', '--bucket', files]);
    check(r.code !== 0 && r.stderr.includes('NoSuchBucketPolicy'), `exit ${r.code}: ${r.stderr || r.stdout}`);
  });
  await checks.step('s3api get-public-access-block (every new bucket blocks public access)', async () => {
    const block = await json<Record<string, boolean>>([
      's3api',
      'get-public-access-block',
      '--bucket',
      files,
      '--query',
      'PublicAccessBlockConfiguration',
    ]);
    check(
      Object.values(block).length === 4 && Object.values(block).every((v) => v === true),
      JSON.stringify(block),
    );
  });
  await checks.step('s3 rm --recursive, s3 rb', async () => {
    await ok(['s3', 'rm', `s3://${files}`, '--recursive']);
    await ok(['s3', 'rb', `s3://${files}`]);
  });

  for (const [service, args, name] of [
    ['iam', ['iam', 'list-roles'], 'IAM'],
    ['sns', ['sns', 'list-topics'], 'SNS'],
    ['lambda', ['lambda', 'list-functions'], 'Lambda'],
    ['states', ['stepfunctions', 'list-state-machines'], 'Step Functions'],
    ['scheduler', ['scheduler', 'list-schedules'], 'Scheduler'],
    ['lakeformation', ['lakeformation', 'list-permissions'], 'Lake Formation'],
  ] as const) {
    await checks.step(`${args.join(' ')}: a quick error naming ${name}, not served locally`, async () => {
      const r = await aws([...args]);
      if (/Invalid choice/.test(r.stderr))
        throw new NotApplicable(`this CLI release has no ${service} commands`);
      check(r.code !== 0, `exit 0: ${r.stdout}`);
      check(
        r.stderr.includes(name) && r.stderr.includes('not served by the local endpoint'),
        r.stderr.trim(),
      );
      check(r.ms < 20_000, `took ${r.ms} ms (retried?)`);
    });
  }
  return checks;
}
