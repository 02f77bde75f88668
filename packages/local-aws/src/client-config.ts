// Configuration for any AWS SDK v3 client of the local endpoint: its URL, a region, throwaway credentials (the
// endpoint accepts any) and an agent that drops idle keep-alive sockets before the endpoint closes them.
import { Agent } from 'node:http';

/** The endpoint closes a keep-alive socket after this long idle (server.keepAliveTimeout). */
export const LOCAL_KEEP_ALIVE_MS = 5000;

export function localClientConfig(url: string, maxAttempts = 1, region = 'us-east-1') {
  return {
    endpoint: url,
    region,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts,
    // Dropped by the client first: otherwise a request can go out on a socket the server has just closed
    // (ECONNRESET), which with maxAttempts 1 fails the call instead of being retried.
    requestHandler: { httpAgent: new Agent({ keepAlive: true, timeout: LOCAL_KEEP_ALIVE_MS - 1000 }) },
  };
}
