// One owner per data folder: the lock names its holder, refuses a second one, and a lock left by a dead process —
// killed, or whose pid now belongs to another process, or from before a reboot — is taken over, by one taker only.
import { afterAll, describe, expect, test } from '@jest/globals';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  assertDataFolderFree,
  dataFolderHolder,
  DataFolderHeldError,
  DataFolderLock,
  processStartOf,
  type DataFolderHolder,
} from './data-lock';

const root = mkdtempSync(join(tmpdir(), 'data-lock-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const folder = () => mkdtempSync(join(root, 'd-'));
const lockOf = (dir: string) =>
  JSON.parse(readFileSync(join(dir, 'endpoint.lock'), 'utf8')) as DataFolderHolder;

/** The pid of a process that has exited (not reused yet, in all likelihood). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
    encoding: 'utf8',
  });
  return Number(child.stdout);
}

function writeLock(dir: string, holder: Partial<DataFolderHolder>): void {
  writeFileSync(
    join(dir, 'endpoint.lock'),
    JSON.stringify({ port: 4566, startedAt: '2026-12-01T00:00:00.000Z', host: hostname(), ...holder }),
  );
}

describe('the data folder lock', () => {
  test('names its holder (pid, port, start time) and refuses a second holder with the holder and the fix', () => {
    const dir = folder();
    const lock = DataFolderLock.acquire(dir, { port: null });
    lock.update({ port: 45211 });
    expect(lockOf(dir)).toMatchObject({ pid: process.pid, port: 45211, host: hostname() });
    expect(lockOf(dir).startedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    let refused: unknown;
    try {
      DataFolderLock.acquire(dir);
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(DataFolderHeldError);
    expect((refused as Error).message).toContain(`pid ${process.pid}`);
    expect((refused as Error).message).toContain('port 45211, http://127.0.0.1:45211');
    expect((refused as Error).message).toContain('Stop that endpoint first');
    expect(() => assertDataFolderFree(dir, 'emptying it')).toThrow(/so emptying it would share it/);
    expect(dataFolderHolder(dir)?.pid).toBe(process.pid);
    lock.release();
    expect(existsSync(join(dir, 'endpoint.lock'))).toBe(false);
    expect(() => assertDataFolderFree(dir)).not.toThrow();
  });

  test('a lock left by a killed process is stale and taken over', () => {
    const dir = folder();
    writeLock(dir, { pid: deadPid() });
    expect(dataFolderHolder(dir)).toBeUndefined();
    expect(() => assertDataFolderFree(dir)).not.toThrow();
    const lock = DataFolderLock.acquire(dir);
    expect(lockOf(dir).pid).toBe(process.pid);
    lock.release();
  });

  test('a reused pid is no holder: the process with that pid started later than the one that locked', () => {
    const dir = folder();
    const start = processStartOf(process.pid);
    if (start === undefined) return; // no way to read a process's start here: only the pid is checked
    writeLock(dir, { pid: process.pid, processStart: `${start}0` });
    expect(dataFolderHolder(dir)).toBeUndefined();
    const lock = DataFolderLock.acquire(dir);
    expect(lockOf(dir).processStart).toBe(start);
    lock.release();
  });

  test('a lock from before a reboot is stale', () => {
    const dir = folder();
    if (!existsSync('/proc/sys/kernel/random/boot_id')) return;
    writeLock(dir, { pid: process.pid, bootId: '00000000-0000-0000-0000-000000000000' });
    expect(dataFolderHolder(dir)).toBeUndefined();
  });

  test('a lock that names no holder is refused, naming the file to delete', () => {
    const dir = folder();
    writeFileSync(join(dir, 'endpoint.lock'), 'not json');
    expect(() => DataFolderLock.acquire(dir)).toThrow(
      /names no endpoint; if no endpoint uses the folder, delete that file/,
    );
    expect(readFileSync(join(dir, 'endpoint.lock'), 'utf8')).toBe('not json');
  });

  test('release leaves a lock that is not its own', () => {
    const dir = folder();
    const lock = DataFolderLock.acquire(dir);
    rmSync(join(dir, 'endpoint.lock'));
    writeLock(dir, { pid: process.pid });
    lock.release();
    expect(existsSync(join(dir, 'endpoint.lock'))).toBe(true);
  });

  test('eight processes racing for one stale lock: exactly one takes it', async () => {
    const dir = folder();
    writeLock(dir, { pid: deadPid() });
    const module = fileURLToPath(new URL('./data-lock.ts', import.meta.url));
    const script =
      `const { DataFolderLock } = await import(${JSON.stringify(module)});` +
      `await new Promise((r) => setTimeout(r, 400 - (Date.now() % 400)));` +
      `try { DataFolderLock.acquire(${JSON.stringify(dir)}); console.log('won'); ` +
      `await new Promise((r) => setTimeout(r, 1500)); } catch (e) { console.log(e.name); }`;
    const runs = Array.from(
      { length: 8 },
      () =>
        new Promise<string>((resolve) => {
          const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
            stdio: ['ignore', 'pipe', 'inherit'],
          });
          let out = '';
          child.stdout.on('data', (c: Buffer) => (out += c.toString()));
          child.on('exit', () => resolve(out.trim()));
        }),
    );
    const outcomes = await Promise.all(runs);
    expect(outcomes.filter((o) => o === 'won')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'DataFolderHeldError')).toHaveLength(7);
  });
});
