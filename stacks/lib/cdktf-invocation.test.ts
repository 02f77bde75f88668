import { describe, expect, test } from '@jest/globals';
import { synthCommand } from '../app';
import {
  cdktfCommandOf,
  invokingCdktfCommand,
  tfCommandForCdktf,
  type CdktfInvocation,
  type ProcessInfo,
} from './cdktf-invocation';

const CLI = '/repo/node_modules/.bin/../cdktf-cli/bundle/bin/cdktf';

describe('which cdktf command runs the app', () => {
  test.each([
    [['node', CLI, 'deploy', 'table-bucket'], 'deploy'],
    [['node', CLI, 'diff', 'firehose'], 'diff'],
    [['node', '/usr/lib/node_modules/npm/bin/npx-cli.js', 'cdktf', 'list'], 'list'],
    [['node', '/x/cdktf-cli/bundle/bin/cdktf.js', 'synth'], 'synth'],
    // An option before the command: found, but not guessed.
    [['node', CLI, '--log-level', 'debug', 'deploy'], ''],
    [['node', '/repo/node_modules/jest/bin/jest.js', 'stacks'], undefined],
    [['/bin/sh', '-c', 'node --import tsx units/main.ts'], undefined],
  ])('%j → %j', (argv, command) => {
    expect(cdktfCommandOf(argv)).toBe(command);
  });

  test('each cdktf command stands for the Terraform command it runs; others for none', () => {
    expect(['deploy', 'apply', 'watch'].map(tfCommandForCdktf)).toEqual(['apply', 'apply', 'apply']);
    expect(['diff', 'synth', 'list'].map(tfCommandForCdktf)).toEqual(['plan', 'plan', 'plan']);
    expect(tfCommandForCdktf('destroy')).toBe('destroy');
    expect(tfCommandForCdktf('output')).toBe('output');
    expect(['', 'get', 'toString', 'constructor'].map(tfCommandForCdktf)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  test('found up the process tree: app → sh -c → cdktf; stops at init or an unreadable process', () => {
    const table: Record<number, ProcessInfo> = {
      30: { ppid: 20, argv: ['node', '--import', 'tsx', 'units/main.ts'] },
      20: { ppid: 10, argv: ['/bin/sh', '-c', 'node --import tsx units/main.ts'] },
      10: { ppid: 1, argv: ['node', CLI, 'deploy', 'table-bucket'] },
    };
    expect(invokingCdktfCommand(30, (pid) => table[pid])).toEqual({ kind: 'cdktf', command: 'deploy' });
    // Read up to init, no cdktf: the app run directly.
    const direct: Record<number, ProcessInfo> = { 30: table[30]!, 20: { ...table[20]!, ppid: 1 } };
    expect(invokingCdktfCommand(30, (pid) => direct[pid])).toEqual({ kind: 'none' });
    // An ancestor that cannot be read is not "no cdktf": it may be cdktf deploy.
    expect(invokingCdktfCommand(30, (pid) => (pid === 10 ? undefined : table[pid]))).toEqual({
      kind: 'unreadable',
      pid: 10,
    });
    expect(invokingCdktfCommand(99, () => undefined)).toEqual({ kind: 'unreadable', pid: 99 });
    // A long chain (the validate harness under jest under pnpm under CI) still reaches init: none.
    expect(invokingCdktfCommand(40, (pid) => ({ ppid: pid - 1, argv: ['sh'] }))).toEqual({ kind: 'none' });
    // A table that loops (never reaches init) is not trusted: unreadable.
    expect(invokingCdktfCommand(7, () => ({ ppid: 7, argv: ['sh'] }))).toEqual({
      kind: 'unreadable',
      pid: 7,
    });
  });

  test('this process (jest, not cdktf) reads as no cdktf command', () => {
    expect(invokingCdktfCommand()).toEqual({ kind: 'none' });
  });
});

describe('synthCommand: what the synth is for', () => {
  const cdktf = (command: string): CdktfInvocation => ({ kind: 'cdktf', command });
  const none: CdktfInvocation = { kind: 'none' };
  const unreadable: CdktfInvocation = { kind: 'unreadable', pid: 42 };
  const noWarning = (message: string) => {
    throw new Error(`unexpected warning: ${message}`);
  };

  test('cdktf deploy is an apply whatever LOGLAKE_TF_COMMAND says', () => {
    expect(synthCommand({ LOGLAKE_TF_COMMAND: 'plan' }, cdktf('deploy'), noWarning)).toBe('apply');
    expect(synthCommand({}, cdktf('deploy'), noWarning)).toBe('apply');
  });
  test('cdktf list, synth and diff by hand are plans; destroy and output are themselves', () => {
    expect(['list', 'synth', 'diff'].map((c) => synthCommand({}, cdktf(c), noWarning))).toEqual([
      'plan',
      'plan',
      'plan',
    ]);
    expect(synthCommand({}, cdktf('destroy'), noWarning)).toBe('destroy');
    expect(synthCommand({}, cdktf('output'), noWarning)).toBe('output');
  });
  test('a cdktf command not known here, or an option before it, is strict (undefined), not the variable', () => {
    expect(synthCommand({ LOGLAKE_TF_COMMAND: 'plan' }, cdktf(''), noWarning)).toBeUndefined();
    expect(synthCommand({ LOGLAKE_TF_COMMAND: 'plan' }, cdktf('convert'), noWarning)).toBeUndefined();
  });
  test('no cdktf above the app (the validate harness runs it directly): the variable, else strict', () => {
    expect(synthCommand({ LOGLAKE_TF_COMMAND: 'validate' }, none, noWarning)).toBe('validate');
    expect(synthCommand({ LOGLAKE_TF_COMMAND: 'plan' }, none, noWarning)).toBe('plan');
    expect(synthCommand({}, none, noWarning)).toBeUndefined();
    expect(() => synthCommand({ LOGLAKE_TF_COMMAND: 'deploy' }, none, noWarning)).toThrow(
      'is not a Terraform command',
    );
  });
  test('the process table unreadable: strict as an apply even when LOGLAKE_TF_COMMAND says plan, and a warning naming it (F4)', () => {
    const warnings: string[] = [];
    expect(synthCommand({ LOGLAKE_TF_COMMAND: 'plan' }, unreadable, (m) => warnings.push(m))).toBeUndefined();
    expect(synthCommand({}, unreadable, (m) => warnings.push(m))).toBeUndefined();
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toContain('could not be read (process 42');
    expect(warnings[0]).toContain('synthesizes as strictly as an apply');
    expect(warnings[0]).toContain('LOGLAKE_TF_COMMAND=plan is not used here');
    expect(warnings[1]).toContain('LOGLAKE_TF_COMMAND is not used here');
    // A wrong value is still a mistake worth stopping for.
    expect(() => synthCommand({ LOGLAKE_TF_COMMAND: 'deploy' }, unreadable, () => {})).toThrow(
      'is not a Terraform command',
    );
  });
});
