// Configuration for any AWS SDK v3 client of the local endpoint: its URL, a region, credentials (any will do unless
// the endpoint enforces authorization; then they say who the client is) and an agent that drops idle keep-alive sockets before the endpoint closes them.
import { Agent } from 'node:http';

/** The endpoint closes a keep-alive socket after this long idle (server.keepAliveTimeout). */
export const LOCAL_KEEP_ALIVE_MS = 5000;

/**
 * The credentials local clients sign with unless told otherwise (with authorization on: the lab's deployer). The key
 * has the form AWS gives access keys (16–128 word characters), which the endpoint checks before anything else.
 */
export const LOCAL_CREDENTIALS = { accessKeyId: 'AKIALOCALLABDEPLOYER', secretAccessKey: 'local' };

export interface LocalClientCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

export function localClientConfig(
  url: string,
  maxAttempts = 1,
  region = 'us-east-1',
  credentials: LocalClientCredentials = LOCAL_CREDENTIALS,
) {
  return {
    endpoint: url,
    region,
    credentials,
    maxAttempts,
    // Dropped by the client first: otherwise a request can go out on a socket the server has just closed
    // (ECONNRESET), which with maxAttempts 1 fails the call instead of being retried.
    requestHandler: { httpAgent: new Agent({ keepAlive: true, timeout: LOCAL_KEEP_ALIVE_MS - 1000 }) },
  };
}
