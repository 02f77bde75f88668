// icebird reads through the global `fetch`, which refuses file:// URLs on Node 20. This wraps fetch so file://
// URLs are served from disk (GET/HEAD, single byte ranges) and everything else goes to the real fetch.
import { open, stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

type Fetch = typeof globalThis.fetch;

function headerOf(init: RequestInit | undefined, name: string): string | null {
  const headers = init?.headers;
  if (!headers) return null;
  if (headers instanceof Headers) return headers.get(name);
  if (Array.isArray(headers)) return headers.find(([k]) => k?.toLowerCase() === name)?.[1] ?? null;
  const entry = Object.entries(headers).find(([k]) => k.toLowerCase() === name);
  return entry ? String(entry[1]) : null;
}

export async function serveFile(url: string, init?: RequestInit): Promise<Response> {
  const path = fileURLToPath(url);
  let size: number;
  try {
    size = (await stat(path)).size;
  } catch {
    return new Response(null, { status: 404, statusText: 'Not Found' });
  }
  if ((init?.method ?? 'GET').toUpperCase() === 'HEAD') {
    return new Response(null, { status: 200, headers: { 'content-length': String(size) } });
  }
  let start = 0;
  let end = size - 1;
  let status = 200;
  const range = headerOf(init, 'range');
  if (range) {
    const m = /^bytes=(\d*)-(\d*)$/.exec(range.trim());
    if (!m) return new Response(null, { status: 416, statusText: `Unsupported range ${range}` });
    if (m[1] === '') {
      start = Math.max(0, size - Number(m[2]));
    } else {
      start = Number(m[1]);
      if (m[2] !== '') end = Math.min(end, Number(m[2]));
    }
    status = 206;
  }
  const length = Math.max(0, end - start + 1);
  const body = Buffer.alloc(length);
  const handle = await open(path, 'r');
  try {
    await handle.read(body, 0, length, start);
  } finally {
    await handle.close();
  }
  const headers: Record<string, string> = { 'content-length': String(length) };
  if (status === 206) headers['content-range'] = `bytes ${start}-${end}/${size}`;
  return new Response(body, { status, headers });
}

/** A fetch that serves file:// from disk and delegates the rest. */
export function fileAwareFetch(inner: Fetch): Fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (url.startsWith('file:')) return serveFile(url, init);
    return inner(input, init);
  }) as Fetch;
}

/** Runs `fn` with file:// support installed on the global fetch (icebird has no fetch option). */
export async function withFileFetch<T>(fn: () => Promise<T>): Promise<T> {
  const original = globalThis.fetch;
  globalThis.fetch = fileAwareFetch(original);
  try {
    return await fn();
  } finally {
    globalThis.fetch = original;
  }
}
