import { describe, expect, test, beforeEach } from '@jest/globals';
import { mockClient } from 'aws-sdk-client-mock';
import {
  AccessDeniedException,
  EntityNotFoundException,
  FederationSourceException,
  FederationSourceRetryableException,
  GetDatabaseCommand,
  GetTableCommand,
  GlueClient,
} from '@aws-sdk/client-glue';
import { FederationTimeoutError } from './errors';
import { waitForFederation } from './wait-for-federation';

const glue = mockClient(GlueClient);
const client = new GlueClient({});
const CATALOG = '123456789012:s3tablescatalog/loglake-01-flow-logs';
const notFound = () => new EntityNotFoundException({ message: 'Database ref not found.', $metadata: {} });

/** A fake clock: sleeping advances it, so the bound is tested without waiting. */
function clock() {
  let t = 0;
  const slept: number[] = [];
  return {
    slept,
    now: () => t,
    sleep: async (ms: number) => {
      slept.push(ms);
      t += ms;
    },
  };
}

describe('waitForFederation', () => {
  beforeEach(() => {
    glue.reset();
  });

  test('polls GetDatabase on the federated catalog id until it answers, backing off', async () => {
    glue.on(GetDatabaseCommand).rejectsOnce(notFound()).rejectsOnce(notFound()).resolves({});
    const c = clock();
    const progress: string[] = [];
    const result = await waitForFederation(
      client,
      { catalogId: CATALOG, database: 'ref', timeoutMs: 60_000 },
      { ...c, onProgress: (l) => progress.push(l) },
    );
    expect(result).toEqual({ attempts: 3, waitedMs: 3000 });
    expect(c.slept).toEqual([1000, 2000]);
    expect(progress).toHaveLength(2);
    expect(glue.commandCalls(GetDatabaseCommand)[0]?.args[0].input).toEqual({
      CatalogId: CATALOG,
      Name: 'ref',
    });
  });

  test('with a table, waits for the table too', async () => {
    glue.on(GetDatabaseCommand).resolves({});
    glue.on(GetTableCommand).rejectsOnce(notFound()).resolves({});
    const result = await waitForFederation(
      client,
      { catalogId: CATALOG, database: 'network', table: 'vpc_flow_logs', timeoutMs: 60_000 },
      clock(),
    );
    expect(result.attempts).toBe(2);
    expect(glue.commandCalls(GetTableCommand)[0]?.args[0].input).toEqual({
      CatalogId: CATALOG,
      DatabaseName: 'network',
      Name: 'vpc_flow_logs',
    });
  });

  test('never visible → fails after the bound with what to check, instead of waiting forever', async () => {
    glue.on(GetDatabaseCommand).rejects(notFound());
    const c = clock();
    const run = waitForFederation(client, { catalogId: CATALOG, database: 'ref', timeoutMs: 30_000 }, c);
    await expect(run).rejects.toBeInstanceOf(FederationTimeoutError);
    expect(c.now()).toBeLessThanOrEqual(30_000);
    await expect(
      waitForFederation(client, { catalogId: CATALOG, database: 'ref', timeoutMs: 30_000 }, clock()),
    ).rejects.toThrow(/still not visible through the Glue Data Catalog/);
  });

  test("the federation source's not-found and retryable answers are waited out too; its other failures are not", async () => {
    glue
      .on(GetDatabaseCommand)
      .rejectsOnce(
        new FederationSourceException({
          message: 'Namespace ref not found',
          FederationSourceErrorCode: 'EntityNotFoundException',
          $metadata: {},
        }),
      )
      .rejectsOnce(new FederationSourceRetryableException({ message: 'try again', $metadata: {} }))
      .resolves({});
    expect(
      (await waitForFederation(client, { catalogId: CATALOG, database: 'ref', timeoutMs: 60_000 }, clock()))
        .attempts,
    ).toBe(3);
    glue.reset();
    glue.on(GetDatabaseCommand).rejects(
      new FederationSourceException({
        message: 'denied',
        FederationSourceErrorCode: 'AccessDeniedException',
        $metadata: {},
      }),
    );
    await expect(
      waitForFederation(client, { catalogId: CATALOG, database: 'ref', timeoutMs: 60_000 }, clock()),
    ).rejects.toBeInstanceOf(FederationSourceException);
  });

  test('another error (no permission) is not retried', async () => {
    glue.on(GetDatabaseCommand).rejects(new AccessDeniedException({ message: 'denied', $metadata: {} }));
    const c = clock();
    await expect(
      waitForFederation(client, { catalogId: CATALOG, database: 'ref', timeoutMs: 30_000 }, c),
    ).rejects.toBeInstanceOf(AccessDeniedException);
    expect(c.slept).toEqual([]);
  });
});
