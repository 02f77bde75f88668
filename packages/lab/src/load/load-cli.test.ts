// `pnpm load` and `pnpm query` as a user runs them (child processes): the wait is visible and stops at once on
// Ctrl-C, --no-wait does not wait, the last line says what happened; a data folder removed or read-only is named;
// a query prints one line of preamble and fits $COLUMNS.
import { describe, test, expect } from '@jest/globals';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cleanEnv, filesIn, run, STACK_LINE, start, widest } from '../../test/support/cli';

const scratch = () => mkdtempSync(join(tmpdir(), 'load-cli-'));

describe('waiting for delivery', () => {
  test('Ctrl-C stops the wait at once, and the last line says what is still buffered', async () => {
    const dir = scratch();
    try {
      const load = start('load', [
        '--count',
        '30',
        '--buffer-interval',
        '60',
        '--data-dir',
        join(dir, 'lake'),
      ]);
      await load.waitFor(
        "waiting for Firehose to deliver 30 buffered records: the buffer's interval ends in",
      );
      const sent = Date.now();
      load.child.kill('SIGINT');
      const r = await load.done;
      // The old wait sat out the rest of the 60 s interval.
      expect(Date.now() - sent).toBeLessThan(15_000);
      expect(r.status).toBe(1);
      expect(r.stdout).toMatch(
        /interrupted: 30 records are still in Firehose's buffer, and the endpoint delivers them now, as it stops/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('--no-wait does not wait out the interval, and says so', async () => {
    const dir = scratch();
    try {
      const r = await run('load', [
        '--count',
        '30',
        '--buffer-interval',
        '60',
        '--no-wait',
        '--data-dir',
        join(dir, 'lake'),
      ]);
      expect(r.status).toBe(0);
      expect(r.ms).toBeLessThan(40_000);
      expect(r.stderr).not.toContain('waiting for Firehose');
      expect(r.stdout).toMatch(/not waited for \(--no-wait\): 30 records are still in Firehose's buffer/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('the running endpoint killed during the wait: said, with what became of the records, no fetch error', async () => {
    const dir = scratch();
    const local = start('lab', [
      'local',
      '--port',
      '0',
      '--buffer-interval',
      '60',
      '--data-dir',
      join(dir, 'lake'),
    ]);
    try {
      await local.waitFor('ready on');
      const url = /ready on (http:\/\/127\.0\.0\.1:\d+)/.exec(local.output().stdout)?.[1] as string;
      const load = start('load', ['--count', '20', '--endpoint-url', url]);
      await load.waitFor('waiting for Firehose to deliver 20 buffered records');
      expect(load.output().stderr.split('\n')[0]).toMatch(/Firehose buffer 60 s \(the running endpoint's/);
      local.child.kill('SIGKILL');
      const r = await load.done;
      expect(r.status).toBe(1);
      expect(r.stderr).toMatch(
        /EndpointGoneError: The local endpoint at http:\/\/127\.0\.0\.1:\d+ stopped answering .*the next start replays them/,
      );
      expect(r.stderr).not.toMatch(/TypeError: fetch failed/);
    } finally {
      if (local.child.exitCode === null) local.child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('bad records: the last line says how many failed and where they went', async () => {
    const dir = scratch();
    try {
      const r = await run('load', ['--count', '0', '--bad', '3', '--data-dir', join(dir, 'lake')]);
      expect(r.status).toBe(0);
      expect(r.stdout).toMatch(
        /done: 0 records delivered to network\.vpc_flow_logs in 0 commits; 3 failed delivery and went to the error bucket, s3:\/\/loglake-01-firehose-errors-123456789012\/errors\//,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a data folder that goes wrong is named, with the fix', () => {
  test('removed while a load waits: the wait stops and says the folder is gone', async () => {
    const dir = scratch();
    const lake = join(dir, 'lake');
    try {
      const load = start('load', ['--count', '30', '--buffer-interval', '30', '--data-dir', lake]);
      await load.waitFor('waiting for Firehose');
      rmSync(lake, { recursive: true, force: true });
      const r = await load.done;
      expect(r.status).toBe(1);
      expect(r.stderr).toContain(`DataFolderError: --data-dir ${lake} was removed while the command ran`);
      expect(r.stderr).not.toMatch(STACK_LINE);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a copied lake: load, lab local and query refuse the copy, naming the original, and the original is not written', async () => {
    const dir = scratch();
    const original = join(dir, 'original');
    const copy = join(dir, 'copy');
    try {
      expect(
        (await run('load', ['--count', '20', '--buffer-interval', '0', '--data-dir', original])).status,
      ).toBe(0);
      cpSync(original, copy, { recursive: true });
      const before = filesIn(original);
      // One at a time: each takes the copy's lock while it starts.
      const load = await run('load', ['--count', '1000', '--buffer-interval', '0', '--data-dir', copy]);
      // A server that does start on the copy (the old code did) is stopped once ready, so the test fails, not hangs.
      const serving = start('lab', ['local', '--port', '0', '--data-dir', copy]);
      serving.waitFor('ready on').then(
        () => serving.child.kill('SIGKILL'),
        () => undefined,
      );
      const local = await serving.done;
      const query = await run('query', ['network/count_rows', '--data-dir', copy]);
      for (const r of [load, local, query]) {
        expect(r.status).toBe(1);
        expect(r.stderr).toContain(
          `DataFolderError: --data-dir ${copy} was copied or moved from ${original}: its table ` +
            `loglake-01-flow-logs/network.vpc_flow_logs still lives at file://${original}/warehouse/`,
        );
        expect(r.stderr).toContain(
          `Use the original (--data-dir ${original}), or give an empty folder with --data-dir <dir>`,
        );
        expect(r.stderr).not.toMatch(STACK_LINE);
        expect(r.stdout).not.toContain('ready on');
      }
      // Before the fix the load into the copy committed its 1,000 records to the original's table.
      expect(filesIn(original)).toEqual(before);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  const asRoot = process.getuid?.() === 0;
  // Root writes anywhere, so read-only is tried as an unprivileged user (nobody), which only root can switch to.
  (asRoot ? test : test.skip)(
    'read-only: lab local never says "ready", and query and load name the folder (run as nobody)',
    async () => {
      const dir = scratch();
      const lake = join(dir, 'lake');
      mkdirSync(lake);
      chmodSync(dir, 0o755);
      chmodSync(lake, 0o555);
      const env = cleanEnv({ HOME: dir });
      const nobody = { env, uid: 65534, gid: 65534 };
      try {
        const [local, query] = await Promise.all([
          run('lab', ['local', '--port', '0', '--data-dir', lake], nobody),
          run('query', ['network/count_rows', '--data-dir', lake], nobody),
        ]);
        for (const r of [local, query]) {
          expect(r.status).toBe(1);
          expect(r.stderr).toContain(
            `DataFolderError: --data-dir ${lake} cannot be written (EACCES: permission denied)`,
          );
          expect(r.stdout).not.toContain('ready on');
          expect(r.stderr).not.toMatch(/ENOENT|InternalServerException/);
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});

describe('pnpm query', () => {
  test('one line of preamble (no clocks, no buffer), and results that fit $COLUMNS', async () => {
    const dir = scratch();
    try {
      const r = await run('query', ['network/snapshots', '--data-dir', join(dir, 'lake')], {
        env: cleanEnv({ COLUMNS: '80' }),
      });
      expect(r.status).toBe(0);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(/^target local: in-process endpoint \(no AWS account\), data in /);
      expect(r.stderr).not.toMatch(/clock|Firehose buffer/);
      expect(widest(r.stdout)).toBeLessThanOrEqual(80);
      expect(r.stdout).toMatch(/committed_at/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
