// Test hook for the crash tests: LOGLAKE_CRASH_AT=<point>[#n] kills this process with SIGKILL the n-th time (default
// the first) it reaches that named point, as `kill -9` would at that moment. Unset, it costs one lookup.
const counts = new Map<string, number>();

export function crashPoint(point: string): void {
  const wanted = process.env['LOGLAKE_CRASH_AT'];
  if (!wanted || !wanted.startsWith(point)) return;
  const [name, nth] = wanted.split('#');
  if (name !== point) return;
  const count = (counts.get(point) ?? 0) + 1;
  counts.set(point, count);
  if (count === Number(nth ?? 1)) process.kill(process.pid, 'SIGKILL');
}
