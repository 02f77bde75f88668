// The record log's syncs, on their own thread (log-writer.worker.mjs): one thread for the process, shared by every
// stream's log; it keeps the process alive only while a sync is waiting for its answer.
import { Worker } from 'node:worker_threads';
import { LocalAwsError } from '../errors';

export interface SyncOutcome {
  fsyncMs: number;
  fsyncs: number;
}

interface Reply extends SyncOutcome {
  id: number;
  ok: boolean;
  message?: string;
  code?: string;
}

/** A sync the thread could not do; `code` is the system's (EIO, ENOSPC...). */
export class SyncError extends LocalAwsError {
  override name = 'SyncError';
  constructor(
    message: string,
    readonly code: string | undefined,
    readonly outcome: SyncOutcome,
  ) {
    super(message, { value: code });
  }
}

let worker: Worker | undefined;
let nextId = 0;
const waiting = new Map<
  number,
  { resolve: (outcome: SyncOutcome) => void; reject: (error: Error) => void }
>();

function thread(): Worker {
  if (worker) return worker;
  const started = new Worker(new URL('./log-writer.worker.mjs', import.meta.url));
  started.on('message', (reply: Reply) => {
    const waiter = waiting.get(reply.id);
    waiting.delete(reply.id);
    if (waiting.size === 0) started.unref();
    const outcome = { fsyncMs: reply.fsyncMs, fsyncs: reply.fsyncs };
    if (reply.ok) waiter?.resolve(outcome);
    else waiter?.reject(new SyncError(reply.message ?? 'sync failed', reply.code, outcome));
  });
  started.on('error', (error) => {
    worker = undefined;
    for (const waiter of waiting.values()) waiter.reject(error);
    waiting.clear();
  });
  started.unref();
  worker = started;
  return started;
}

/** fdatasync(fd), then fsync(dir) when given (a new file's folder entry). */
export function syncFile(fd: number, dir?: string): Promise<SyncOutcome> {
  const id = nextId++;
  const target = thread();
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    target.ref();
    target.postMessage({ id, fd, ...(dir ? { dir } : {}) });
  });
}
