// One SDK v3 client per service, built once, standard credential chain; AWS_ENDPOINT_URL points them elsewhere.
import { AthenaClient } from '@aws-sdk/client-athena';
import { CloudWatchClient } from '@aws-sdk/client-cloudwatch';
import { CloudWatchLogsClient } from '@aws-sdk/client-cloudwatch-logs';
import { FirehoseClient } from '@aws-sdk/client-firehose';
import { GlueClient } from '@aws-sdk/client-glue';
import { IAMClient } from '@aws-sdk/client-iam';
import { LakeFormationClient } from '@aws-sdk/client-lakeformation';
import { LambdaClient } from '@aws-sdk/client-lambda';
import { S3Client } from '@aws-sdk/client-s3';
import { S3TablesClient } from '@aws-sdk/client-s3tables';
import { SchedulerClient } from '@aws-sdk/client-scheduler';
import { SFNClient } from '@aws-sdk/client-sfn';
import { SNSClient } from '@aws-sdk/client-sns';

export interface TeardownClients {
  readonly s3tables: S3TablesClient;
  readonly firehose: FirehoseClient;
  readonly glue: GlueClient;
  readonly athena: AthenaClient;
  readonly iam: IAMClient;
  readonly lakeformation: LakeFormationClient;
  readonly s3: S3Client;
  readonly logs: CloudWatchLogsClient;
  readonly sns: SNSClient;
  readonly lambda: LambdaClient;
  readonly sfn: SFNClient;
  readonly scheduler: SchedulerClient;
  readonly cloudwatch: CloudWatchClient;
}

export function createClients(region: string): TeardownClients {
  const config = { region, maxAttempts: 5 };
  return {
    s3tables: new S3TablesClient(config),
    firehose: new FirehoseClient(config),
    glue: new GlueClient(config),
    athena: new AthenaClient(config),
    iam: new IAMClient(config),
    lakeformation: new LakeFormationClient(config),
    s3: new S3Client(config),
    logs: new CloudWatchLogsClient(config),
    sns: new SNSClient(config),
    lambda: new LambdaClient(config),
    sfn: new SFNClient(config),
    scheduler: new SchedulerClient(config),
    cloudwatch: new CloudWatchClient(config),
  };
}
