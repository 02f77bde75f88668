// One owner per data folder. The endpoint that uses a folder holds `<dataDir>/endpoint.lock`, a file naming it (pid,
// port, start time, and what tells a live holder from a dead one: the process's own start time as the kernel keeps
// it, and the boot). A second endpoint on the folder, or a tool about to empty it (the lab's reset), is refused with
// a message naming the holder and the fix. A lock left by a process that died without stopping (kill -9, a closed
// terminal) is stale — its pid is gone, or now belongs to a process that started later, or the machine rebooted —
// and is taken over.
//
// Atomicity: the lock is created by link(2) of a complete file (fails with EEXIST when another holds it; never a
// half-written lock). A stale lock is never moved aside while anyone could be using its place (the old takeover
// renamed the lock aside and linked it back when it turned out to be a newer one: in that moment a third starter
// linked its own, and two won — CI saw it on Node 24). Instead the starters that judged the same stale lock compete
// for a claim on it: a file named after that lock's content, created by link(2), so one of them gets it. Only the
// claim's holder removes the stale lock, after reading it again (it cannot change: its owner is dead, and only a
// claim holder removes it), and then links its own like any starter; the others wait and read the lock again. A
// claim whose holder died is itself claimed the same way (a claim on the claim). After linking, the lock is read
// back to check that it names this one.
import { execFileSync } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import {
  closeSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { LOCAL_DATA_DIR_ENTRIES } from './data-dir';
import { LocalEndpointConfigError } from './errors';

/** Who holds a data folder. */
export interface DataFolderHolder {
  readonly pid: number;
  /** The endpoint's port once it listens (null while it starts). */
  readonly port: number | null;
  /** When the holder took the folder (ISO). */
  readonly startedAt: string;
  readonly host: string;
  /** The holder process's start as the kernel reports it (Linux: /proc/<pid>/stat field 22; else `ps -o lstart`). */
  readonly processStart?: string;
  /** The boot the holder ran in (Linux: /proc/sys/kernel/random/boot_id). */
  readonly bootId?: string;
  /** This lock's own id: a file is this lock only if it names this (inode numbers are reused at once). */
  readonly nonce?: string;
}

/** The folder is held by a live endpoint: the message names it and says what to do. */
export class DataFolderHeldError extends LocalEndpointConfigError {
  override name = 'DataFolderHeldError';
  constructor(
    message: string,
    readonly holder: DataFolderHolder | undefined,
  ) {
    super(message, { value: holder });
  }
}

const lockFile = (dataDir: string) => join(dataDir, LOCAL_DATA_DIR_ENTRIES.lock);
/** Aside files live in the endpoint's own tmp folder (same file system, so link and rename are atomic). */
const asideDir = (dataDir: string) => join(dataDir, LOCAL_DATA_DIR_ENTRIES.tmp, 'lock');

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return undefined;
  }
}

/** The kernel's start time of a process (comparable between two reads), or undefined when it cannot be read. */
export function processStartOf(pid: number): string | undefined {
  const stat = readText(`/proc/${pid}/stat`);
  if (stat !== undefined) {
    // Fields after the command name (which may hold spaces and parentheses): field 22 is the start time.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19];
  }
  if (process.platform === 'win32') return undefined;
  try {
    const out = execFileSync('ps', ['-o', 'lstart=', '-p', String(pid)], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    return out || undefined;
  } catch {
    return undefined;
  }
}

const bootId = () => readText('/proc/sys/kernel/random/boot_id');

/** The process's pid exists (EPERM: it exists, another user's). */
function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** True when the holder still runs: same boot, its pid alive, and that pid the same process (not a reused pid). */
export function holderAlive(holder: DataFolderHolder): boolean {
  if (holder.host !== hostname()) return true; // another machine's: cannot tell, so it holds
  const boot = bootId();
  if (holder.bootId && boot && holder.bootId !== boot) return false;
  if (!Number.isInteger(holder.pid) || holder.pid <= 0 || !pidAlive(holder.pid)) return false;
  if (holder.processStart !== undefined) {
    const now = processStartOf(holder.pid);
    if (now !== undefined && now !== holder.processStart) return false;
  }
  return true;
}

function parseHolder(text: string | undefined): DataFolderHolder | undefined {
  if (text === undefined) return undefined;
  try {
    const h = JSON.parse(text) as Partial<DataFolderHolder>;
    if (typeof h.pid !== 'number' || typeof h.startedAt !== 'string' || typeof h.host !== 'string')
      return undefined;
    return h as DataFolderHolder;
  } catch {
    return undefined;
  }
}

function describe(holder: DataFolderHolder): string {
  const where = holder.port ? `port ${holder.port}, http://127.0.0.1:${holder.port}` : 'still starting';
  const host = holder.host === hostname() ? '' : ` on ${holder.host}`;
  return `the loglake local endpoint started ${holder.startedAt} (pid ${holder.pid}${host}, ${where})`;
}

function heldError(dataDir: string, holder: DataFolderHolder, doing: string): DataFolderHeldError {
  return new DataFolderHeldError(
    `The data folder ${dataDir} is in use by ${describe(holder)}, so ${doing} would share it (two owners replay ` +
      `each other's Firehose buffers and change each other's tables). Stop that endpoint first (Ctrl-C in its ` +
      `terminal, or kill ${holder.pid}), or use another folder (--data-dir <dir>).`,
    holder,
  );
}

/** The live holder of a data folder, or undefined when none holds it (no lock, or a stale one). */
export function dataFolderHolder(dataDir: string): DataFolderHolder | undefined {
  const holder = parseHolder(readText(lockFile(dataDir)));
  return holder && holderAlive(holder) ? holder : undefined;
}

/**
 * Throws DataFolderHeldError when a live endpoint holds the folder. `doing` says what the caller was about to do
 * ("emptying it for a new lab"), for the message. A lock that is no holder's (unreadable) is refused too, naming it.
 */
export function assertDataFolderFree(dataDir: string, doing = 'this'): void {
  const text = readText(lockFile(dataDir));
  if (text === undefined) return;
  const holder = parseHolder(text);
  if (!holder) throw unreadableLock(dataDir);
  if (holderAlive(holder)) throw heldError(dataDir, holder, doing);
}

function unreadableLock(dataDir: string): DataFolderHeldError {
  return new DataFolderHeldError(
    `The data folder ${dataDir} has a lock file (${lockFile(dataDir)}) that names no endpoint; if no endpoint uses ` +
      'the folder, delete that file and start again.',
    undefined,
  );
}

function writeAside(dataDir: string, holder: DataFolderHolder): string {
  const dir = asideDir(dataDir);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `held-${randomUUID()}.tmp`);
  const fd = openSync(file, 'wx');
  try {
    writeSync(fd, `${JSON.stringify(holder)}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return file;
}

/** A held data folder; release() gives it up (only if the lock is still this one). */
export class DataFolderLock {
  private constructor(
    readonly dataDir: string,
    private holder: DataFolderHolder,
  ) {}

  /** True while the lock file is this lock (it names this lock's nonce). */
  private held(): boolean {
    return parseHolder(readText(lockFile(this.dataDir)))?.nonce === this.holder.nonce;
  }

  /** Takes the folder, or throws DataFolderHeldError naming the live holder. */
  static acquire(dataDir: string, options: { port?: number | null } = {}): DataFolderLock {
    mkdirSync(dataDir, { recursive: true });
    const holder: DataFolderHolder = {
      pid: process.pid,
      port: options.port ? options.port : null,
      startedAt: new Date().toISOString(),
      host: hostname(),
      ...(processStartOf(process.pid) !== undefined ? { processStart: processStartOf(process.pid) } : {}),
      ...(bootId() !== undefined ? { bootId: bootId() } : {}),
      nonce: randomUUID(),
    };
    const lock = lockFile(dataDir);
    const mine = writeAside(dataDir, holder);
    const claims: string[] = [];
    // A claim's holder removes the stale lock in a few system calls; others wait for it (bounded).
    const deadline = Date.now() + ACQUIRE_WAIT_MS;
    try {
      for (;;) {
        try {
          linkSync(mine, lock);
          if (parseHolder(readText(lock))?.nonce === holder.nonce) return new DataFolderLock(dataDir, holder);
          continue; // cannot happen (no one replaces a live lock), but never claim a lock that is not this one
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        }
        const text = readText(lock);
        if (text !== undefined) {
          const current = parseHolder(text);
          if (!current) throw unreadableLock(dataDir);
          if (holderAlive(current)) throw heldError(dataDir, current, 'starting another endpoint on it');
          if (!removeStale(dataDir, lock, text, holder, claims)) {
            if (Date.now() > deadline)
              throw new DataFolderHeldError(
                `The data folder ${dataDir} has a stale lock another starting endpoint is taking over, and it did not finish; start this one again.`,
                undefined,
              );
            pause(2);
          }
        }
      }
    } finally {
      rmSync(mine, { force: true });
      for (const claim of claims) rmSync(claim, { force: true });
    }
  }

  get current(): DataFolderHolder {
    return this.holder;
  }

  /** Records the port once the endpoint listens (the lock is replaced whole, by rename). */
  update(options: { port: number }): void {
    if (!this.held()) return; // not ours any more: leave it
    this.holder = { ...this.holder, port: options.port };
    renameSync(writeAside(this.dataDir, this.holder), lockFile(this.dataDir));
  }

  /** Gives the folder up (a lock someone else holds by now is left alone). */
  release(): void {
    if (this.held()) rmSync(lockFile(this.dataDir), { force: true });
  }
}

/** How long a starter waits for another to finish taking over a stale lock. */
const ACQUIRE_WAIT_MS = 5_000;

function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

const claimFile = (dataDir: string, of: string) =>
  join(asideDir(dataDir), `claim-${createHash('sha256').update(of).digest('hex').slice(0, 32)}`);

/**
 * Claims the right to remove the stale lock whose content is `stale`: true when this process holds the claim (or a
 * claim on a dead claimer's claim, and so on down), false when a live process holds it. Claim files are created by
 * link(2) of a complete file, so each has one creator and never changes.
 */
function claim(dataDir: string, of: string, holder: DataFolderHolder, claims: string[]): boolean {
  for (let depth = 0; depth < 16; depth++) {
    const file = claimFile(dataDir, of);
    const mine = writeAside(dataDir, holder);
    try {
      linkSync(mine, file);
      claims.push(file);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      rmSync(mine, { force: true });
    }
    const text = readText(file);
    const claimer = parseHolder(text);
    if (text === undefined) continue; // removed by its holder in between: try again
    if (claimer?.nonce === holder.nonce) return true;
    if (claimer && holderAlive(claimer)) return false;
    of = text; // its claimer died while taking over: claim that claim
  }
  return false;
}

/**
 * Removes the stale lock (read as `stale`) if this process wins the claim on it and it is still there. False when
 * another live process holds the claim (wait and look again).
 */
function removeStale(
  dataDir: string,
  lock: string,
  stale: string,
  holder: DataFolderHolder,
  claims: string[],
): boolean {
  if (!claim(dataDir, stale, holder, claims)) return false;
  // Only a claim's holder removes a stale lock, and its owner is dead: what is read now stays until removed here.
  if (readText(lock) === stale) rmSync(lock, { force: true });
  return true;
}
