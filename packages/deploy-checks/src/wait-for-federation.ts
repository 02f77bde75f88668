// A namespace or table created through the S3 Tables API is addressed as a Glue database/table of the federated
// catalog `<account>:s3tablescatalog/<bucket>`. Lake Formation grants on it are made through that name, seconds
// after the S3 Tables call returned, and GrantPermissions fails with EntityNotFoundException if the catalog has not
// surfaced it yet — a failure the Terraform provider does not retry. Terraform alone cannot wait for it, so this
// step does: it polls Glue GetDatabase (and GetTable) until they answer, within a bound, printing what it waits for.
import {
  EntityNotFoundException,
  FederationSourceException,
  FederationSourceRetryableException,
  GetDatabaseCommand,
  GetTableCommand,
  type GlueClient,
} from '@aws-sdk/client-glue';
import { FederationTimeoutError } from './errors';

export interface WaitForFederationInput {
  /** `<account>:s3tablescatalog/<table bucket name>`. */
  readonly catalogId: string;
  readonly database: string;
  /** Also wait for this table of the database. */
  readonly table?: string;
  readonly timeoutMs: number;
}

export interface WaitOptions {
  readonly sleep?: (ms: number) => Promise<void>;
  readonly now?: () => number;
  readonly onProgress?: (line: string) => void;
  /** First delay between polls; doubles up to maxDelayMs. */
  readonly baseDelayMs?: number;
  readonly maxDelayMs?: number;
}

export interface WaitResult {
  readonly attempts: number;
  readonly waitedMs: number;
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * "Not there yet": Glue's own EntityNotFoundException, or, for a federated catalog, the federation source's — a
 * FederationSourceException whose FederationSourceErrorCode is EntityNotFoundException — or its retryable variant
 * (Glue API reference, GetDatabase errors). Which of these S3 Tables federation answers is not documented.
 */
function notVisibleYet(error: unknown): boolean {
  return (
    error instanceof EntityNotFoundException ||
    error instanceof FederationSourceRetryableException ||
    (error instanceof FederationSourceException &&
      error.FederationSourceErrorCode === 'EntityNotFoundException')
  );
}

export async function waitForFederation(
  glue: Pick<GlueClient, 'send'>,
  input: WaitForFederationInput,
  options: WaitOptions = {},
): Promise<WaitResult> {
  const sleep = options.sleep ?? wait;
  const now = options.now ?? Date.now;
  const started = now();
  const what = `${input.catalogId} ${input.database}${input.table ? `.${input.table}` : ''}`;
  let delay = options.baseDelayMs ?? 1000;
  for (let attempt = 1; ; attempt++) {
    try {
      await glue.send(new GetDatabaseCommand({ CatalogId: input.catalogId, Name: input.database }));
      if (input.table)
        await glue.send(
          new GetTableCommand({
            CatalogId: input.catalogId,
            DatabaseName: input.database,
            Name: input.table,
          }),
        );
      return { attempts: attempt, waitedMs: now() - started };
    } catch (error) {
      if (!notVisibleYet(error)) throw error;
      const waited = now() - started;
      if (waited + delay > input.timeoutMs)
        throw new FederationTimeoutError(
          `${what} is still not visible through the Glue Data Catalog after ${Math.round(waited / 1000)} s (${attempt} attempts; last answer: ${(error as Error).message}). ` +
            'Check that the S3 Tables analytics integration (s3tablescatalog) exists in this account and region, then apply again; ' +
            'raise the wait with the unit input that sets it if federation is just slow.',
          { value: what, cause: error },
        );
      options.onProgress?.(
        `waiting for ${what} to appear in the Glue Data Catalog (attempt ${attempt}, ${Math.round(waited / 1000)} s of ${Math.round(input.timeoutMs / 1000)} s)`,
      );
      await sleep(delay);
      delay = Math.min(options.maxDelayMs ?? 10_000, delay * 2);
    }
  }
}
