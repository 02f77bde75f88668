import { describe, expect, test } from '@jest/globals';
import { synthCommand } from '../app';
import {
  cdktfCommandOf,
  invokingCdktfCommand,
  tfCommandForCdktf,
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
    expect(invokingCdktfCommand(30, (pid) => table[pid])).toBe('deploy');
    expect(invokingCdktfCommand(20, (pid) => (pid === 10 ? undefined : table[pid]))).toBeUndefined();
    expect(invokingCdktfCommand(99, () => undefined)).toBeUndefined();
  });

  test('this process (jest, not cdktf) reads as no cdktf command', () => {
    expect(invokingCdktfCommand()).toBeUndefined();
  });
});

describe('synthCommand: what the synth is for', () => {
  test('cdktf deploy is an apply whatever LOGLAKE_TF_COMMAND says', () => {
    expect(synthCommand({ LOGLAKE_TF_COMMAND: 'plan' }, 'deploy')).toBe('apply');
    expect(synthCommand({}, 'deploy')).toBe('apply');
  });
  test('cdktf list, synth and diff by hand are plans; destroy and output are themselves', () => {
    expect(['list', 'synth', 'diff'].map((c) => synthCommand({}, c))).toEqual(['plan', 'plan', 'plan']);
    expect(synthCommand({}, 'destroy')).toBe('destroy');
    expect(synthCommand({}, 'output')).toBe('output');
  });
  test('a cdktf command not known here, or an option before it, is strict (undefined), not the variable', () => {
    expect(synthCommand({ LOGLAKE_TF_COMMAND: 'plan' }, '')).toBeUndefined();
    expect(synthCommand({ LOGLAKE_TF_COMMAND: 'plan' }, 'convert')).toBeUndefined();
  });
  test('no cdktf above the app (the validate harness runs it directly): the variable, else strict', () => {
    expect(synthCommand({ LOGLAKE_TF_COMMAND: 'validate' }, undefined)).toBe('validate');
    expect(synthCommand({}, undefined)).toBeUndefined();
    expect(() => synthCommand({ LOGLAKE_TF_COMMAND: 'deploy' }, undefined)).toThrow(
      'is not a Terraform command',
    );
  });
});
