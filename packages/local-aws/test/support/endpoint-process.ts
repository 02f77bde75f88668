// TEST SUPPORT: runs endpoint-child.ts in its own process and waits for its ready line.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const CHILD = fileURLToPath(new URL('./endpoint-child.ts', import.meta.url));

export interface EndpointProcess {
  url: string;
  child: ChildProcess;
  /** How it ended: the signal that killed it, or its exit code. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** What it printed on stderr so far (recovery reports, errors). */
  stderr(): string;
}

export async function startEndpointProcess(
  dataDir: string,
  options: {
    bufferIntervalSeconds?: number;
    env?: Record<string, string>;
    /** Runs it on this one CPU (Linux `taskset`): every thread it starts, DuckDB's included, shares that core. */
    cpu?: number;
  } = {},
): Promise<EndpointProcess> {
  const command = [
    process.execPath,
    '--import',
    'tsx',
    CHILD,
    dataDir,
    String(options.bufferIntervalSeconds ?? ''),
  ];
  const pinned = options.cpu === undefined ? command : ['taskset', '-c', String(options.cpu), ...command];
  const child = spawn(pinned[0] as string, pinned.slice(1), {
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const deadline = Date.now() + 60_000;
  for (;;) {
    const url = /^ready (\S+)$/m.exec(stdout)?.[1];
    if (url) return { url, child, exited, stderr: () => stderr };
    if (child.exitCode !== null || child.signalCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the endpoint process did not start: ${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
