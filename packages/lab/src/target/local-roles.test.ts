// Offline, with the synthesized stacks' policies enforced. The lab's SQL runs as table-bucket's lab role, which holds
// the Lake Formation grants; the deployer (a data lake administrator) holds none, so the same SELECT signed as the
// deployer is refused. The analyst queries in its own workgroup, and the lab's shared workgroup's history (list,
// results, stop) is refused to it — Lake Formation does not govern query history, the workgroup the role's IAM
// policy names does.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  GetQueryResultsCommand,
  ListQueryExecutionsCommand,
  StopQueryExecutionCommand,
} from '@aws-sdk/client-athena';
import { runQuery } from '@loglake/athena-sql';
import type { LabTarget } from './lab-target';
import { openTarget } from './open-target';
import { assumeRoleSession, type RoleSession } from './role-session';

const dir = mkdtempSync(join(tmpdir(), 'lab-analyst-wg-'));
let target: LabTarget;
let analyst: RoleSession;
let labQuery: string;

beforeAll(async () => {
  target = await openTarget({ target: 'local', dataDir: join(dir, 'local'), bufferIntervalSeconds: 1 });
  labQuery = (await runQuery(target.athenaTarget(), 'SELECT 1')).queryExecutionId;
  analyst = await assumeRoleSession(target, target.resources.roles.analyst!, 'loglake-analyst');
}, 120_000);
afterAll(async () => {
  analyst?.close();
  await target?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("the lab's SQL role, offline", () => {
  test('the target signs its SQL as the lab role, and the role answers a SELECT on the flow table', async () => {
    expect(target.sqlRole).toBe('arn:aws:iam::123456789012:role/loglake-01-lab');
    const r = await runQuery(target.athenaTarget(), 'SELECT count(*) FROM vpc_flow_logs');
    expect(r.rows).toEqual([['0']]);
  });

  test("the deployer has only an administrator's implicit rights: its SELECT is refused by Lake Formation", async () => {
    await expect(
      runQuery({ ...target.athenaTarget(), client: target.athena }, 'SELECT count(*) FROM vpc_flow_logs'),
    ).rejects.toThrow(/Insufficient Lake Formation permission\(s\): Required Select on vpc_flow_logs/);
  });
});

describe("the analyst's workgroup, offline", () => {
  test('the lab provisions the analysts’ workgroup from the analyst unit', () => {
    expect(target.resources.analystWorkgroup).toEqual({
      name: 'loglake-01-analyst',
      bytesScannedCutoff: 1024 ** 3,
    });
  });

  test('in its own workgroup the analyst lists and reads its queries', async () => {
    const own = target.resources.analystWorkgroup!;
    const mine = await runQuery(
      { ...target.athenaTarget(), client: analyst.athena, workgroup: own.name },
      'SELECT 1',
    );
    const listed = await analyst.athena.send(new ListQueryExecutionsCommand({ WorkGroup: own.name }));
    expect(listed.QueryExecutionIds).toContain(mine.queryExecutionId);
  });

  test.each([
    [
      'list the shared workgroup',
      (s: RoleSession) =>
        s.athena.send(new ListQueryExecutionsCommand({ WorkGroup: target.resources.workgroup })),
    ],
    [
      "read a lab query's results",
      (s: RoleSession) => s.athena.send(new GetQueryResultsCommand({ QueryExecutionId: labQuery })),
    ],
    [
      'stop a lab query',
      (s: RoleSession) => s.athena.send(new StopQueryExecutionCommand({ QueryExecutionId: labQuery })),
    ],
    [
      'run a query in the shared workgroup',
      (s: RoleSession) => runQuery({ ...target.athenaTarget(), client: s.athena }, 'SELECT 1'),
    ],
  ])('%s: refused by IAM', async (_, call) => {
    await expect(call(analyst)).rejects.toMatchObject({
      name: 'AccessDeniedException',
      message: expect.stringMatching(
        /assumed-role\/loglake-01-analyst\/loglake-analyst is not authorized to perform: athena:\w+ on resource: .*workgroup\/loglake-01 because/,
      ),
    });
  });
});
