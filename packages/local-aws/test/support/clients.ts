// TEST SUPPORT: the real AWS SDK v3 clients pointed at a local endpoint, with throwaway credentials
// (the endpoint accepts any).
import { AthenaClient, GetQueryExecutionCommand, type QueryExecutionState } from '@aws-sdk/client-athena';
import { FirehoseClient } from '@aws-sdk/client-firehose';
import { S3TablesClient } from '@aws-sdk/client-s3tables';
import { localClientConfig } from '../../src/client-config';

export interface LocalClients {
  s3tables: S3TablesClient;
  firehose: FirehoseClient;
  athena: AthenaClient;
  destroy(): void;
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
