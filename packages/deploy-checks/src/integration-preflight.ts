// Before the region-level unit creates the S3 Tables analytics integration (the Glue catalog `s3tablescatalog` and
// the Lake Formation registration of `arn:aws:s3tables:<region>:<account>:bucket/*`), or adopts one that exists,
// look at what the account already has. Both are one per account and region: creating the catalog where it exists
// fails with AlreadyExistsException, and the registration with AlreadyExistsException too; a lab that adopts an
// integration without a Lake Formation registration cannot grant anything. Either way the message says what to
// change, before Terraform creates half of it.
import {
  AccessDeniedException as GlueAccessDenied,
  EntityNotFoundException as GlueNotFound,
  GetCatalogCommand,
  type GlueClient,
  type PrincipalPermissions,
} from '@aws-sdk/client-glue';
import {
  AccessDeniedException as LakeFormationAccessDenied,
  DescribeResourceCommand,
  EntityNotFoundException as LakeFormationNotFound,
  type LakeFormationClient,
} from '@aws-sdk/client-lakeformation';
import { DeployerNotAdminError, IntegrationStateError } from './errors';

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

/** A catalog default as `<principal>: <permissions>` (e.g. `IAM_ALLOWED_PRINCIPALS: ALL`). */
export type DefaultPermission = string;

export interface FoundIntegration {
  /**
   * The catalog, when it exists: its federated identifier and the defaults it gives new databases and tables. Any
   * default (IAM_ALLOWED_PRINCIPALS: ALL, what enabling the integration with IAM access control sets) means IAM, not
   * Lake Formation, governs the catalog's objects.
   */
  readonly catalog?: {
    readonly identifier?: string;
    readonly connection?: string;
    readonly databaseDefaults: readonly DefaultPermission[];
    readonly tableDefaults: readonly DefaultPermission[];
  };
  /** The Lake Formation registration, when it exists. */
  readonly registration?: { readonly roleArn?: string; readonly withFederation?: boolean };
}

export interface PreflightClients {
  readonly glue: Pick<GlueClient, 'send'>;
  readonly lakeformation: Pick<LakeFormationClient, 'send'>;
}

const describeDefaults = (list: readonly PrincipalPermissions[] | undefined): DefaultPermission[] =>
  (list ?? []).map(
    (p) =>
      `${p.Principal?.DataLakePrincipalIdentifier ?? 'unknown principal'}: ${(p.Permissions ?? []).join(', ') || 'none'}`,
  );

/** What to do when the deployer may not look: Lake Formation shows these to its administrators. */
const BECOME_ADMIN =
  'Make the deployer (the role or user your AWS credentials are) a Lake Formation data lake administrator first ' +
  '(Lake Formation console → Administrative roles and tasks → Data lake administrators, or ' +
  '`aws lakeformation put-data-lake-settings`, keeping the administrators already there), with IAM permission for ' +
  'glue:GetCatalog and lakeformation:DescribeResource, then apply again. Nothing was created.';

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
      databaseDefaults: describeDefaults(got.Catalog?.CreateDatabaseDefaultPermissions),
      tableDefaults: describeDefaults(got.Catalog?.CreateTableDefaultPermissions),
    };
  } catch (error) {
    // Glue answers AccessDenied for a catalog its caller holds no Lake Formation permission on (the provider reads it
    // as "not found" for that reason), so the preflight cannot tell "absent" from "not yours to see".
    if (error instanceof GlueAccessDenied)
      throw new DeployerNotAdminError(
        `Glue refused GetCatalog on ${input.catalogName} (AccessDeniedException: ${error.message}), so the preflight cannot tell whether the account has the S3 Tables integration. ${BECOME_ADMIN}`,
        { value: input.catalogName, cause: error },
      );
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
    if (error instanceof LakeFormationAccessDenied)
      throw new DeployerNotAdminError(
        `Lake Formation refused DescribeResource on ${input.resourceArn} (AccessDeniedException: ${error.message}), so the preflight cannot tell whether it is registered. ${BECOME_ADMIN}`,
        { value: input.resourceArn, cause: error },
      );
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
      { value: has },
    );
  }
  const missing = [
    found.catalog ? undefined : `the Glue catalog ${catalogName}`,
    found.registration ? undefined : `the Lake Formation registration of ${resourceArn}`,
  ].filter(Boolean);
  if (found.catalog && !found.registration)
    throw new IntegrationStateError(
      `mode 'adopt' expects the S3 Tables analytics integration in Lake Formation mode, but ${catalogName} has no Lake Formation registration of ${resourceArn}: the integration uses IAM access control (AWS's default when it is enabled from the S3 console), and the lab's access is Lake Formation grants. ` +
        lakeFormationProcedure(input, found, true),
      { value: missing },
    );
  if (missing.length > 0)
    throw new IntegrationStateError(
      `mode 'adopt' expects an existing S3 Tables analytics integration in Lake Formation mode, but the account has no ${missing.join(' and no ')}. ` +
        `Set mode: 'create' in ${unitFile} to let the unit create it.`,
      { value: missing },
    );
  if (found.registration?.withFederation === false)
    throw new IntegrationStateError(
      `${resourceArn} is registered with Lake Formation without federation, so ${catalogName} cannot mount the table buckets; re-register it with --with-federation (this unit does not change what it adopts).`,
      { value: resourceArn },
    );
  const defaults = [...(found.catalog?.databaseDefaults ?? []), ...(found.catalog?.tableDefaults ?? [])];
  if (defaults.length > 0)
    throw new IntegrationStateError(
      `mode 'adopt' expects the S3 Tables analytics integration in Lake Formation mode, but ${catalogName} still gives its new databases and tables default permissions (${[
        ...(found.catalog?.databaseDefaults ?? []).map((d) => `databases ${d}`),
        ...(found.catalog?.tableDefaults ?? []).map((d) => `tables ${d}`),
      ].join(
        '; ',
      )}): IAM, not Lake Formation, governs what is in it, so the lab's roles (which have Lake Formation grants and no S3 Tables IAM permissions) would be denied. ` +
        lakeFormationProcedure(input, found, false),
      { value: defaults },
    );
  return `adopting ${catalogName} (${found.catalog?.identifier ?? 'federated'}) and the registration of ${resourceArn} (role ${found.registration?.roleArn ?? 'unknown'}); this unit will not change or delete them`;
}

/**
 * AWS's procedure to move the integration to Lake Formation access control (Lake Formation Developer Guide, "Enable
 * Lake Formation with S3 Tables integration with Data Catalog"): register with federation, then update the catalog
 * with empty default permissions, overwriting the children's. The unit never changes what it adopts, so it says this.
 */
function lakeFormationProcedure(
  input: IntegrationPreflightInput,
  found: FoundIntegration,
  register: boolean,
): string {
  const catalogInput = JSON.stringify({
    FederatedCatalog: {
      Identifier: found.catalog?.identifier ?? input.resourceArn,
      ConnectionName: found.catalog?.connection ?? 'aws:s3tables',
    },
    CreateDatabaseDefaultPermissions: [],
    CreateTableDefaultPermissions: [],
    OverwriteChildResourcePermissionsWithDefault: 'Accept',
  });
  const steps = [
    ...(register
      ? [
          `register the table buckets with Lake Formation: \`aws lakeformation register-resource --resource-arn "${input.resourceArn}" --role-arn <a role with AWS's AmazonS3TablesLakeFormationServiceRole policy that lakeformation.amazonaws.com may assume> --with-federation\` (hybrid access off)`,
        ]
      : []),
    `switch the catalog to Lake Formation: \`aws glue update-catalog --catalog-id ${input.catalogName} --catalog-input '${catalogInput}'\``,
  ];
  return (
    `To use it with the lab, follow AWS's procedure (Lake Formation Developer Guide, "Enable Lake Formation with S3 Tables integration with Data Catalog"): ` +
    steps.map((step, n) => `${n + 1}. ${step}`).join('; ') +
    '. This revokes every IAM-based access to the table buckets of the region at once: other users of the integration need Lake Formation grants before they can query again, so plan it with them. ' +
    `Then apply again. Or use an account and region without the integration, with mode: 'create' in ${input.unitFile}.`
  );
}

export async function preflightIntegration(
  clients: PreflightClients,
  input: IntegrationPreflightInput,
): Promise<string> {
  return judgeIntegration(input, await findIntegration(clients, input));
}
