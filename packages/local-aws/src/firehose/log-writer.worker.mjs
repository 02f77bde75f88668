// The record log's syncs, on a thread of their own (plain JavaScript: a worker runs with no TypeScript loader).
// The log writes its bytes itself (into the page cache: microseconds); this thread makes them durable, so the
// endpoint's event loop never waits on the disk, and the time each sync takes is measured exactly (not inflated by
// a busy loop picking up its callback late).
//   { id, fd, dir? }  fdatasync the file, then fsync its folder when given (a new file's entry)
// Replies { id, ok, fsyncMs, fsyncs, message?, code? }.
import { closeSync, fdatasyncSync, fsyncSync, openSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';

parentPort.on('message', (request) => {
  const reply = { id: request.id, ok: true, fsyncMs: 0, fsyncs: 0 };
  const sync = (run) => {
    const started = performance.now();
    run();
    reply.fsyncMs += performance.now() - started;
    reply.fsyncs++;
  };
  try {
    sync(() => fdatasyncSync(request.fd));
    if (request.dir) {
      const dir = openSync(request.dir, 'r');
      try {
        sync(() => fsyncSync(dir));
      } finally {
        closeSync(dir);
      }
    }
  } catch (error) {
    reply.ok = false;
    reply.message = error instanceof Error ? error.message : String(error);
    reply.code = error?.code;
  }
  parentPort.postMessage(reply);
});
