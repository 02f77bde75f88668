// Before the region-level unit creates the S3 Tables analytics integration (the Glue catalog `s3tablescatalog` and
// the Lake Formation registration of `arn:aws:s3tables:<region>:<account>:bucket/*`), or adopts one that exists,
// look at what the account already has. Both are one per account and region: creating the catalog where it exists
// fails with AlreadyExistsException, and the registration with AlreadyExistsException too; a lab that adopts an
// integration without a Lake Formation registration cannot grant anything. Either way the message says what to
// change, before Terraform creates half of it.
import {
  EntityNotFoundException as GlueNotFound,
  GetCatalogCommand,
  type GlueClient,
} from '@aws-sdk/client-glue';
import {
  DescribeResourceCommand,
  EntityNotFoundException as LakeFormationNotFound,
  type LakeFormationClient,
} from '@aws-sdk/client-lakeformation';
import { IntegrationStateError } from './errors';

export type IntegrationMode = 'create' | 'adopt';

export interface IntegrationPreflightInput {
  readonly mode: IntegrationMode;
  /** `s3tablescatalog`. */
  readonly catalogName: string;
  /** `arn:aws:s3tables:<region>:<account>:bucket/*`. */
  readonly resourceArn: string;
  /** The unit file to edit, for the messages. */
  readonly unitFile: string;
}

export interface FoundIntegration {
  /** The catalog's federated identifier, when the catalog exists. */
  readonly catalog?: { readonly identifier?: string; readonly connection?: string };
  /** The Lake Formation registration, when it exists. */
  readonly registration?: { readonly roleArn?: string; readonly withFederation?: boolean };
}

export interface PreflightClients {
  readonly glue: Pick<GlueClient, 'send'>;
  readonly lakeformation: Pick<LakeFormationClient, 'send'>;
}

/** What the account has: Glue GetCatalog and Lake Formation DescribeResource, not-found meaning absent. */
export async function findIntegration(
  clients: PreflightClients,
  input: Pick<IntegrationPreflightInput, 'catalogName' | 'resourceArn'>,
): Promise<FoundIntegration> {
  let catalog: FoundIntegration['catalog'];
  try {
    const got = await clients.glue.send(new GetCatalogCommand({ CatalogId: input.catalogName }));
    catalog = {
      identifier: got.Catalog?.FederatedCatalog?.Identifier,
      connection: got.Catalog?.FederatedCatalog?.ConnectionName,
    };
  } catch (error) {
    if (!(error instanceof GlueNotFound)) throw error;
  }
  let registration: FoundIntegration['registration'];
  try {
    const got = await clients.lakeformation.send(
      new DescribeResourceCommand({ ResourceArn: input.resourceArn }),
    );
    registration = {
      roleArn: got.ResourceInfo?.RoleArn,
      withFederation: got.ResourceInfo?.WithFederation,
    };
  } catch (error) {
    if (!(error instanceof LakeFormationNotFound)) throw error;
  }
  return { ...(catalog ? { catalog } : {}), ...(registration ? { registration } : {}) };
}

/** Throws IntegrationStateError when the account is not in the state the mode needs; returns a line to print. */
export function judgeIntegration(input: IntegrationPreflightInput, found: FoundIntegration): string {
  const { catalogName, resourceArn, unitFile } = input;
  const has = [
    found.catalog ? `the Glue catalog ${catalogName}` : undefined,
    found.registration ? `the Lake Formation registration of ${resourceArn}` : undefined,
  ].filter(Boolean);
  if (input.mode === 'create') {
    if (has.length === 0) return `no ${catalogName} and no registration of ${resourceArn} yet: creating both`;
    throw new IntegrationStateError(
      `This account and region already have ${has.join(' and ')}, which this unit does not manage ` +
        '(another lab, the S3 console\'s "Enable integration", or an earlier deploy whose state was lost). ' +
        `They exist once per account and region. To use them as they are, set mode: 'adopt' in ${unitFile} ` +
        'and deploy again (the lab then only checks they are there, and destroy never touches them). ' +
        'To manage them with this unit instead, import them into its state (terraform import) first.',
      has,
    );
  }
  const missing = [
    found.catalog ? undefined : `the Glue catalog ${catalogName}`,
    found.registration ? undefined : `the Lake Formation registration of ${resourceArn}`,
  ].filter(Boolean);
  if (missing.length > 0)
    throw new IntegrationStateError(
      `mode 'adopt' expects an existing S3 Tables analytics integration in Lake Formation mode, but the account has no ${missing.join(' and no ')}. ` +
        (found.catalog && !found.registration
          ? `${catalogName} without a Lake Formation registration is the integration in IAM access-control mode; the lab grants Lake Formation permissions, so register ${resourceArn} with federation (aws lakeformation register-resource --with-federation) or use an account without the integration and mode: 'create'. `
          : `Set mode: 'create' in ${unitFile} to let the unit create it. `),
      missing,
    );
  if (found.registration?.withFederation === false)
    throw new IntegrationStateError(
      `${resourceArn} is registered with Lake Formation without federation, so ${catalogName} cannot mount the table buckets; re-register it with --with-federation (this unit does not change what it adopts).`,
      resourceArn,
    );
  return `adopting ${catalogName} (${found.catalog?.identifier ?? 'federated'}) and the registration of ${resourceArn} (role ${found.registration?.roleArn ?? 'unknown'}); this unit will not change or delete them`;
}

export async function preflightIntegration(
  clients: PreflightClients,
  input: IntegrationPreflightInput,
): Promise<string> {
  return judgeIntegration(input, await findIntegration(clients, input));
}
