// Entry the region-level unit's create-time step runs (env from its terraform_data input): exit non-zero, with the
// message, when the account is not in the state the unit's mode needs, so Terraform stops before creating anything.
import { GlueClient } from '@aws-sdk/client-glue';
import { LakeFormationClient } from '@aws-sdk/client-lakeformation';
import { requiredEnv, regionOfArn } from './env';
import { DeployCheckInputError } from './errors';
import { preflightIntegration, type IntegrationMode } from './integration-preflight';

try {
  const env = process.env;
  const mode = requiredEnv(env, 'MODE', 'create or adopt');
  if (mode !== 'create' && mode !== 'adopt')
    throw new DeployCheckInputError(`MODE="${mode}" must be create or adopt`, { value: mode });
  const resourceArn = requiredEnv(env, 'RESOURCE_ARN', 'the registered S3 Tables ARN, …:bucket/*');
  const region = env.AWS_REGION ?? regionOfArn(resourceArn);
  const line = await preflightIntegration(
    { glue: new GlueClient({ region }), lakeformation: new LakeFormationClient({ region }) },
    {
      mode: mode as IntegrationMode,
      catalogName: requiredEnv(env, 'CATALOG_NAME', 's3tablescatalog'),
      resourceArn,
      unitFile: requiredEnv(env, 'UNIT_FILE', 'the unit file, for the messages'),
    },
  );
  console.log(`s3tables integration preflight: ${line}`);
} catch (error) {
  console.error(`s3tables integration preflight: ${(error as Error).name}: ${(error as Error).message}`);
  process.exit(1);
}
