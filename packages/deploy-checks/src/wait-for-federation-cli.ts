// Entry the create-time wait runs before Lake Formation grants on a new namespace or table (env from its
// terraform_data input). Exits non-zero after the bound, so the grants never run against a name Glue cannot see.
import { GlueClient } from '@aws-sdk/client-glue';
import { positiveSeconds, requiredEnv } from './env';
import { waitForFederation } from './wait-for-federation';

try {
  const env = process.env;
  const catalogId = requiredEnv(env, 'CATALOG_ID', '<account>:s3tablescatalog/<bucket>');
  const database = requiredEnv(env, 'DATABASE', 'the namespace');
  const table = env.TABLE ? env.TABLE.trim() : undefined;
  const timeoutMs = positiveSeconds(env, 'TIMEOUT_SECONDS', 180) * 1000;
  const result = await waitForFederation(
    new GlueClient({ region: env.AWS_REGION }),
    { catalogId, database, ...(table ? { table } : {}), timeoutMs },
    { onProgress: (line) => console.log(line) },
  );
  console.log(
    `${catalogId} ${database}${table ? `.${table}` : ''} is visible through Glue (after ${result.attempts} attempt${result.attempts === 1 ? '' : 's'}, ${Math.round(result.waitedMs / 1000)} s)`,
  );
} catch (error) {
  console.error(`wait-for-federation: ${(error as Error).name}: ${(error as Error).message}`);
  process.exit(1);
}
