import { describe, expect, test, beforeEach } from '@jest/globals';
import { mockClient } from 'aws-sdk-client-mock';
import { EntityNotFoundException as GlueNotFound, GetCatalogCommand, GlueClient } from '@aws-sdk/client-glue';
import {
  AccessDeniedException,
  DescribeResourceCommand,
  EntityNotFoundException as LakeFormationNotFound,
  LakeFormationClient,
} from '@aws-sdk/client-lakeformation';
import { IntegrationStateError } from './errors';
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
const catalogThere = () =>
  glue.on(GetCatalogCommand, { CatalogId: 's3tablescatalog' }).resolves({
    Catalog: {
      Name: 's3tablescatalog',
      FederatedCatalog: { Identifier: RESOURCE, ConnectionName: 'aws:s3tables' },
    },
  });
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

  test('adopt: the catalog without a registration is IAM mode → refused with what to do', async () => {
    catalogThere();
    lfMissing();
    await expect(preflightIntegration(clients, input('adopt'))).rejects.toThrow(/IAM access-control mode/);
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

  test('an error other than not-found (no permission) is not taken for "absent"', async () => {
    glueMissing();
    lakeformation
      .on(DescribeResourceCommand)
      .rejects(new AccessDeniedException({ message: 'not a data lake admin', $metadata: {} }));
    await expect(preflightIntegration(clients, input('create'))).rejects.toBeInstanceOf(
      AccessDeniedException,
    );
  });
});
