// Acting as another role: STS AssumeRole with the lab's own credentials (the standard chain on AWS, the deployer's
// on the local endpoint), then the lab's SDK clients signed with that role's session credentials.
import { AthenaClient } from '@aws-sdk/client-athena';
import { FirehoseClient } from '@aws-sdk/client-firehose';
import { S3Client } from '@aws-sdk/client-s3';
import { S3TablesClient } from '@aws-sdk/client-s3tables';
import { AssumeRoleCommand, STSClient } from '@aws-sdk/client-sts';
import { localClientConfig, type LocalClientCredentials } from '@loglake/local-aws';
import { TargetNotReadyError } from '../errors';
import type { LabTarget } from './lab-target';

export interface RoleSession {
  /** The session's ARN as AWS reports it (`arn:aws:sts::<account>:assumed-role/<role>/<session>`). */
  readonly arn: string;
  readonly athena: AthenaClient;
  readonly firehose: FirehoseClient;
  readonly s3: S3Client;
  readonly s3tables: S3TablesClient;
  close(): void;
}

/** An STS client of the target, with the lab's own credentials. */
export function stsClient(target: Pick<LabTarget, 'localUrl' | 'resources'>): STSClient {
  const region = target.resources.region;
  return new STSClient(target.localUrl ? localClientConfig(target.localUrl, 1, region) : { region });
}

/** Credentials the SDK can sign with: a role's session, assumed again when it nears its expiration. */
export type CredentialsProvider = () => Promise<{
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
  expiration?: Date;
}>;

/**
 * `roleArn`'s session credentials as a provider: each call is one STS AssumeRole with the lab's own credentials;
 * the SDK keeps what it returns until shortly before its expiration, then calls again (a lab run on AWS may outlast
 * a one-hour session).
 */
export function assumedRoleCredentials(
  target: Pick<LabTarget, 'localUrl' | 'resources'>,
  roleArn: string,
  sessionName: string,
): CredentialsProvider {
  return async () => {
    const sts = stsClient(target);
    try {
      const out = await sts.send(new AssumeRoleCommand({ RoleArn: roleArn, RoleSessionName: sessionName }));
      const c = out.Credentials;
      if (!c?.AccessKeyId || !c.SecretAccessKey || !c.SessionToken)
        throw new TargetNotReadyError(`AssumeRole of ${roleArn} returned no credentials.`, {
          value: roleArn,
        });
      return {
        accessKeyId: c.AccessKeyId,
        secretAccessKey: c.SecretAccessKey,
        sessionToken: c.SessionToken,
        ...(c.Expiration ? { expiration: c.Expiration } : {}),
      };
    } finally {
      sts.destroy();
    }
  };
}

/** Assumes `roleArn` (its trust policy must name the lab's principal) and returns clients signed as the session. */
export async function assumeRoleSession(
  target: Pick<LabTarget, 'localUrl' | 'resources'>,
  roleArn: string,
  sessionName: string,
  sts?: STSClient,
): Promise<RoleSession> {
  const client = sts ?? stsClient(target);
  const out = await client
    .send(new AssumeRoleCommand({ RoleArn: roleArn, RoleSessionName: sessionName }))
    .finally(() => {
      // A client made here is done with (its keep-alive sockets would hold the process).
      if (!sts) client.destroy();
    });
  const c = out.Credentials;
  if (!c?.AccessKeyId || !c.SecretAccessKey || !c.SessionToken)
    throw new TargetNotReadyError(`AssumeRole of ${roleArn} returned no credentials.`, { value: roleArn });
  const credentials: LocalClientCredentials = {
    accessKeyId: c.AccessKeyId,
    secretAccessKey: c.SecretAccessKey,
    sessionToken: c.SessionToken,
  };
  const region = target.resources.region;
  const config = target.localUrl
    ? localClientConfig(target.localUrl, 1, region, credentials)
    : { region, credentials };
  const clients = {
    athena: new AthenaClient(config),
    firehose: new FirehoseClient(config),
    s3: new S3Client({ ...config, ...(target.localUrl ? { forcePathStyle: true } : {}) }),
    s3tables: new S3TablesClient(config),
  };
  return {
    arn: out.AssumedRoleUser?.Arn ?? roleArn,
    ...clients,
    close: () => Object.values(clients).forEach((client) => client.destroy()),
  };
}
