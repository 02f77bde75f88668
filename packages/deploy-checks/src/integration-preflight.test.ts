import { describe, expect, test, beforeEach } from '@jest/globals';
import { mockClient } from 'aws-sdk-client-mock';
import {
  AccessDeniedException as GlueAccessDenied,
  EntityNotFoundException as GlueNotFound,
  GetCatalogCommand,
  GlueClient,
} from '@aws-sdk/client-glue';
import {
  AccessDeniedException,
  DescribeResourceCommand,
  EntityNotFoundException as LakeFormationNotFound,
  LakeFormationClient,
} from '@aws-sdk/client-lakeformation';
import { DeployerNotAdminError, IntegrationStateError } from './errors';
import { preflightIntegration, type IntegrationMode } from './integration-preflight';

const glue = mockClient(GlueClient);
const lakeformation = mockClient(LakeFormationClient);
const clients = { glue: new GlueClient({}), lakeformation: new LakeFormationClient({}) };
const RESOURCE = 'arn:aws:s3tables:us-east-1:123456789012:bucket/*';
const input = (mode: IntegrationMode) => ({
  mode,
  catalogName: 's3tablescatalog',
  resourceArn: RESOURCE,
  unitFile: 'units/sandbox/us-east-1/_regional/s3tables-integration.ts',
});
const glueMissing = () =>
  glue.on(GetCatalogCommand).rejects(new GlueNotFound({ message: 'Catalog not found', $metadata: {} }));
/** The catalog; `iamDefaults`: as enabling the integration with IAM access control leaves it (AWS's default). */
const catalogThere = (iamDefaults = false) => {
  const iam = [
    { Principal: { DataLakePrincipalIdentifier: 'IAM_ALLOWED_PRINCIPALS' }, Permissions: ['ALL' as const] },
  ];
  return glue.on(GetCatalogCommand, { CatalogId: 's3tablescatalog' }).resolves({
    Catalog: {
      Name: 's3tablescatalog',
      FederatedCatalog: { Identifier: RESOURCE, ConnectionName: 'aws:s3tables' },
      CreateDatabaseDefaultPermissions: iamDefaults ? iam : [],
      CreateTableDefaultPermissions: iamDefaults ? iam : [],
    },
  });
};
const lfMissing = () =>
  lakeformation
    .on(DescribeResourceCommand)
    .rejects(new LakeFormationNotFound({ message: 'Entity not found', $metadata: {} }));
const registered = (withFederation = true) =>
  lakeformation.on(DescribeResourceCommand, { ResourceArn: RESOURCE }).resolves({
    ResourceInfo: {
      ResourceArn: RESOURCE,
      RoleArn: 'arn:aws:iam::123456789012:role/console-s3tables',
      WithFederation: withFederation,
    },
  });

describe('S3 Tables integration preflight', () => {
  beforeEach(() => {
    glue.reset();
    lakeformation.reset();
  });

  test('create: nothing there yet → goes ahead', async () => {
    glueMissing();
    lfMissing();
    await expect(preflightIntegration(clients, input('create'))).resolves.toMatch(/creating both/);
  });

  test.each([
    ['the catalog', () => (catalogThere(), lfMissing())],
    ['the registration', () => (glueMissing(), registered())],
    ['both', () => (catalogThere(), registered())],
  ])(
    'create: %s already there (not managed by the unit) → refused, pointing at adopt',
    async (_, arrange) => {
      arrange();
      const run = preflightIntegration(clients, input('create'));
      await expect(run).rejects.toBeInstanceOf(IntegrationStateError);
      await expect(preflightIntegration(clients, input('create'))).rejects.toThrow(
        "set mode: 'adopt' in units/sandbox/us-east-1/_regional/s3tables-integration.ts",
      );
    },
  );

  test('adopt: catalog and federated registration there → adopted, named', async () => {
    catalogThere();
    registered();
    await expect(preflightIntegration(clients, input('adopt'))).resolves.toBe(
      `adopting s3tablescatalog (${RESOURCE}) and the registration of ${RESOURCE} (role arn:aws:iam::123456789012:role/console-s3tables); this unit will not change or delete them`,
    );
  });

  /** AWS's whole procedure to Lake Formation mode, as the refusal must spell it. */
  const UPDATE_CATALOG = `aws glue update-catalog --catalog-id s3tablescatalog --catalog-input '{"FederatedCatalog":{"Identifier":"${RESOURCE}","ConnectionName":"aws:s3tables"},"CreateDatabaseDefaultPermissions":[],"CreateTableDefaultPermissions":[],"OverwriteChildResourcePermissionsWithDefault":"Accept"}'`;

  test("adopt: the catalog without a registration is IAM mode → refused with both of AWS's steps", async () => {
    catalogThere(true);
    lfMissing();
    const run = preflightIntegration(clients, input('adopt'));
    await expect(run).rejects.toBeInstanceOf(IntegrationStateError);
    const message = await run.catch((e: Error) => e.message);
    expect(message).toContain('uses IAM access control');
    expect(message).toContain(
      `1. register the table buckets with Lake Formation: \`aws lakeformation register-resource --resource-arn "${RESOURCE}"`,
    );
    expect(message).toContain('--with-federation');
    expect(message).toContain(`2. switch the catalog to Lake Formation: \`${UPDATE_CATALOG}\``);
    expect(message).toContain('revokes every IAM-based access');
  });

  test('adopt: registered with federation but the catalog keeps IAM defaults (the hybrid state) → refused with the update-catalog step', async () => {
    catalogThere(true);
    registered();
    const run = preflightIntegration(clients, input('adopt'));
    await expect(run).rejects.toBeInstanceOf(IntegrationStateError);
    const message = await run.catch((e: Error) => e.message);
    expect(message).toContain(
      'still gives its new databases and tables default permissions (databases IAM_ALLOWED_PRINCIPALS: ALL; tables IAM_ALLOWED_PRINCIPALS: ALL)',
    );
    expect(message).toContain(`1. switch the catalog to Lake Formation: \`${UPDATE_CATALOG}\``);
    expect(message).not.toContain('register-resource');
    // The one request it made of Glue: the catalog by name.
    expect(glue.commandCalls(GetCatalogCommand).map((c) => c.args[0].input)).toEqual([
      { CatalogId: 's3tablescatalog' },
    ]);
  });

  test('adopt: nothing there → refused, pointing at create', async () => {
    glueMissing();
    lfMissing();
    await expect(preflightIntegration(clients, input('adopt'))).rejects.toThrow(/Set mode: 'create'/);
  });

  test('adopt: registered without federation → refused', async () => {
    catalogThere();
    registered(false);
    await expect(preflightIntegration(clients, input('adopt'))).rejects.toThrow(/without federation/);
  });

  test('Glue refuses GetCatalog (the deployer is no data lake administrator) → not "absent": make it one first', async () => {
    glue.on(GetCatalogCommand).rejects(
      new GlueAccessDenied({
        message: 'Insufficient Lake Formation permission(s) on s3tablescatalog',
        $metadata: {},
      }),
    );
    lfMissing();
    for (const mode of ['create', 'adopt'] as const) {
      const run = preflightIntegration(clients, input(mode));
      await expect(run).rejects.toBeInstanceOf(DeployerNotAdminError);
      await expect(run).rejects.toThrow('Make the deployer');
      await expect(run).rejects.toThrow('a Lake Formation data lake administrator first');
    }
  });

  test('Lake Formation refuses DescribeResource → not "absent" either, the same fix', async () => {
    glueMissing();
    lakeformation
      .on(DescribeResourceCommand)
      .rejects(new AccessDeniedException({ message: 'not a data lake admin', $metadata: {} }));
    const run = preflightIntegration(clients, input('create'));
    await expect(run).rejects.toBeInstanceOf(DeployerNotAdminError);
    await expect(run).rejects.toThrow('data lake administrator first');
  });

  test('any other error propagates as it is', async () => {
    glue.on(GetCatalogCommand).rejects(new Error('socket hang up'));
    await expect(preflightIntegration(clients, input('create'))).rejects.toThrow('socket hang up');
  });
});
