// Each Lake Formation permission, per statement kind: the engine's prepared statement says what the statement does
// to which table; the check asks for the permission that kind needs (Lake Formation Developer Guide, "Lake Formation
// permissions reference"). IAM allows everything here (an administrator), so only Lake Formation decides.
import { afterAll, describe, expect, test } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { prepareStatement } from '@loglake/lakehouse/testing';
import { JsonStore } from '../store';
import { assumedRoleCaller } from '../iam/principals';
import { ADMINISTRATOR_ACCESS, BUCKET, CATALOG_ID, role } from '../../test/support/authorization';
import { AthenaStatementAuthorizer, SPOKEN_PERMISSION } from './athena-statements';
import { LakeFormationGrants, type LakeFormationPermission } from './lake-formation';
import { LocalIam } from './local-iam';
import type { LakeFormationGrantSpec } from './options';

const dir = mkdtempSync(join(tmpdir(), 'lf-statements-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const CONTEXT = { catalog: `s3tablescatalog/${BUCKET}`, database: 'ref' };
const ALL_TABLE: LakeFormationPermission[] = ['SELECT', 'INSERT', 'DELETE', 'ALTER', 'DROP', 'DESCRIBE'];
const PRINCIPAL = role('lf-subject');

/** An authorizer whose subject holds `table` on ref.target, `database` on ref, and SELECT on ref.source. */
function authorizer(grants: { table?: readonly string[]; database?: readonly string[]; admin?: boolean }) {
  const store = new JsonStore(mkdtempSync(join(dir, 's-')));
  const spec: LakeFormationGrantSpec[] = [
    {
      principal: PRINCIPAL,
      permissions: ['SELECT'],
      catalogId: CATALOG_ID,
      database: 'ref',
      table: 'source',
    },
    ...(grants.table
      ? [
          {
            principal: PRINCIPAL,
            permissions: grants.table,
            catalogId: CATALOG_ID,
            database: 'ref',
            table: 'target',
          },
        ]
      : []),
    ...(grants.database
      ? [{ principal: PRINCIPAL, permissions: grants.database, catalogId: CATALOG_ID, database: 'ref' }]
      : []),
  ];
  const iam = new LocalIam(
    {
      roles: [
        {
          arn: PRINCIPAL,
          trustPolicy: { Statement: [] },
          policies: [{ name: 'admin', document: ADMINISTRATOR_ACCESS }],
        },
      ],
      credentials: [],
    },
    store,
  );
  const lf = new LakeFormationGrants(
    { grants: spec, dataLakeAdmins: grants.admin ? [PRINCIPAL] : [] },
    store,
  );
  return { check: new AthenaStatementAuthorizer(iam, lf, 'us-east-1'), lf };
}
const caller = assumedRoleCaller(PRINCIPAL, 'test');
const reason = (a: ReturnType<typeof authorizer>, sql: string) =>
  a.check.check(caller, prepareStatement(sql), CONTEXT)?.message;

/** Each statement kind, and the table permissions it needs on ref.target (CREATE: CREATE_TABLE on ref). */
const KINDS: ReadonlyArray<{ sql: string; needs: LakeFormationPermission[]; on?: 'database' }> = [
  { sql: 'SELECT * FROM target', needs: ['SELECT'] },
  { sql: 'SELECT * FROM "target$snapshots"', needs: ['SELECT'] },
  { sql: 'INSERT INTO target SELECT * FROM source', needs: ['INSERT'] },
  { sql: 'DELETE FROM target WHERE a = 1', needs: ['DELETE'] },
  { sql: 'UPDATE target SET a = 2 WHERE a = 1', needs: ['INSERT', 'DELETE'] },
  {
    sql: 'MERGE INTO target t USING source s ON t.a = s.a WHEN MATCHED THEN DELETE WHEN NOT MATCHED THEN INSERT (a) VALUES (s.a)',
    needs: ['INSERT', 'DELETE'],
  },
  {
    sql: 'MERGE INTO target t USING source s ON t.a = s.a WHEN NOT MATCHED THEN INSERT (a) VALUES (s.a)',
    needs: ['INSERT'],
  },
  { sql: 'ALTER TABLE target ADD COLUMNS (b string)', needs: ['ALTER'] },
  { sql: "ALTER TABLE target SET TBLPROPERTIES ('k'='v')", needs: ['ALTER'] },
  { sql: 'DROP TABLE target', needs: ['DROP'] },
  { sql: 'DESCRIBE target', needs: ['DESCRIBE'] },
  { sql: 'SHOW CREATE TABLE target', needs: ['DESCRIBE'] },
  { sql: 'CREATE TABLE target (a int)', needs: ['CREATE_TABLE'], on: 'database' },
  { sql: 'CREATE TABLE target AS SELECT * FROM source', needs: ['CREATE_TABLE'], on: 'database' },
];

describe('Lake Formation permission per statement kind (S3 Tables)', () => {
  for (const kind of KINDS) {
    const grant = (permissions: readonly string[]) =>
      kind.on === 'database' ? { database: permissions } : { table: permissions, database: ['DESCRIBE'] };
    const all = kind.on === 'database' ? ['DESCRIBE', 'ALTER', 'DROP', 'CREATE_TABLE'] : ALL_TABLE;

    test(`${kind.sql}: needs ${kind.needs.join(' and ')}`, () => {
      // Exactly what it needs: allowed.
      expect(reason(authorizer(grant(kind.needs)), kind.sql)).toBeUndefined();
      // Everything but one of them: refused, naming it.
      for (const missing of kind.needs) {
        const others = all.filter((p) => p !== missing);
        expect(reason(authorizer(grant(others)), kind.sql)).toBe(
          `Insufficient permissions to execute the query. Insufficient Lake Formation permission(s): Required ${SPOKEN_PERMISSION[missing]} on ${kind.on === 'database' ? 'ref' : 'target'}`,
        );
      }
      // ALL ("Super") covers it.
      expect(reason(authorizer(grant(['ALL'])), kind.sql)).toBeUndefined();
    });
  }

  test('no privilege at all on the resource: "Principal does not have any privilege on specified resource"', () => {
    expect(reason(authorizer({}), 'SELECT * FROM target')).toBe(
      'Insufficient permissions to execute the query. Principal does not have any privilege on specified resource',
    );
    expect(reason(authorizer({}), 'CREATE TABLE other (a int)')).toBe(
      'Insufficient permissions to execute the query. Principal does not have any privilege on specified resource',
    );
  });

  test('a source the statement reads needs SELECT too', () => {
    const a = authorizer({ table: ['INSERT'] });
    expect(reason(a, 'INSERT INTO target SELECT * FROM source')).toBeUndefined();
    expect(reason(a, 'INSERT INTO target SELECT * FROM ref.elsewhere')).toContain(
      'does not have any privilege',
    );
  });

  test("implicit permissions: a data lake administrator describes anything; a table's creator holds all of it", () => {
    expect(reason(authorizer({ admin: true }), 'DESCRIBE target')).toBeUndefined();
    expect(reason(authorizer({ admin: true }), 'SELECT * FROM target')).toContain('Required Select');
    const a = authorizer({ database: ['CREATE_TABLE'] });
    a.check.succeeded(caller, prepareStatement('CREATE TABLE target (a int)'), CONTEXT);
    expect(reason(a, 'DROP TABLE target')).toBeUndefined();
    a.check.succeeded(caller, prepareStatement('DROP TABLE target'), CONTEXT);
    expect(reason(a, 'SELECT * FROM target')).toContain('does not have any privilege');
  });

  test("tables of the default catalog (Glue) are not Lake Formation's here; IAM decides", () => {
    expect(reason(authorizer({}), 'SELECT * FROM awsdatacatalog.snapshots.daily')).toBeUndefined();
  });
});
