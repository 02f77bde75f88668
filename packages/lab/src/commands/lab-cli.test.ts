// `pnpm lab` as a user meets it, each command a child process: nothing is deleted by accident, the summary never
// says more than the run showed, `lab run` keeps the whole lab's report and refuses rows later steps changed, state
// files are named when they cannot be used, and the output fits $COLUMNS.
import { describe, test, expect } from '@jest/globals';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXPERIMENT_NAMES } from '../experiments/table-effects';
import { DEPLOYED_OUTPUTS } from '../../test/support/deployed-outputs';
import { cleanEnv, filesIn, ROOT, run, STACK_LINE, start, widest } from '../../test/support/cli';
import { LAKE_MANIFEST, lakeDataFiles, readManifest } from '../target/local-lake';

const SAME = 'Every figure the article gives';

describe('a lake the lab wrote, then a load: nothing is lost by accident', () => {
  test('the only row fails: the summary says so; a typo and the whole lab refuse to touch the loaded lake; reset says what it removes', async () => {
    const out = mkdtempSync(join(tmpdir(), 'lab-cli-'));
    const lake = join(out, 'local');
    const where = ['--data-dir', lake, '--out-dir', out];
    const wholeReport = join(out, 'report-local.json');
    writeFileSync(wholeReport, '{"the whole lab": true}\n');
    try {
      // A new lake and the only row fails (time-travel needs the load's snapshot), in an 80-column terminal.
      const only = await run('lab', ['run', 'time-travel', ...where], { env: cleanEnv({ COLUMNS: '80' }) });
      // 2: the run finished and wrote its report, and a row failed.
      expect(only.status).toBe(2);
      expect(only.stdout).not.toContain(SAME);
      expect(only.stdout).toMatch(
        /Rows that failed \(nothing they were to show was measured\):\n- Time travel/,
      );
      expect(only.stdout).toContain('No figure of the article was compared in this run (1 row failed).');
      expect(widest(only.stdout)).toBeLessThanOrEqual(80);
      const partial = JSON.parse(readFileSync(join(out, 'report-local-run.json'), 'utf8'));
      expect(partial.partial).toEqual({ experiments: ['time-travel'] });
      expect(partial.summary).toMatchObject({ rows: 1, failed: 1, same: 0, skipped: 0 });
      expect(readFileSync(wholeReport, 'utf8')).toBe('{"the whole lab": true}\n');
      expect(readManifest(lake)?.inProgress).toBeUndefined();

      // Something else writes: a load, with the lab's short buffer, its wait visible in a pipe, a closing line.
      const load = await run('load', ['--count', '20', '--data-dir', lake]);
      expect(load.status).toBe(0);
      expect(load.stderr.split('\n')[0]).toMatch(
        /Firehose buffer 2 s \(as `pnpm lab`; --buffer-interval unit waits the unit's 60 s\)/,
      );
      expect(load.stderr).toMatch(
        /waiting for Firehose to deliver 20 buffered records: the buffer's interval ends in \d s \(waited 0 s\)/,
      );
      expect(load.stdout).toMatch(/done: 20 records delivered to network\.vpc_flow_logs in 1 commits\.\n$/);
      const files = lakeDataFiles(lake);

      // A typo: refused before anything is touched.
      const typo = await run('lab', ['--buffer-interval', 'xyz', ...where]);
      expect(typo.status).toBe(1);
      expect(typo.stderr).toContain('--buffer-interval xyz is not 0–900 seconds');
      expect(lakeDataFiles(lake)).toEqual(files);

      // The whole lab: refused, naming the data and the flag.
      const whole = await run('lab', where);
      expect(whole.status).toBe(1);
      expect(whole.stderr).toMatch(
        /LakeHasForeignDataError: .*local holds files the lab did not write: data: network\.vpc_flow_logs \(\d+ files, [^)]*\).* \(written since the last lab/,
      );
      expect(whole.stderr).toMatch(/`pnpm lab --discard-data`/);
      expect(whole.stderr).not.toMatch(STACK_LINE);
      expect(lakeDataFiles(lake)).toEqual(files);

      // reset: refuses the loaded lake without --discard-data; with it, says what it removes, removes the lake and
      // the state, keeps the reports.
      const refused = await run('lab', ['reset', ...where]);
      expect(refused.status).toBe(1);
      expect(refused.stderr).toMatch(
        /holds files the lab did not write: data: network\.vpc_flow_logs .*--discard-data/,
      );
      expect(lakeDataFiles(lake)).toEqual(files);
      const reset = await run('lab', ['reset', '--discard-data', ...where]);
      expect(reset.status).toBe(0);
      expect(reset.stdout).toMatch(
        /Removing the local lake .*local \(\d+ files, .*; including files the lab did not write, as --discard-data asks: data: network\.vpc_flow_logs \(\d+ files/,
      );
      expect(reset.stdout).toMatch(/Removing .*state-local\.json \(the lab's state for that lake\)/);
      expect([existsSync(lake), existsSync(join(out, 'state-local.json')), existsSync(wholeReport)]).toEqual([
        false,
        false,
        true,
      ]);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  test("the whole lab says it empties the lab's own lake first; Ctrl-C stops it at once and the lake stays the lab's", async () => {
    const out = mkdtempSync(join(tmpdir(), 'lab-cli-'));
    const lake = join(out, 'local');
    const where = ['--data-dir', lake, '--out-dir', out];
    try {
      await run('lab', ['run', 'time-travel', ...where]);
      const lab = start('lab', [...where, '--records', '200', '--bursts', '1']);
      await lab.waitFor('▶ Load 200 records');
      expect(lab.output().stdout).toMatch(
        /The whole lab starts from an empty lake: emptying .*local first \(\d+ files, .*: \d+ data files, .*; all written by the last lab\)\./,
      );
      lab.child.kill('SIGINT');
      const stopped = await lab.done;
      expect(stopped.status).toBe(130);
      expect(stopped.stderr).toContain('Interrupted (Ctrl-C): stopping; no report is written');
      expect(existsSync(join(out, 'report-local.json'))).toBe(false);
      const manifest = readManifest(lake);
      expect(manifest?.inProgress).toBeUndefined();
      // What the interrupted lab wrote is the lab's: the next whole lab would empty it without refusing.
      expect(Object.keys(manifest?.files ?? {}).sort()).toEqual(
        [...filesIn(lake, [LAKE_MANIFEST]).keys()].sort(),
      );
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});

describe('the exit status and the report say only what the run showed', () => {
  test('a failed check exits 2; a failed row exits 2 and its error reaches the report without a machine path', async () => {
    const out = mkdtempSync(join(tmpdir(), 'lab-cli-'));
    const lake = join(out, 'local');
    const where = ['--data-dir', lake, '--out-dir', out];
    try {
      // One record: its Parquet file is larger than its JSON, so the lab's own check parquetSmallerThanJson fails.
      const check = await run('lab', ['run', 'load', '--records', '1', ...where]);
      expect(check.stdout).toMatch(/Verdict: .* 0 failed · 0 not run · 1 check failed/);
      expect(check.status).toBe(2);

      // The flow table's data files removed by hand: the DELETE's engine error quotes an absolute path in the lake.
      const data = [...filesIn(lake).keys()].filter((p) => /vpc_flow_logs-[^/]+\/data\/.*\.parquet$/.test(p));
      expect(data.length).toBeGreaterThan(0);
      for (const p of data) rmSync(join(lake, p));
      const failed = await run('lab', ['run', 'delete', ...where]);
      expect(failed.stdout).toMatch(/Verdict: .* 1 failed/);
      expect(failed.status).toBe(2);
      expect(failed.stdout).toContain(lake); // the terminal is this machine's: the path is there to act on
      const json = readFileSync(join(out, 'report-local-run.json'), 'utf8');
      const html = readFileSync(join(out, 'report-local-run.html'), 'utf8');
      const error = (JSON.parse(json) as { experiments: { error?: string }[] }).experiments[0]?.error;
      expect(error).toMatch(
        /No files found that match the pattern "…\/local\/warehouse\/warehouse\/.*\.parquet"/,
      );
      for (const text of [json, html]) {
        expect(text).not.toContain(out);
        expect(text).not.toContain(ROOT.replace(/\/$/, ''));
        expect(text).not.toContain(homedir());
      }
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('lab run continues a lake only when it can measure what the row measures', () => {
  /** A lake and a state as a whole lab leaves them (no data: the refusals come before anything runs). */
  function afterWholeLab(history: readonly string[]) {
    const out = mkdtempSync(join(tmpdir(), 'lab-cli-'));
    const lake = join(out, 'local');
    mkdirSync(lake);
    const lakeId = 'lake-after-a-whole-lab';
    writeFileSync(
      join(lake, LAKE_MANIFEST),
      JSON.stringify({ lakeId, writtenBy: 'pnpm lab', updatedAt: new Date().toISOString(), files: {} }),
    );
    writeFileSync(join(out, 'state-local.json'), JSON.stringify({ lakeId, history }));
    return { out, where: ['--data-dir', lake, '--out-dir', out] };
  }

  test('after a whole lab, one-hour is refused: the flow table got later bursts the enriched table never saw', async () => {
    const { out, where } = afterWholeLab(EXPERIMENT_NAMES);
    try {
      const r = await run('lab', ['run', 'one-hour', ...where]);
      expect(r.status).toBe(1);
      expect(r.stderr).toMatch(
        /Not run: one-hour — the flow table was changed since by bad-records, sort-order, tag-cleanup, daily-snapshot \(at or after one-hour in the lab's order\)/,
      );
      expect(existsSync(join(out, 'report-local-run.json'))).toBe(false);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  test('a state file cut off, or written for an earlier lake, is named with the fix, not a parser or engine error', async () => {
    const { out, where } = afterWholeLab(['load']);
    const state = join(out, 'state-local.json');
    try {
      writeFileSync(state, '{\n  "windowEnd": "2026-12-01T1');
      const cut = await run('lab', ['run', 'time-travel', ...where]);
      expect(cut.status).toBe(1);
      expect(cut.stderr).toMatch(
        /^StateFileError: .*state-local\.json is unreadable \(.*\): .*`pnpm lab reset`/m,
      );
      expect(cut.stderr).not.toMatch(/^SyntaxError/m);
      writeFileSync(
        state,
        JSON.stringify({ lakeId: 'an-earlier-lake', smokeSnapshotId: '4411619297815427' }),
      );
      const stale = await run('lab', ['run', 'time-travel', ...where]);
      expect(stale.status).toBe(1);
      expect(stale.stderr).toMatch(
        /StateFileError: .*state-local\.json belongs to an earlier lake \(an-earlier-lake\)/,
      );
      expect(stale.stderr).not.toMatch(/snapshot ID does not exist/);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});

describe('--target aws without credentials', () => {
  test('lab, load and query say how to give credentials (profile, SSO, environment), and no summary claims anything', async () => {
    const out = mkdtempSync(join(tmpdir(), 'lab-cli-aws-'));
    const outputs = join(out, 'outputs.json');
    writeFileSync(outputs, JSON.stringify(DEPLOYED_OUTPUTS));
    const aws = ['--target', 'aws', '--outputs-file', outputs];
    try {
      const [lab, load, query] = await Promise.all([
        run('lab', ['run', 'load', ...aws, '--out-dir', out]),
        run('load', ['--count', '1', ...aws]),
        run('query', ['network/count_rows', ...aws]),
      ]);
      for (const r of [lab, load, query]) {
        expect(r.status).toBe(1);
        expect(r.stderr).toMatch(
          /TargetNotReadyError: --target aws needs AWS credentials .*CredentialsProviderError/,
        );
        expect(r.stderr).toMatch(/AWS_PROFILE/);
        expect(r.stderr).toMatch(/aws sso login/);
        expect(r.stderr).toMatch(/AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY/);
        expect(r.stdout).not.toContain(SAME);
        expect(r.stderr).not.toMatch(STACK_LINE);
      }
      expect(load.stdout).not.toContain('commits these within its buffer interval');
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  test('a profile that names no credentials: lab, load, query, snapshot and plan all ask the SDK chain and say the same', async () => {
    const out = mkdtempSync(join(tmpdir(), 'lab-cli-aws-'));
    const outputs = join(out, 'outputs.json');
    writeFileSync(
      outputs,
      JSON.stringify({
        ...DEPLOYED_OUTPUTS,
        snapshots: {
          ...(DEPLOYED_OUTPUTS as Record<string, object>).snapshots,
          state_machine_arn: 'arn:aws:states:us-east-1:123456789012:stateMachine:loglake-01-daily-snapshot',
        },
      }),
    );
    const config = join(out, 'config');
    writeFileSync(config, '[profile sandbox]\nregion = us-east-1\n');
    // No Terraform by that name: plan stops at its preflight, which lists every problem, credentials among them.
    const env = cleanEnv({
      AWS_PROFILE: 'sandbox',
      AWS_CONFIG_FILE: config,
      TERRAFORM_BINARY_NAME: 'no-such-tf',
    });
    const aws = ['--target', 'aws', '--outputs-file', outputs];
    try {
      const [lab, load, query, snapshot, plan] = await Promise.all([
        run('lab', ['run', 'load', ...aws, '--out-dir', out], { env }),
        run('load', ['--count', '1', ...aws], { env }),
        run('query', ['network/count_rows', ...aws], { env }),
        run('lab', ['snapshot', ...aws], { env }),
        run('lab', ['plan'], { env }),
      ]);
      const said = /needs AWS credentials .*\(CredentialsProviderError: .*aws sso login/;
      for (const r of [lab, load, query, snapshot, plan]) {
        expect(r.status).toBe(1);
        expect(r.stderr).toMatch(said);
        expect(r.stderr).not.toMatch(STACK_LINE);
      }
      // The preflight used to look for the profile's name in the files, and let it through.
      expect(plan.stderr).toMatch(
        /pnpm lab plan did not start cdktf.*\n.*\n\s+2\. Terraform needs AWS credentials and the AWS SDK's default chain found none \(CredentialsProviderError/,
      );
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
