import { describe, test, expect } from '@jest/globals';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CreateDeliveryStreamCommand, FirehoseClient, PutRecordBatchCommand } from '@aws-sdk/client-firehose';
import { AssumeRoleCommand, GetCallerIdentityCommand, STSClient } from '@aws-sdk/client-sts';
import { localClientConfig } from '@loglake/local-aws';

const CLI = fileURLToPath(new URL('../cli.ts', import.meta.url));

function runLocal(args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, 'local', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const ready = async (): Promise<string> => {
    const deadline = Date.now() + 90_000;
    while (!stdout.includes('\n')) {
      if (Date.now() > deadline || child.exitCode !== null)
        throw new Error(`no ready line; stderr: ${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return stdout;
  };
  return { child, ready, exited, output: () => ({ stdout, stderr }) };
}

describe('pnpm lab local', () => {
  test('prints exactly the ready line, serves on loopback, and SIGTERM stops it cleanly with state kept', async () => {
    // Prepare
    const dir = mkdtempSync(join(tmpdir(), 'lab-local-'));
    const run = runLocal(['--port', '0', '--data', dir, '--fault-record-failures', '0.1']);
    try {
      // Act
      const line = await run.ready();
      const url = /^loglake local endpoint ready on (http:\/\/127\.0\.0\.1:\d+) — authorization OFF: /.exec(
        line,
      )?.[1];
      const health = (await (await fetch(`${url}/_local/health`)).json()) as Record<string, unknown>;
      run.child.kill('SIGTERM');
      const code = await run.exited;

      // Assess
      expect(url).toBeDefined();
      // The start line says authorization is off and what that means.
      expect(line).toContain(
        'any request is served, whatever key signs it or none, as if by an administrator',
      );
      expect(line.trim().split('\n')).toHaveLength(1);
      // The health answer names no path.
      expect(health).toMatchObject({ ok: true, authorization: false });
      expect(JSON.stringify(health)).not.toContain(dir);
      expect(run.output().stderr).toContain('fault injection ON: records failed inside PutRecordBatch: 10%');
      expect(run.output().stderr).toContain('loglake local endpoint stopped.');
      expect(run.output().stdout).toBe(line);
      expect(code).toBe(0);
      expect(existsSync(join(dir, 'warehouse'))).toBe(true);
    } finally {
      if (run.child.exitCode === null) run.child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('--authorize enforces the synthesized stacks: the local key is the deployer, the analyst is refused a write', async () => {
    // Prepare
    const dir = mkdtempSync(join(tmpdir(), 'lab-local-authz-'));
    const run = runLocal(['--port', '0', '--data', dir, '--authorize']);
    try {
      const url = /ready on (http:\/\/127\.0\.0\.1:\d+)/.exec(await run.ready())?.[1] as string;
      const sts = new STSClient(localClientConfig(url));
      // Act
      const me = await sts.send(new GetCallerIdentityCommand({}));
      const analyst = await sts.send(
        new AssumeRoleCommand({
          RoleArn: 'arn:aws:iam::123456789012:role/loglake-01-analyst',
          RoleSessionName: 'cli',
        }),
      );
      const c = analyst.Credentials;
      const firehose = new FirehoseClient(
        localClientConfig(url, 1, 'us-east-1', {
          accessKeyId: c?.AccessKeyId as string,
          secretAccessKey: c?.SecretAccessKey as string,
          sessionToken: c?.SessionToken as string,
        }),
      );
      const refused = await firehose
        .send(
          new PutRecordBatchCommand({
            DeliveryStreamName: 'loglake-01-vpc-flow-logs',
            Records: [{ Data: Buffer.from('x') }],
          }),
        )
        .then(
          () => 'allowed',
          (error: { name: string }) => error.name,
        );
      sts.destroy();
      firehose.destroy();
      run.child.kill('SIGTERM');
      await run.exited;

      // Assess
      expect(me.Arn).toBe('arn:aws:sts::123456789012:assumed-role/loglake-deployer/lab');
      expect(refused).toBe('AccessDeniedException');
      expect(run.output().stderr).toMatch(/authorization: on — the synthesized stacks' policies and grants/);
    } finally {
      if (run.child.exitCode === null) run.child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a second endpoint on a held data folder is refused, naming the holder and the fix; the first keeps it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lab-local-held-'));
    const first = runLocal(['--port', '0', '--data', dir]);
    try {
      const url = /(http:\/\/127\.0\.0\.1:(\d+))/.exec(await first.ready());
      const second = runLocal(['--port', '0', '--data', dir]);
      const code = await second.exited;
      expect(code).toBe(1);
      const stderr = second.output().stderr;
      expect(stderr).toContain(`The data folder ${dir} is in use by the loglake local endpoint started`);
      expect(stderr).toContain(`pid ${first.child.pid}`);
      expect(stderr).toContain(`port ${url?.[2]}`);
      expect(stderr).toMatch(/Stop that endpoint first .* or use another folder \(--data-dir <dir>\)/);
      expect(second.output().stdout).toBe('');
      // The first still serves, and still holds the folder.
      expect((await fetch(`${url?.[1]}/_local/health`)).status).toBe(200);
      expect(JSON.parse(readFileSync(join(dir, 'endpoint.lock'), 'utf8'))).toMatchObject({
        pid: first.child.pid,
      });
    } finally {
      if (first.child.exitCode === null) first.child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a bad flag value is refused with a message naming it', async () => {
    const run = runLocal(['--port', '70000']);
    const code = await run.exited;
    expect(code).toBe(1);
    expect(run.output().stderr).toContain('--port 70000 is not a whole number between 0 and 65535');
  });

  test('killed with SIGKILL, it starts again on the same data and says what it replays from the log', async () => {
    // Prepare: a stream (no table behind it: the replayed records go to the error output) and one acknowledged call
    const dir = mkdtempSync(join(tmpdir(), 'lab-local-kill-'));
    const first = runLocal(['--port', '0', '--data', dir, '--buffer-interval', '900']);
    const second = { current: undefined as ReturnType<typeof runLocal> | undefined };
    try {
      const url = /(http:\/\/127\.0\.0\.1:\d+)/.exec(await first.ready())?.[1] as string;
      const firehose = new FirehoseClient(localClientConfig(url));
      await firehose.send(
        new CreateDeliveryStreamCommand({
          DeliveryStreamName: 'kill-me',
          IcebergDestinationConfiguration: {
            RoleARN: 'arn:aws:iam::123456789012:role/r',
            CatalogConfiguration: {
              CatalogARN: 'arn:aws:glue:us-east-1:123456789012:catalog/s3tablescatalog/b',
            },
            DestinationTableConfigurationList: [{ DestinationDatabaseName: 'n', DestinationTableName: 't' }],
            S3Configuration: {
              RoleARN: 'arn:aws:iam::123456789012:role/r',
              BucketARN: 'arn:aws:s3:::errors',
            },
          },
        }),
      );
      await firehose.send(
        new PutRecordBatchCommand({
          DeliveryStreamName: 'kill-me',
          Records: [{ Data: Buffer.from('{"a":1}') }, { Data: Buffer.from('{"a":2}') }],
        }),
      );
      firehose.destroy();

      // Act
      first.child.kill('SIGKILL');
      await first.exited;
      second.current = runLocal(['--port', '0', '--data', dir]);
      await second.current.ready();

      // Assess: the lock the killed process left was stale and was taken over.
      expect(second.current.output().stderr).toContain(
        'Firehose kill-me: replaying 2 records accepted before the last stop and not yet delivered (1 buffers)',
      );
      expect(JSON.parse(readFileSync(join(dir, 'endpoint.lock'), 'utf8'))).toMatchObject({
        pid: second.current.child.pid,
      });
    } finally {
      for (const run of [first, second.current])
        if (run && run.child.exitCode === null) run.child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
