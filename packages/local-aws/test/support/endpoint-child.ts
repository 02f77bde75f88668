// TEST SUPPORT: the local endpoint as a process of its own, for tests that kill it (SIGKILL) and start it again on
// the same data directory. Usage: endpoint-child.ts <dataDir> <bufferIntervalSeconds>. Prints `ready <url>` once
// it serves; SIGTERM stops it cleanly (flushes). LOGLAKE_CRASH_AT in its environment picks a crash point.
import { startLocalEndpoint } from '../../src/server';

const [dataDir, interval] = process.argv.slice(2);
if (!dataDir) throw new Error('usage: endpoint-child.ts <dataDir> [bufferIntervalSeconds]');
const endpoint = await startLocalEndpoint({
  dataDir,
  ...(interval ? { firehoseBufferIntervalOverrideSeconds: Number(interval) } : {}),
});
for (const stream of endpoint.recovery) process.stderr.write(`recovery ${JSON.stringify(stream)}\n`);
process.stdout.write(`ready ${endpoint.url}\n`);
process.on('SIGTERM', () => void endpoint.stop().then(() => process.exit(0)));
