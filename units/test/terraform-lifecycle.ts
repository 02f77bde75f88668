// A Terraform lifecycle against the local endpoint, with the machine's Terraform and mirrored AWS provider: small
// configurations of the resource types the stacks use that the mirrored release knows, written as the stacks
// write them (stacks/table-bucket, stacks/firehose, stacks/lib/private-bucket.ts …), under a default provider block
// (no skip_* settings: the provider asks STS who it is) whose endpoints are the local one. `changed` is the same
// configuration with one setting of each resource changed, for the apply of a change.
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const ACCOUNT = '123456789012';
export const NAMES = {
  tableBucket: 'tf-lab-flows',
  namespace: 'network',
  table: 'vpc_flow_logs',
  workgroup: 'tf-lab-wg',
  database: 'tf_lab_snapshots',
  alarm: 'tf-lab-failed-rows',
  errorBucket: `tf-lab-errors-${ACCOUNT}`,
  stream: 'tf-lab-flows',
} as const;

/** The setting each resource changes between the two configurations (the test reads them back). */
export const SETTINGS = {
  initial: {
    unreferencedDays: 3,
    maxSnapshotAgeHours: 120,
    cutoff: 1_073_741_824,
    databaseDescription: 'Daily snapshots of the enriched flows',
    threshold: 0,
    versioning: 'Enabled',
    bufferingInterval: 60,
    owner: undefined as string | undefined,
  },
  changed: {
    unreferencedDays: 4,
    maxSnapshotAgeHours: 168,
    cutoff: 2_147_483_648,
    databaseDescription: 'Daily snapshots of the enriched flows, kept 30 days',
    threshold: 5,
    versioning: 'Suspended',
    bufferingInterval: 120,
    owner: 'data-eng',
  },
};

const policy = (statements: Record<string, unknown>[]) =>
  JSON.stringify({ Version: '2012-10-17', Statement: statements });

export function labConfiguration(options: {
  endpoint: string;
  awsVersion: string;
  changed: boolean;
}): Record<string, unknown> {
  const s = options.changed ? SETTINGS.changed : SETTINGS.initial;
  const e = options.endpoint;
  const role = `arn:aws:iam::${ACCOUNT}:role/tf-lab-firehose`;
  const bucketArn = '${aws_s3tables_table_bucket.tb.arn}';
  const tags = { unit: 'lab', ...(s.owner ? { owner: s.owner } : {}) };
  return {
    terraform: { required_providers: { aws: { source: 'hashicorp/aws', version: options.awsVersion } } },
    provider: {
      aws: {
        region: 'us-east-1',
        access_key: 'local',
        secret_key: 'local',
        s3_use_path_style: true,
        endpoints: [
          {
            s3tables: e,
            athena: e,
            firehose: e,
            cloudwatch: e,
            glue: e,
            s3: e,
            sts: e,
          },
        ],
        // The stacks' LabStack tags everything through the provider's default_tags.
        default_tags: [{ tags: { project: 'loglake', lab: '01' } }],
      },
    },
    data: { aws_caller_identity: { me: {} } },
    resource: {
      aws_s3tables_table_bucket: {
        tb: {
          name: NAMES.tableBucket,
          // Explicit: AWS reports SSE-S3 for a bucket created without it, which 5.x's provider takes for a change.
          encryption_configuration: { sse_algorithm: 'AES256', kms_key_arn: null },
          maintenance_configuration: {
            iceberg_unreferenced_file_removal: {
              status: 'enabled',
              settings: { unreferenced_days: s.unreferencedDays, non_current_days: 10 },
            },
          },
        },
      },
      aws_s3tables_namespace: { ns: { namespace: NAMES.namespace, table_bucket_arn: bucketArn } },
      aws_s3tables_table: {
        flows: {
          name: NAMES.table,
          namespace: '${aws_s3tables_namespace.ns.namespace}',
          table_bucket_arn: bucketArn,
          format: 'ICEBERG',
          maintenance_configuration: {
            iceberg_compaction: { status: 'enabled', settings: { target_file_size_mb: 512 } },
            iceberg_snapshot_management: {
              status: 'enabled',
              settings: { max_snapshot_age_hours: s.maxSnapshotAgeHours, min_snapshots_to_keep: 1 },
            },
          },
        },
      },
      aws_s3tables_table_bucket_policy: {
        tbp: {
          table_bucket_arn: bucketArn,
          resource_policy: policy([
            {
              Sid: 'AccountReadsTables',
              Effect: 'Allow',
              Principal: { AWS: `arn:aws:iam::\${data.aws_caller_identity.me.account_id}:root` },
              Action: options.changed
                ? ['s3tables:GetTable', 's3tables:GetTableMetadataLocation']
                : ['s3tables:GetTable'],
              Resource: `${bucketArn}/table/*`,
            },
          ]),
        },
      },
      aws_s3tables_table_policy: {
        tp: {
          name: '${aws_s3tables_table.flows.name}',
          namespace: '${aws_s3tables_namespace.ns.namespace}',
          table_bucket_arn: bucketArn,
          resource_policy: policy([
            {
              Sid: 'FirehoseWrites',
              Effect: 'Allow',
              Principal: { AWS: role },
              Action: ['s3tables:PutTableData', 's3tables:GetTableData'],
              Resource: '${aws_s3tables_table.flows.arn}',
            },
          ]),
        },
      },
      aws_athena_workgroup: {
        wg: {
          name: NAMES.workgroup,
          description: 'The lab workgroup',
          force_destroy: true,
          configuration: {
            enforce_workgroup_configuration: true,
            publish_cloudwatch_metrics_enabled: true,
            bytes_scanned_cutoff_per_query: s.cutoff,
            engine_version: { selected_engine_version: 'Athena engine version 3' },
            result_configuration: {
              output_location: `s3://tf-lab-results-\${data.aws_caller_identity.me.account_id}/athena/`,
              encryption_configuration: { encryption_option: 'SSE_S3' },
            },
          },
          tags,
        },
      },
      aws_glue_catalog_database: {
        db: { name: NAMES.database, description: s.databaseDescription, tags },
      },
      aws_cloudwatch_metric_alarm: {
        alarm: {
          alarm_name: NAMES.alarm,
          alarm_description: 'Rows Firehose could not deliver to the flow table',
          namespace: 'AWS/Firehose',
          metric_name: 'DeliveryToIceberg.FailedRowCount',
          dimensions: { DeliveryStreamName: NAMES.stream },
          statistic: 'Sum',
          period: 60,
          evaluation_periods: 1,
          threshold: s.threshold,
          comparison_operator: 'GreaterThanThreshold',
          treat_missing_data: 'notBreaching',
          alarm_actions: [`arn:aws:sns:us-east-1:\${data.aws_caller_identity.me.account_id}:tf-lab-alerts`],
          tags,
        },
      },
      // stacks/lib/private-bucket.ts: public access blocked, owner-enforced, SSE-S3, TLS-only, expiring objects.
      aws_s3_bucket: { errors: { bucket: NAMES.errorBucket, force_destroy: true, tags } },
      aws_s3_bucket_public_access_block: {
        errors: {
          bucket: '${aws_s3_bucket.errors.id}',
          block_public_acls: true,
          block_public_policy: true,
          ignore_public_acls: true,
          restrict_public_buckets: true,
        },
      },
      aws_s3_bucket_ownership_controls: {
        errors: { bucket: '${aws_s3_bucket.errors.id}', rule: { object_ownership: 'BucketOwnerEnforced' } },
      },
      aws_s3_bucket_server_side_encryption_configuration: {
        errors: {
          bucket: '${aws_s3_bucket.errors.id}',
          rule: [{ apply_server_side_encryption_by_default: { sse_algorithm: 'AES256' } }],
        },
      },
      aws_s3_bucket_policy: {
        errors: {
          bucket: '${aws_s3_bucket.errors.id}',
          policy: policy([
            {
              Sid: 'DenyInsecureTransport',
              Effect: 'Deny',
              Principal: { AWS: '*' },
              Action: ['s3:*'],
              Resource: ['${aws_s3_bucket.errors.arn}', '${aws_s3_bucket.errors.arn}/*'],
              Condition: { Bool: { 'aws:SecureTransport': 'false' } },
            },
          ]),
        },
      },
      aws_s3_bucket_lifecycle_configuration: {
        errors: {
          bucket: '${aws_s3_bucket.errors.id}',
          rule: [{ id: 'expire', status: 'Enabled', filter: [{}], expiration: [{ days: 14 }] }],
        },
      },
      aws_s3_bucket_versioning: {
        errors: { bucket: '${aws_s3_bucket.errors.id}', versioning_configuration: { status: s.versioning } },
      },
      aws_kinesis_firehose_delivery_stream: {
        stream: {
          name: NAMES.stream,
          destination: 'iceberg',
          iceberg_configuration: {
            role_arn: role,
            catalog_arn: `arn:aws:glue:us-east-1:\${data.aws_caller_identity.me.account_id}:catalog/s3tablescatalog/\${aws_s3tables_table_bucket.tb.name}`,
            buffering_size: 1,
            buffering_interval: s.bufferingInterval,
            retry_duration: 300,
            s3_backup_mode: 'FailedDataOnly',
            destination_table_configuration: [
              {
                database_name: '${aws_s3tables_namespace.ns.namespace}',
                table_name: '${aws_s3tables_table.flows.name}',
                s3_error_output_prefix: 'errors/',
              },
            ],
            s3_configuration: {
              role_arn: role,
              bucket_arn: '${aws_s3_bucket.errors.arn}',
              error_output_prefix: 'errors/',
              buffering_size: 5,
              buffering_interval: 300,
              compression_format: 'GZIP',
            },
            cloudwatch_logging_options: {
              enabled: true,
              log_group_name: `/aws/kinesisfirehose/${NAMES.stream}`,
              log_stream_name: 'DestinationDelivery',
            },
          },
          tags,
        },
      },
    },
  };
}

export interface TerraformRun {
  code: number;
  stdout: string;
  stderr: string;
  ms: number;
}

/** Terraform in `work`, offline: the provider from the filesystem mirror, no checkpoint, no input. */
export function terraformRunner(terraform: string, mirror: string, work: string) {
  const rc = join(work, 'terraform.rc');
  writeFileSync(
    rc,
    `provider_installation {\n  filesystem_mirror {\n    path    = ${JSON.stringify(mirror)}\n    include = ["registry.terraform.io/hashicorp/aws"]\n  }\n}\n`,
  );
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    TF_CLI_CONFIG_FILE: rc,
    TF_IN_AUTOMATION: '1',
    CHECKPOINT_DISABLE: '1',
    TF_PLUGIN_CACHE_DIR: '',
  };
  return (args: string[]): Promise<TerraformRun> =>
    new Promise((resolve) => {
      const started = Date.now();
      execFile(
        terraform,
        [...args, '-no-color', '-input=false'],
        { cwd: work, env, timeout: 600_000, maxBuffer: 64 * 1024 * 1024 },
        (error, stdout, stderr) => {
          const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
          resolve({ code, stdout, stderr, ms: Date.now() - started });
        },
      );
    });
}

/** What a run said went wrong, or which resources a plan would change, in a few lines. */
export function runProblem(run: TerraformRun): string {
  const planned = run.stdout
    .split('\n')
    .filter((l) => /^\s+# \S+ (will|must) be/.test(l) || /^\s+[~+-] \w/.test(l));
  const errors = `${run.stderr}\n${run.stdout}`
    .split('\n')
    .filter((l) => /Error|error/.test(l))
    .slice(0, 12);
  return [...planned.slice(0, 40), ...errors].join('\n').slice(0, 4000) || run.stdout.slice(-2000);
}

/** `terraform.tfstate`'s resources as `type.name`. */
export function stateAddresses(text: string): string[] {
  const state = JSON.parse(text) as { resources?: { mode: string; type: string; name: string }[] };
  return (state.resources ?? []).filter((r) => r.mode === 'managed').map((r) => `${r.type}.${r.name}`);
}

export function writeConfiguration(work: string, json: Record<string, unknown>): void {
  writeFileSync(join(work, 'main.tf.json'), JSON.stringify(json, null, 1));
}
