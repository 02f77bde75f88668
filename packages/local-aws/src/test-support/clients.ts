// TEST SUPPORT: the real AWS SDK v3 clients pointed at a local endpoint, with throwaway credentials
// (the endpoint accepts any).
import { Agent } from 'node:http';
import { AthenaClient, GetQueryExecutionCommand, type QueryExecutionState } from '@aws-sdk/client-athena';
import { FirehoseClient } from '@aws-sdk/client-firehose';
import { S3TablesClient } from '@aws-sdk/client-s3tables';

export interface LocalClients {
  s3tables: S3TablesClient;
  firehose: FirehoseClient;
  athena: AthenaClient;
  destroy(): void;
}

/** Client configuration for any AWS SDK v3 client of the local endpoint. */
export function localClientConfig(url: string, maxAttempts = 1) {
  return {
    endpoint: url,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts,
    // Idle keep-alive sockets are dropped by the client before the endpoint's 5 s keepAliveTimeout closes them:
    // otherwise a request can go out on a socket the server has just closed (ECONNRESET), which with
    // maxAttempts 1 fails the test instead of being retried.
    requestHandler: { httpAgent: new Agent({ keepAlive: true, timeout: 4000 }) },
  };
}

export function localClients(url: string, maxAttempts = 1): LocalClients {
  const config = localClientConfig(url, maxAttempts);
  const s3tables = new S3TablesClient(config);
  const firehose = new FirehoseClient(config);
  const athena = new AthenaClient(config);
  return {
    s3tables,
    firehose,
    athena,
    destroy() {
      s3tables.destroy();
      firehose.destroy();
      athena.destroy();
    },
  };
}

export async function waitForQuery(
  athena: AthenaClient,
  id: string,
  timeoutMs = 60_000,
): Promise<QueryExecutionState> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { QueryExecution } = await athena.send(new GetQueryExecutionCommand({ QueryExecutionId: id }));
    const state = QueryExecution?.Status?.State as QueryExecutionState;
    if (state !== 'QUEUED' && state !== 'RUNNING') return state;
    if (Date.now() > deadline) throw new Error(`Query ${id} still ${state} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
