// On --target aws the lab's SQL is signed as the lab role (STS AssumeRole with the standard chain's credentials, the
// AWS SDK mocked only to pin the request and feed the session); the target's own Athena client stays the lab's.
import { afterEach, describe, expect, test } from '@jest/globals';
import { AssumeRoleCommand, STSClient } from '@aws-sdk/client-sts';
import { mockClient } from 'aws-sdk-client-mock';
import { buildTarget } from './lab-target';
import type { LabResources } from './resources';
import { assumedRoleCredentials } from './role-session';

const sts = mockClient(STSClient);
const LAB_ROLE = 'arn:aws:iam::123456789012:role/loglake-01-lab';
const resources = {
  region: 'us-east-1',
  workgroup: 'loglake-01',
  tableBucketName: 'loglake-01-flow-logs',
  namespace: 'network',
  bytesScannedCutoff: 1024 ** 3,
  roles: { lab: LAB_ROLE },
} as unknown as LabResources;

afterEach(() => {
  sts.reset();
  delete process.env.AWS_ACCESS_KEY_ID;
  delete process.env.AWS_SECRET_ACCESS_KEY;
});

describe("the lab's SQL as the lab role", () => {
  test("athenaTarget signs with the assumed session; the target's own client with the lab's credentials", async () => {
    process.env.AWS_ACCESS_KEY_ID = 'AKIAEXAMPLEDEPLOYER1';
    process.env.AWS_SECRET_ACCESS_KEY = 'deployer-secret';
    sts.on(AssumeRoleCommand).resolves({
      Credentials: {
        AccessKeyId: 'ASIAEXAMPLELABROLE01',
        SecretAccessKey: 's',
        SessionToken: 't',
        Expiration: new Date(Date.now() + 3600_000),
      },
    });
    const target = buildTarget(
      'aws',
      resources,
      {
        region: 'us-east-1',
        sql: {
          roleArn: LAB_ROLE,
          credentials: assumedRoleCredentials({ resources }, LAB_ROLE, 'loglake-lab'),
        },
      },
      [],
      async () => {},
    );
    const sql = await target.athenaTarget().client.config.credentials();
    const own = await target.athena.config.credentials();
    await target.close();
    expect(sql.accessKeyId).toBe('ASIAEXAMPLELABROLE01');
    expect(own.accessKeyId).toBe('AKIAEXAMPLEDEPLOYER1');
    expect(target.sqlRole).toBe(LAB_ROLE);
    expect(sts.commandCalls(AssumeRoleCommand).map((c) => c.args[0].input)).toEqual([
      { RoleArn: LAB_ROLE, RoleSessionName: 'loglake-lab' },
    ]);
  });

  test("without a lab role the SQL uses the lab's own client", async () => {
    const target = buildTarget('aws', resources, { region: 'us-east-1' }, [], async () => {});
    expect(target.athenaTarget().client).toBe(target.athena);
    expect(target.sqlRole).toBeUndefined();
    await target.close();
  });
});
