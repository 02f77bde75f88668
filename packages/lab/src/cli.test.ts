// Help and usage on every entry point, as a user types them: `--help` exits 0 and prints the help; a mistake is
// reported once, says what exists and the nearest name, never with a stack trace.
import { describe, test, expect } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run, STACK_LINE, type CliResult, type Entry } from '../test/support/cli';

/** Runs the commands two at a time (the machine has two cores). */
async function all(commands: [Entry, string[]][]): Promise<CliResult[]> {
  const results: CliResult[] = [];
  for (let i = 0; i < commands.length; i += 2)
    results.push(...(await Promise.all(commands.slice(i, i + 2).map(([e, a]) => run(e, a)))));
  return results;
}

const LAB_SUBCOMMANDS = [
  'run',
  'list',
  'reset',
  'order',
  'synth',
  'plan',
  'deploy',
  'destroy',
  'local',
  'snapshot',
];

describe('--help', () => {
  test('exits 0 on lab, load, query, bench and every lab subcommand, printing its usage', async () => {
    const commands: [Entry, string[]][] = [
      ['lab', ['--help']],
      ...LAB_SUBCOMMANDS.map((c): [Entry, string[]] => ['lab', [c, '--help']]),
      ['load', ['--help']],
      ['query', ['--help']],
      ['bench', ['--help']],
    ];
    const results = await all(commands);
    results.forEach((r, i) => {
      const [entry, args] = commands[i] as [Entry, string[]];
      const shown = `${entry} ${args.join(' ')}`;
      expect({ shown, status: r.status }).toEqual({ shown, status: 0 });
      expect(r.stdout).toMatch(/^Usage: /);
      expect(r.stderr).not.toMatch(/CommanderError|outputHelp/);
    });
    const byName = (entry: Entry, first: string) =>
      results[commands.findIndex(([e, a]) => e === entry && a[0] === first)] as CliResult;
    // The help says what the commands do now: reset's removals, the run's own report, load's wait, local's flag.
    expect(byName('lab', 'reset').stdout).toMatch(/state-local\.json/);
    expect(byName('lab', 'run').stdout).toMatch(/report-<target>-run/);
    expect(byName('lab', '--help').stdout).toMatch(/--discard-data/);
    expect(byName('load', '--help').stdout).toMatch(/--no-wait/);
    expect(byName('lab', 'local').stdout).toMatch(/--data-dir <dir>/);
    expect(byName('bench', '--help').stdout).toMatch(/synth +synth time/);
  });
});

describe('a mistake is reported once, with what exists and the nearest name', () => {
  test('unknown commands, options and names', async () => {
    const commands: [Entry, string[]][] = [
      ['lab', ['rn', 'one-hour']],
      ['lab', ['run', 'one-hr']],
      ['load', ['--bogus']],
      ['query', ['--bogus']],
      ['query', ['network/one_hr']],
      ['bench', ['synthh']],
      ['lab', ['--bufer-interval', '3']],
      ['query', ['mine/nothere.sql']],
    ];
    const [rn, oneHr, loadBogus, queryBogus, queryName, bench, flag, file] = await all(commands);
    for (const r of [rn, oneHr, loadBogus, queryBogus, queryName, bench, flag, file] as CliResult[]) {
      expect(r.status).toBe(1);
      expect(r.stderr).not.toMatch(STACK_LINE);
      expect(r.stderr).not.toContain('CommanderError');
    }
    expect(rn?.stderr).toMatch(
      /unknown command 'rn' \(did you mean run\?\)\. The commands are: run, list, reset/,
    );
    expect(oneHr?.stderr).toMatch(
      /No experiment named one-hr \(did you mean one-hour\?\)\. Valid names, in order: load,/,
    );
    // Once: commander's line, and a pointer to the help.
    expect(loadBogus?.stderr.match(/unknown option '--bogus'/g)).toHaveLength(1);
    expect(loadBogus?.stderr).toContain('pnpm load --help');
    expect(queryBogus?.stderr.match(/unknown option '--bogus'/g)).toHaveLength(1);
    expect(queryName?.stderr).toMatch(/No query named network\/one_hr \(did you mean network\/one_hour\?\)/);
    expect(bench?.stderr).toMatch(
      /No benchmark named synthh \(did you mean synth\?\)\. Choose from: synth, engine/,
    );
    expect(flag?.stderr).toMatch(/Did you mean --buffer-interval\?/);
    expect(file?.stderr).toMatch(/mine\/nothere\.sql: no such file/);
  });

  test('--demo with --date is refused, saying why, before anything starts', async () => {
    const r = await run('lab', ['snapshot', '--demo', '--date', '2026-11-28']);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/--demo builds its own days .* --date 2026-11-28 does not apply/);
  });

  test('lab local takes --data-dir like every other command (--data stays an alias); both differing is refused', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-alias-'));
    try {
      const r = await run('lab', [
        'local',
        '--data-dir',
        join(dir, 'a'),
        '--data',
        join(dir, 'b'),
        '--port',
        '0',
      ]);
      expect(r.status).toBe(1);
      expect(r.stderr).toContain('--data is --data-dir: give one of them.');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('lab order', () => {
  test('prints the deploy order and the destroy order its help promises', async () => {
    const r = await run('lab', ['order']);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/Deploy order \(producers first\):\n {2}1\. s3tables-integration/);
    expect(r.stdout).toMatch(/Destroy order \(dependents first.*\n {2}1\. snapshots/);
  });
});

describe('a data folder that is a file is named, with the fix, on every command that opens one', () => {
  test('lab local, lab run, load, query', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-file-'));
    const file = join(dir, 'not-a-folder');
    writeFileSync(file, 'mine');
    try {
      const results = await all([
        ['lab', ['local', '--port', '0', '--data-dir', file]],
        ['lab', ['run', 'time-travel', '--data-dir', file, '--out-dir', dir]],
        ['load', ['--count', '1', '--data-dir', file]],
        ['query', ['network/count_rows', '--data-dir', file]],
      ]);
      for (const r of results) {
        expect(r.status).toBe(1);
        expect(r.stderr).toContain(`DataFolderError: --data-dir ${file}: ${file} is a file, not a folder.`);
        expect(r.stderr).not.toMatch(/EEXIST|ready on/);
        expect(r.stdout).not.toMatch(/ready on/);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
