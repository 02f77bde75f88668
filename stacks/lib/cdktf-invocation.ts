// Which cdktf command runs the app. cdktf-cli 0.21 tells its app nothing about the command (it sets CDKTF_OUTDIR and
// a context, the same for synth, diff and deploy), but it runs the app as its own child, through a shell: the
// command is in an ancestor's argv (`node …/cdktf-cli/bundle/bin/cdktf deploy table-bucket`). Read from the process
// table (/proc on Linux, `ps` elsewhere). An unrecognised command, or a process table that cannot be read, is
// synthesized as strictly as an apply (app.ts synthCommand): LOGLAKE_TF_COMMAND is trusted only when the table shows
// no cdktf above the app at all.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { TfCommand } from './contract';

/** The Terraform command each cdktf command runs (what decides mocks and the lab policy's strictness). */
const CDKTF_TO_TF: Readonly<Record<string, TfCommand>> = {
  deploy: 'apply',
  apply: 'apply',
  // watch deploys on every change.
  watch: 'apply',
  destroy: 'destroy',
  diff: 'plan',
  plan: 'plan',
  // synth and list only write the configuration, as `pnpm synth` does for a plan.
  synth: 'plan',
  synthesize: 'plan',
  list: 'plan',
  ls: 'plan',
  output: 'output',
  outputs: 'output',
};

/** The cdktf command in one process's argv, when that process is the cdktf CLI; undefined otherwise. */
export function cdktfCommandOf(argv: readonly string[]): string | undefined {
  const cli = argv.findIndex(
    (a) => /^cdktf(\.js)?$/.test(basename(a)) && (a.includes('cdktf-cli') || basename(a) === 'cdktf'),
  );
  if (cli < 0) return undefined;
  // The first word after the binary; an option there (`cdktf --log-level debug deploy`) makes it unknown, not guessed.
  const next = argv[cli + 1];
  return next === undefined || next.startsWith('-') ? '' : next;
}

/** The Terraform command a cdktf command stands for; undefined when it is not one cdktf synthesizes for. */
export function tfCommandForCdktf(command: string): TfCommand | undefined {
  return Object.hasOwn(CDKTF_TO_TF, command) ? CDKTF_TO_TF[command] : undefined;
}

export interface ProcessInfo {
  readonly ppid: number;
  readonly argv: readonly string[];
}

/** A process's parent and argv: /proc where there is one, else `ps`; undefined when neither answers. */
export function readProcess(pid: number): ProcessInfo | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name in parentheses may hold spaces: the fields after its closing parenthesis are state, ppid, ….
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    return Number.isInteger(ppid) ? { ppid, argv } : undefined;
  } catch {
    // No /proc (macOS, BSD): ask ps.
  }
  try {
    const out = execFileSync('ps', ['-o', 'ppid=,args=', '-p', String(pid)], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    const match = /^(\d+)\s+(.*)$/.exec(out);
    return match ? { ppid: Number(match[1]), argv: match[2]!.split(/\s+/) } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * What the process table says about the command: the cdktf command among the ancestors; `none` when the table was
 * read up to init and no ancestor is cdktf (the app run directly: the validate harness, tests); `unreadable` when an
 * ancestor could not be read (no /proc and no ps, or a process gone) — then nothing can tell a deploy from a diff.
 */
export type CdktfInvocation =
  | { readonly kind: 'cdktf'; readonly command: string }
  | { readonly kind: 'none' }
  | { readonly kind: 'unreadable'; readonly pid: number };

/** Ancestors walked at most: a process table that never reaches init (a loop) is not one to trust. */
const MAX_DEPTH = 64;

/** The cdktf command among this process's ancestors, or why there is none (see CdktfInvocation). */
export function invokingCdktfCommand(
  pid: number = process.pid,
  read: (pid: number) => ProcessInfo | undefined = readProcess,
): CdktfInvocation {
  let at = pid;
  for (let depth = 0; depth < MAX_DEPTH; depth++) {
    const current = read(at);
    if (!current) return { kind: 'unreadable', pid: at };
    const command = cdktfCommandOf(current.argv);
    if (command !== undefined) return { kind: 'cdktf', command };
    if (current.ppid <= 1) return { kind: 'none' };
    at = current.ppid;
  }
  return { kind: 'unreadable', pid: at };
}
