// The project's commands as a user runs them, for tests: a child process per command (the same entry files the
// package scripts run, on this Node through tsx), its own environment (a terminal width through COLUMNS, no AWS
// credentials unless given), output captured. Tests assert on what the user would see.
import { spawn, type ChildProcess } from 'node:child_process';
import { lstatSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

const ENTRIES = {
  lab: 'packages/lab/src/cli.ts',
  load: 'scripts/load.ts',
  query: 'scripts/query.ts',
  bench: 'scripts/bench.ts',
} as const;

export type Entry = keyof typeof ENTRIES;

export interface CliResult {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** A process environment with no AWS credentials or profile, and no terminal width unless the test gives one. */
export function cleanEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env))
    if (!/^AWS_/.test(k) && k !== 'COLUMNS' && k !== 'LOGLAKE_DEBUG') env[k] = v;
  const home = mkdtempSync(join(tmpdir(), 'cli-home-'));
  Object.assign(env, {
    HOME: home,
    AWS_CONFIG_FILE: join(home, 'no-config'),
    AWS_SHARED_CREDENTIALS_FILE: join(home, 'no-credentials'),
    AWS_EC2_METADATA_DISABLED: 'true',
    // The AWS SDK's notice about Node 20 is not the command's output.
    NODE_NO_WARNINGS: '1',
  });
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

export interface Running {
  child: ChildProcess;
  output(): { stdout: string; stderr: string };
  /** Resolves once stdout or stderr contains `text` (rejects after timeoutMs, or if the process exits first). */
  waitFor(text: string | RegExp, timeoutMs?: number): Promise<void>;
  done: Promise<CliResult>;
}

export function start(
  entry: Entry,
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv; uid?: number; gid?: number } = {},
): Running {
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', ENTRIES[entry], ...args], {
    cwd: ROOT,
    env: options.env ?? cleanEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(options.uid !== undefined ? { uid: options.uid } : {}),
    ...(options.gid !== undefined ? { gid: options.gid } : {}),
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const done = new Promise<CliResult>((resolve) =>
    child.on('close', (status, signal) =>
      resolve({ status, signal, stdout, stderr, ms: Math.round(performance.now() - started) }),
    ),
  );
  const matches = (text: string | RegExp) => {
    const all = stdout + stderr;
    return typeof text === 'string' ? all.includes(text) : text.test(all);
  };
  return {
    child,
    output: () => ({ stdout, stderr }),
    async waitFor(text, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      while (!matches(text)) {
        if (child.exitCode !== null || child.signalCode !== null)
          throw new Error(`exited before printing ${String(text)}:\n${stdout}\n${stderr}`);
        if (Date.now() > deadline)
          throw new Error(`no ${String(text)} within ${timeoutMs} ms:\n${stdout}\n${stderr}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    done,
  };
}

export function run(
  entry: Entry,
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv; uid?: number; gid?: number } = {},
): Promise<CliResult> {
  return start(entry, args, options).done;
}

/** The longest line of a text, in characters. */
export const widest = (text: string) => Math.max(0, ...text.split('\n').map((l) => [...l].length));

/** A stack trace line, as Node prints them. */
export const STACK_LINE = /^\s+at .+:\d+:\d+\)?$/m;

/** Every file under a folder (path relative to it, with /, → size), but the names in `except`: what a user has there. */
export function filesIn(dir: string, except: readonly string[] = []): Map<string, number> {
  const out = new Map<string, number>();
  const walk = (d: string) => {
    for (const entry of readdirSync(d)) {
      const full = join(d, entry);
      const s = lstatSync(full);
      if (s.isDirectory()) walk(full);
      else {
        const path = relative(dir, full).split(sep).join('/');
        if (!except.includes(path)) out.set(path, s.size);
      }
    }
  };
  walk(dir);
  return out;
}
