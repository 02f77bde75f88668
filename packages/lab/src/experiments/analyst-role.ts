// Part 2's "still to come": a read-only analyst role, shown to be read-only by trying to write with it. As the
// analyst (STS AssumeRole of the analyst unit's role, with the lab's own credentials): the one-hour question on both
// tables succeeds, with the lab's answer; then every kind of write is tried and each is refused — SQL on a probe
// table the lab creates in `ref` (a namespace the analyst may read): DELETE, INSERT, MERGE, DROP TABLE,
// CREATE TABLE, ALTER TABLE; and the APIs: reading the Firehose error output, PutRecordBatch, changing the workgroup,
// table maintenance; and the lab's own queries, which Lake Formation does not govern (Athena keeps query history and
// results per workgroup): listing the shared workgroup's history, reading a lab query's results, stopping it. The
// analyst queries in a workgroup of its own. The lab then runs the same statements and they succeed: the analyst's
// refusals are permissions, not broken SQL. Everything the analyst tries is harmless if it were allowed by mistake (a probe table,
// a record that is not JSON, settings set to the values they have). Locally the endpoint enforces the synthesized
// stacks' policies and grants; on AWS the deployed role's.
import {
  GetQueryExecutionCommand,
  GetQueryResultsCommand,
  ListQueryExecutionsCommand,
  StopQueryExecutionCommand,
  UpdateWorkGroupCommand,
} from '@aws-sdk/client-athena';
import { PutRecordBatchCommand } from '@aws-sdk/client-firehose';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { PutTableMaintenanceConfigurationCommand } from '@aws-sdk/client-s3tables';
import { ExperimentFailedError } from '../errors';
import { flowTableAddress } from '../iceberg/catalog';
import { AthenaQueryFailedError, runQuery, type AthenaTarget } from '@loglake/athena-sql';
import { runNamedQuery } from '../query/run-named-query';
import { formatCount } from '../report/format';
import { assumeRoleSession, type RoleSession } from '../target/role-session';
import type { Experiment, ExperimentContext, ExperimentOutcome } from './context';

export const PROBE = 'ref.analyst_probe';
export const PROBE_CREATED = 'ref.analyst_created';
const SESSION_NAME = 'loglake-analyst';

/** The SQL the analyst tries (and the lab then runs, in this order, on its probe table). */
export const ANALYST_WRITES: ReadonlyArray<{ label: string; sql: string }> = [
  { label: 'INSERT', sql: `INSERT INTO ${PROBE} VALUES ('analyst', 2)` },
  {
    label: 'MERGE',
    sql:
      `MERGE INTO ${PROBE} t USING (SELECT 'probe' AS k, 3 AS v) s ON t.k = s.k ` +
      'WHEN MATCHED THEN UPDATE SET v = s.v WHEN NOT MATCHED THEN INSERT (k, v) VALUES (s.k, s.v)',
  },
  { label: 'DELETE', sql: `DELETE FROM ${PROBE} WHERE k = 'probe'` },
  { label: 'ALTER TABLE', sql: `ALTER TABLE ${PROBE} ADD COLUMNS (note string)` },
  {
    label: 'CREATE TABLE',
    sql: `CREATE TABLE ${PROBE_CREATED} (k string) TBLPROPERTIES ('table_type' = 'iceberg')`,
  },
  { label: 'DROP TABLE', sql: `DROP TABLE ${PROBE}` },
];

/** One refusal (or, if the role allowed it, not one): what was tried and the error it got. */
export interface Attempt {
  readonly label: string;
  readonly refused: boolean;
  readonly error: string;
  /** For SQL, Athena's AthenaError type (234: a Lake Formation error); for an API, the exception's name. */
  readonly errorType: string;
}

/** The lab's SQL target; as the analyst, the analysts' own workgroup (the only one its role may use). */
const sqlTarget = (ctx: ExperimentContext, session?: RoleSession, database = 'ref'): AthenaTarget => {
  const lab = ctx.target.athenaTarget(database);
  const own = ctx.target.resources.analystWorkgroup;
  return session && own
    ? { ...lab, client: session.athena, workgroup: own.name, bytesScannedCutoff: own.bytesScannedCutoff }
    : lab;
};

/** Runs a statement as the analyst; a FAILED query is a refusal, with Athena's reason and error type. */
async function trySql(
  ctx: ExperimentContext,
  session: RoleSession,
  label: string,
  sql: string,
): Promise<Attempt> {
  try {
    await runQuery(sqlTarget(ctx, session), sql);
    return { label, refused: false, error: 'it ran', errorType: 'none' };
  } catch (error) {
    if (!(error instanceof AthenaQueryFailedError)) throw error;
    const execution = error.queryExecutionId
      ? (
          await session.athena.send(
            new GetQueryExecutionCommand({ QueryExecutionId: error.queryExecutionId }),
          )
        ).QueryExecution
      : undefined;
    return {
      label,
      refused: true,
      error: error.reason,
      errorType: String(execution?.Status?.AthenaError?.ErrorType ?? 'unknown'),
    };
  }
}

/** The API refusals AWS's SDKs raise: AccessDeniedException (JSON protocols) and S3's AccessDenied. */
const ACCESS_DENIED = new Set(['AccessDeniedException', 'AccessDenied']);

async function tryApi(label: string, call: () => Promise<unknown>): Promise<Attempt> {
  try {
    await call();
    return { label, refused: false, error: 'it was allowed', errorType: 'none' };
  } catch (error) {
    const e = error as { name?: string; message?: string };
    if (!e.name || !ACCESS_DENIED.has(e.name)) throw error;
    return { label, refused: true, error: e.message ?? e.name, errorType: e.name };
  }
}

/**
 * The lab's queries as the analyst would reach them through Athena (Lake Formation does not govern query history):
 * the shared workgroup's history, one lab query's results, stopping it (it has finished: nothing would stop).
 */
function othersQueries(
  ctx: ExperimentContext,
  session: RoleSession,
  labQuery: string,
): Array<Promise<Attempt>> {
  const workgroup = ctx.target.resources.workgroup;
  return [
    tryApi(`list the ${workgroup} workgroup's queries`, () =>
      session.athena.send(new ListQueryExecutionsCommand({ WorkGroup: workgroup, MaxResults: 5 })),
    ),
    tryApi("read a lab query's results", () =>
      session.athena.send(new GetQueryResultsCommand({ QueryExecutionId: labQuery, MaxResults: 1 })),
    ),
    tryApi('stop a lab query', () =>
      session.athena.send(new StopQueryExecutionCommand({ QueryExecutionId: labQuery })),
    ),
  ];
}

/** The API calls the analyst tries; each would change nothing if it were allowed. */
function apiAttempts(ctx: ExperimentContext, session: RoleSession): Array<Promise<Attempt>> {
  const r = ctx.target.resources;
  return [
    tryApi('read the Firehose error output', () =>
      session.s3.send(new ListObjectsV2Command({ Bucket: r.errorBucketName, MaxKeys: 10 })),
    ),
    tryApi('PutRecordBatch', () =>
      session.firehose.send(
        new PutRecordBatchCommand({
          DeliveryStreamName: r.streamName,
          // Not JSON: had it been accepted it would go to the error output, never to the table.
          Records: [{ Data: new TextEncoder().encode('analyst probe, not a flow record') }],
        }),
      ),
    ),
    tryApi('change the workgroup', () =>
      session.athena.send(
        new UpdateWorkGroupCommand({
          WorkGroup: r.workgroup,
          ConfigurationUpdates: { BytesScannedCutoffPerQuery: r.bytesScannedCutoff },
        }),
      ),
    ),
    tryApi('table maintenance', () =>
      session.s3tables.send(
        new PutTableMaintenanceConfigurationCommand({
          ...flowTableAddress(r),
          type: 'icebergCompaction',
          value: {
            status: 'enabled',
            settings: { icebergCompaction: { targetFileSizeMB: r.maintenance.compactionTargetFileSizeMb } },
          },
        }),
      ),
    ),
  ];
}

export const analystRole: Experiment = {
  name: 'analyst-role',
  title: 'A read-only analyst role',
  part: 2,
  async run(ctx): Promise<ExperimentOutcome> {
    const roleArn = ctx.target.resources.roles.analyst;
    if (!roleArn) {
      if (ctx.target.kind === 'local')
        throw new ExperimentFailedError(
          'The synthesized stacks have no analyst unit (output analyst.role_arn).',
          { value: 'analyst' },
        );
      const skip = `no analyst.role_arn in ${ctx.target.outputsFile ?? 'the outputs file'}; deploy the analyst unit and write its outputs`;
      return { result: `skipped: ${skip}`, measures: { skipped: skip }, checks: {} };
    }
    const own = ctx.target.resources.analystWorkgroup;
    if (!own) {
      if (ctx.target.kind === 'local')
        throw new ExperimentFailedError(
          'The synthesized analyst unit has no workgroup of its own (inputs.workgroup).',
          { value: 'analyst' },
        );
      const skip = `no analyst.analyst_workgroup in ${ctx.target.outputsFile ?? 'the outputs file'}: the deployed analyst unit predates its own workgroup; deploy it again (pnpm lab deploy analyst) and write its outputs`;
      return { result: `skipped: ${skip}`, measures: { skipped: skip }, checks: {} };
    }
    const lab = sqlTarget(ctx);
    // The probe the writes aim at: a table of `ref` (where the analyst may read), created by the lab.
    await runQuery(lab, `DROP TABLE IF EXISTS ${PROBE_CREATED}`);
    await runQuery(lab, `DROP TABLE IF EXISTS ${PROBE}`);
    await runQuery(lab, `CREATE TABLE ${PROBE} (k string, v int) TBLPROPERTIES ('table_type' = 'iceberg')`);
    // A query of the lab's whose results sit in the shared workgroup's history.
    const labQuery = (await runQuery(lab, `INSERT INTO ${PROBE} VALUES ('probe', 1)`)).queryExecutionId;

    const session = await assumeRoleSession(ctx.target, roleArn, SESSION_NAME);
    ctx.log(`  assumed ${roleArn} as ${session.arn}`);
    try {
      const hourStart = (await ctx.rows('network/busiest_hour'))[0]?.hour_start as string;
      const asAnalyst = sqlTarget(ctx, session, ctx.target.resources.namespace);
      // The question on both tables (network and enriched grants), as the analyst and as the lab's SQL.
      const answers = await Promise.all(
        ['network/one_hour', 'enriched/one_hour'].map(async (name) => {
          const mine = await runNamedQuery(asAnalyst, name, { hour_start: hourStart });
          const theirs = await ctx.result(name, { hour_start: hourStart });
          return { mine: mine.statements.at(-1)?.result.rows ?? [], theirs: theirs.rows };
        }),
      );
      const rows = answers[0]?.mine ?? [];
      const sameAnswer = answers.every((a) => JSON.stringify(a.mine) === JSON.stringify(a.theirs));
      const flows = rows.reduce((n, row) => n + Number(row[1] ?? 0), 0);

      const attempts: Attempt[] = [];
      for (const w of ANALYST_WRITES) attempts.push(await trySql(ctx, session, w.label, w.sql));
      attempts.push(...(await Promise.all(apiAttempts(ctx, session))));
      const history = await Promise.all(othersQueries(ctx, session, labQuery));
      for (const a of [...attempts, ...history])
        ctx.log(`  ${a.label}: ${a.refused ? 'refused' : 'ALLOWED'} — ${a.error}`);

      // The same statements as the lab's SQL: they run, so the analyst's failures are its permissions.
      const labRan: string[] = [];
      for (const w of ANALYST_WRITES) {
        await runQuery(lab, w.sql).then(
          () => labRan.push(w.label),
          (error: unknown) => ctx.log(`  the lab's ${w.label} failed too: ${(error as Error).message}`),
        );
      }
      await runQuery(lab, `DROP TABLE IF EXISTS ${PROBE_CREATED}`);
      await runQuery(lab, `DROP TABLE IF EXISTS ${PROBE}`);

      const refused = attempts.filter((a) => a.refused);
      // By type: AthenaError type 234 is a Lake Formation error; the APIs' AccessDenied* are IAM's.
      const byLakeFormation = refused.filter((a) => a.errorType === '234').length;
      const byIam = refused.filter((a) => ACCESS_DENIED.has(a.errorType)).length;
      const other = refused.length - byLakeFormation - byIam;
      const historyRefused = history.filter((a) => a.refused).length;
      return {
        result:
          `one-hour question answered as the analyst (${formatCount(flows)} flows, ${sameAnswer ? "same as the lab's" : 'a DIFFERENT answer'}); ` +
          `${refused.length} of ${attempts.length} writes refused` +
          ` (${byLakeFormation} by Lake Formation, ${byIam} by IAM${other > 0 ? `, ${other} otherwise` : ''}); ` +
          `the lab's query history: ${historyRefused} of ${history.length} refused (it queries in ${own.name})`,
        details: [...attempts, ...history].map((a) => ({
          label: a.label,
          text: `${a.refused ? 'refused' : 'ALLOWED'}: ${a.error}`,
        })),
        measures: {
          session: session.arn,
          hourStart,
          flows,
          refused: refused.length,
          attempts: attempts.length,
          refusedByLakeFormation: byLakeFormation,
          analystWorkgroup: own.name,
          historyRefused,
          labRan: labRan.join(', '),
          ...Object.fromEntries(
            [...attempts, ...history].map((a) => [`refused: ${a.label}`, `${a.errorType}: ${a.error}`]),
          ),
        },
        checks: {
          oneHourAnswered: rows.length > 0,
          sameAnswer,
          everyWriteRefused: refused.length === attempts.length,
          othersQueriesRefused: historyRefused === history.length,
          labRanTheSameSql: labRan.length === ANALYST_WRITES.length,
        },
      };
    } finally {
      session.close();
    }
  },
};
