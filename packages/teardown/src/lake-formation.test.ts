import { beforeEach, describe, expect, test } from '@jest/globals';
import {
  AccessDeniedException,
  LakeFormationClient,
  ListPermissionsCommand,
  type PrincipalResourcePermissions,
} from '@aws-sdk/client-lakeformation';
import { mockClient } from 'aws-sdk-client-mock';
import { createClients } from './clients';
import { KINDS } from './kinds';
import { LAKE_FORMATION_KIND, lakeFormationPermissions, labGrant } from './lake-formation';
import type { LabScope } from './scope';
import { checkOnce } from './verify';

const scope: LabScope = { labId: '01', namePrefix: 'loglake-01', region: 'us-east-1' };
const clients = createClients('us-east-1');
const lf = mockClient(LakeFormationClient);
beforeEach(() => {
  lf.reset();
});

const role = (name: string) => `arn:aws:iam::123456789012:role/${name}`;
const ADMIN = role('Admin');
const LAB_CATALOG = '123456789012:s3tablescatalog/loglake-01-flow-logs';
const grant = (
  principal: string,
  resource: PrincipalResourcePermissions['Resource'],
  permissions: string[],
  grantable: string[] = [],
): PrincipalResourcePermissions => ({
  Principal: { DataLakePrincipalIdentifier: principal },
  Resource: resource,
  Permissions: permissions as PrincipalResourcePermissions['Permissions'],
  PermissionsWithGrantOption: grantable as PrincipalResourcePermissions['PermissionsWithGrantOption'],
});

describe('the lab’s Lake Formation grants', () => {
  test('a grant to a lab role is reported, whatever its resource (here one already deleted)', () => {
    // Prepare
    const firehoseGrant = grant(
      role('loglake-01-firehose'),
      { Database: { CatalogId: '123456789012:s3tablescatalog/gone-bucket', Name: 'network' } },
      ['DESCRIBE'],
    );
    // Act
    const row = labGrant(firehoseGrant, scope);
    // Assess
    expect(row).toEqual({
      kind: LAKE_FORMATION_KIND,
      name: 'arn:aws:iam::123456789012:role/loglake-01-firehose',
      detail: 'DESCRIBE on database 123456789012:s3tablescatalog/gone-bucket/network [lab role]',
    });
    // The contradicting input: another lab's role on the same resource is not this lab's.
    expect(
      labGrant(
        { ...firehoseGrant, Principal: { DataLakePrincipalIdentifier: role('loglake-02-firehose') } },
        scope,
      ),
    ).toBeUndefined();
  });

  test('a lab role with an IAM path is still the lab’s', () => {
    const row = labGrant(
      grant('arn:aws:iam::123456789012:role/service-role/loglake-01-snapshot-build', { Catalog: {} }, [
        'DESCRIBE',
      ]),
      scope,
    );
    expect(row?.detail).toBe('DESCRIBE on catalog (account default) [lab role]');
  });

  test('a grant to an outside principal on the lab bucket’s catalog is reported, naming principal, permissions and resource', () => {
    // Prepare
    const deployerGrant = grant(
      ADMIN,
      { Table: { CatalogId: LAB_CATALOG, DatabaseName: 'network', TableWildcard: {} } },
      ['ALL'],
      ['SELECT'],
    );
    // Act
    const row = labGrant(deployerGrant, scope);
    // Assess
    expect(row).toEqual({
      kind: LAKE_FORMATION_KIND,
      name: ADMIN,
      detail:
        'ALL (grantable: SELECT) on table 123456789012:s3tablescatalog/loglake-01-flow-logs/network.* [lab resource]',
    });
    // Another lab's bucket, or another bucket altogether, is not this lab's.
    for (const other of ['loglake-02-flow-logs', 'analytics'])
      expect(
        labGrant(
          grant(
            ADMIN,
            {
              Table: {
                CatalogId: `123456789012:s3tablescatalog/${other}`,
                DatabaseName: 'network',
                TableWildcard: {},
              },
            },
            ['ALL'],
          ),
          scope,
        ),
      ).toBeUndefined();
  });

  test('a grant on a lab Glue database (default catalog) is reported; another lab’s database is not', () => {
    const snapshots = (name: string) =>
      grant(ADMIN, { Database: { CatalogId: '123456789012', Name: name } }, ['ALL']);
    expect(labGrant(snapshots('loglake_01_snapshots'), scope)?.detail).toBe(
      'ALL on database 123456789012/loglake_01_snapshots [lab resource]',
    );
    expect(labGrant(snapshots('loglake_02_snapshots'), scope)).toBeUndefined();
    expect(labGrant(snapshots('default'), scope)).toBeUndefined();
  });

  test('columns, the child catalog itself, cells filters and data locations under a lab bucket are the lab’s', () => {
    const rows = [
      grant(
        ADMIN,
        {
          TableWithColumns: {
            CatalogId: LAB_CATALOG,
            DatabaseName: 'ref',
            Name: 'inventory',
            ColumnWildcard: { ExcludedColumnNames: ['owner'] },
          },
        },
        ['SELECT'],
      ),
      grant(ADMIN, { Catalog: { Id: LAB_CATALOG } }, ['DESCRIBE']),
      grant(
        ADMIN,
        {
          DataCellsFilter: {
            TableCatalogId: LAB_CATALOG,
            DatabaseName: 'ref',
            TableName: 'inventory',
            Name: 'no-pii',
          },
        },
        ['SELECT'],
      ),
      grant(
        ADMIN,
        { DataLocation: { ResourceArn: 'arn:aws:s3:::loglake-01-snapshots-123456789012/daily' } },
        ['DATA_LOCATION_ACCESS'],
      ),
      grant(
        ADMIN,
        {
          DataLocation: {
            ResourceArn: 'arn:aws:s3tables:us-east-1:123456789012:bucket/loglake-01-flow-logs',
          },
        },
        ['DATA_LOCATION_ACCESS'],
      ),
    ].map((g) => labGrant(g, scope)?.detail);
    expect(rows).toEqual([
      'SELECT on columns (all columns except owner) of table 123456789012:s3tablescatalog/loglake-01-flow-logs/ref.inventory [lab resource]',
      'DESCRIBE on catalog 123456789012:s3tablescatalog/loglake-01-flow-logs [lab resource]',
      'SELECT on data cells filter no-pii on 123456789012:s3tablescatalog/loglake-01-flow-logs/ref.inventory [lab resource]',
      'DATA_LOCATION_ACCESS on data location arn:aws:s3:::loglake-01-snapshots-123456789012/daily [lab resource]',
      'DATA_LOCATION_ACCESS on data location arn:aws:s3tables:us-east-1:123456789012:bucket/loglake-01-flow-logs [lab resource]',
    ]);
  });

  test('the region-level integration and outside grants are never the lab’s', () => {
    // The region-level data-access role is named without a lab id; s3tablescatalog and bucket/* are shared.
    const regionRole = role('loglake-lakeformation-s3tables');
    const outside = [
      grant(
        regionRole,
        { DataLocation: { ResourceArn: 'arn:aws:s3tables:us-east-1:123456789012:bucket/*' } },
        ['DATA_LOCATION_ACCESS'],
      ),
      grant(ADMIN, { Catalog: { Id: '123456789012:s3tablescatalog' } }, ['ALL']),
      grant(ADMIN, { Catalog: { Id: 's3tablescatalog' } }, ['DESCRIBE']),
      grant('IAM_ALLOWED_PRINCIPALS', { Database: { CatalogId: '123456789012', Name: 'default' } }, ['ALL']),
      grant(
        role('loglake-02-firehose'),
        {
          Table: {
            CatalogId: '123456789012:s3tablescatalog/loglake-02-flow-logs',
            DatabaseName: 'network',
            Name: 'vpc_flow_logs',
          },
        },
        ['ALL'],
      ),
      grant(ADMIN, { LFTag: { TagKey: 'loglake-01', TagValues: ['x'] } }, ['ASSOCIATE']),
      grant(ADMIN, { DataLocation: { ResourceArn: 'arn:aws:s3:::someone-elses-bucket/loglake-01' } }, [
        'DATA_LOCATION_ACCESS',
      ]),
    ];
    expect(outside.map((g) => labGrant(g, scope))).toEqual(outside.map(() => undefined));
  });

  test('lists every page of ListPermissions, unfiltered, and keeps only the lab’s grants', async () => {
    // Prepare
    lf.on(ListPermissionsCommand)
      .resolvesOnce({
        PrincipalResourcePermissions: [
          grant(ADMIN, { Catalog: { Id: '123456789012:s3tablescatalog' } }, ['ALL']),
          grant(
            role('loglake-01-firehose'),
            { Table: { CatalogId: LAB_CATALOG, DatabaseName: 'network', Name: 'vpc_flow_logs' } },
            ['ALL'],
          ),
        ],
        NextToken: 'page-2',
      })
      .resolvesOnce({
        PrincipalResourcePermissions: [
          grant(ADMIN, { Database: { CatalogId: LAB_CATALOG, Name: 'ref' } }, ['DESCRIBE']),
        ],
      });
    // Act
    const listed = await lakeFormationPermissions.list(clients, scope);
    // Assess
    expect(listed.map((l) => [l.name, l.detail])).toEqual([
      [role('loglake-01-firehose'), `ALL on table ${LAB_CATALOG}/network.vpc_flow_logs [lab role]`],
      [ADMIN, `DESCRIBE on database ${LAB_CATALOG}/ref [lab resource]`],
    ]);
    const calls = lf.commandCalls(ListPermissionsCommand).map((c) => c.args[0].input);
    expect(calls).toEqual([{ NextToken: undefined }, { NextToken: 'page-2' }]);
  });

  test('is one of the kinds the verifier checks, and a failing ListPermissions leaves it unverified, not clean', async () => {
    // Prepare
    lf.on(ListPermissionsCommand).rejects(
      new AccessDeniedException({ message: 'not a data lake administrator', $metadata: {} }),
    );
    const lister = KINDS.find((k) => k.kind === LAKE_FORMATION_KIND);
    // Act
    const result = await checkOnce(clients, scope, [lister!]);
    // Assess
    expect(result).toEqual({
      leftovers: [],
      unverified: [
        { kind: LAKE_FORMATION_KIND, reason: 'AccessDeniedException: not a data lake administrator' },
      ],
      clean: false,
    });
  });

  test('no lab grant left: the kind is clean', async () => {
    lf.on(ListPermissionsCommand).resolves({
      PrincipalResourcePermissions: [
        grant('IAM_ALLOWED_PRINCIPALS', { Database: { CatalogId: '123456789012', Name: 'default' } }, [
          'ALL',
        ]),
      ],
    });
    expect(await checkOnce(clients, scope, [lakeFormationPermissions])).toEqual({
      leftovers: [],
      unverified: [],
      clean: true,
    });
  });
});
