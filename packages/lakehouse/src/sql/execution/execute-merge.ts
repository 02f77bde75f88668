// MERGE INTO with Athena's semantics, computed in DuckDB and committed as one merge-on-read row delta:
// target RIGHT JOIN source; each joined row takes the first WHEN clause whose condition holds; a target row that
// more than one source row would act on fails the statement (MERGE_TARGET_ROW_MULTIPLE_MATCHES) before anything
// is committed. DuckDB's own MERGE is not used: it applies both matches silently.
import type { StatementResult } from '../../contract';
import { sqlIdent as ident } from '../../duckdb/duckdb-session';
import { duckdbType as icebergToDuckdb } from '../../metadata/types';
import { checkColumns } from '../analyzer/table-definition';
import { GenericUserError, MergeMultipleMatchesError } from '../errors';
import { aliasOf, type Expr, type Statement } from '../tree/ast';
import { enforceCutoff, newBinder, rowsResult, throwIfCancelled, type ExecutionContext } from './context';
import { runTrinoSql, withTemporaryTable } from './duckdb-run';
import { loadTarget, targetWriter } from './execute-dml';

const FP = '__loglake_fp';
const POS = '__loglake_pos';
const PRESENT = '__loglake_present';
const CASE = '__loglake_case';

export async function executeMerge(
  ctx: ExecutionContext,
  s: Extract<Statement, { k: 'merge' }>,
): Promise<StatementResult> {
  const target = await loadTarget(ctx, s.target, s.targetAlias);
  const fields = target.schema.fields;
  for (const clause of s.clauses) {
    if (clause.set)
      checkColumns(
        target.schema,
        clause.set.map((a) => a.column),
      );
    if (clause.action === 'insert') {
      if (clause.insertColumns) checkColumns(target.schema, clause.insertColumns);
      const expected = clause.insertColumns?.length ?? fields.length;
      if ((clause.insertValues?.length ?? 0) !== expected) {
        throw new GenericUserError(
          'SYNTAX_ERROR',
          `MERGE INSERT has ${clause.insertValues?.length ?? 0} values for ${expected} target columns`,
          { position: clause.pos },
        );
      }
    }
  }
  const exprs: Expr[] = [s.on];
  for (const clause of s.clauses) {
    if (clause.condition) exprs.push(clause.condition);
    for (const a of clause.set ?? []) exprs.push(a.value);
    exprs.push(...(clause.insertValues ?? []));
  }
  const binder = newBinder(ctx);
  await binder.bindRelations([target.ref, s.source], exprs, {
    rowIdsFor: target.ref,
    allColumnsFor: target.ref,
  });
  enforceCutoff(binder.bytesScanned, ctx.bytesScannedCutoff);
  const source = s.source.k === 'table' ? binder.scanOf(s.source) : undefined;
  const writer = targetWriter(
    binder,
    target,
    exprs,
    s.source.k === 'table' ? [{ alias: aliasOf(s.source), schema: source?.schema ?? undefined }] : [],
  );
  const targetScan = binder.scanOf(target.ref);
  if (!targetScan)
    throw new GenericUserError('GENERIC_USER_ERROR', 'MERGE target could not be bound', { position: s.pos });
  const alias = ident(aliasOf(target.ref));
  const targetRelation = `(SELECT * EXCLUDE (file_path, pos), file_path AS ${FP}, pos AS ${POS}, true AS ${PRESENT} FROM ${targetScan.relationSql}) AS ${alias}`;

  const guards = s.clauses.map((clause) => {
    const presence = clause.matched ? `${alias}.${PRESENT}` : `${alias}.${PRESENT} IS NULL`;
    return clause.condition ? `(${presence} AND ${writer.expr(clause.condition)})` : `(${presence})`;
  });
  const caseColumn = `CASE ${guards.map((g, i) => `WHEN ${g} THEN ${i + 1}`).join(' ')} END AS ${CASE}`;
  const valueColumns = fields.map((field) => {
    const name = field.name.toLowerCase();
    const branches = s.clauses.map((clause, i) => {
      let value = 'NULL';
      if (clause.action === 'update') {
        const assignment = clause.set?.find((a) => a.column.name === name);
        value = assignment ? writer.expr(assignment.value) : `${alias}.${ident(field.name)}`;
      } else if (clause.action === 'insert') {
        const index = clause.insertColumns
          ? clause.insertColumns.findIndex((c) => c.name === name)
          : fields.indexOf(field);
        value = index < 0 ? 'NULL' : writer.expr(clause.insertValues?.[index] as Expr);
      }
      return `WHEN ${guards[i]} THEN ${value}`;
    });
    return `CAST(CASE ${branches.join(' ')} END AS ${icebergToDuckdb(field.type)}) AS ${ident(field.name)}`;
  });

  return withTemporaryTable(ctx.connection, 'merge', async (temp) => {
    await runTrinoSql(
      ctx.connection,
      `CREATE TEMP TABLE ${ident(temp)} AS SELECT ${alias}.${FP} AS ${FP}, ${alias}.${POS} AS ${POS}, ${caseColumn}, ${valueColumns.join(', ')} ` +
        `FROM ${targetRelation} RIGHT JOIN ${writer.relation(s.source)} ON ${writer.expr(s.on)}`,
      ctx.positions,
    );
    const duplicate = (
      await ctx.connection.runAndReadAll(
        `SELECT ${FP}, ${POS} FROM ${ident(temp)} WHERE ${CASE} IS NOT NULL AND ${FP} IS NOT NULL GROUP BY ${FP}, ${POS} HAVING count(*) > 1 LIMIT 1`,
      )
    ).getRowsJS()[0];
    if (duplicate) throw new MergeMultipleMatchesError({ file: duplicate[0], pos: duplicate[1] });

    const caseList = (actions: string[]): string =>
      s.clauses.flatMap((c, i) => (actions.includes(c.action) ? [String(i + 1)] : [])).join(', ') || 'NULL';
    const deleteCases = caseList(['update', 'delete']);
    const appendCases = caseList(['update', 'insert']);
    const counts = (
      await ctx.connection.runAndReadAll(
        `SELECT count(*) FILTER (WHERE ${CASE} IS NOT NULL), count(*) FILTER (WHERE ${CASE} IN (${deleteCases})), count(*) FILTER (WHERE ${CASE} IN (${appendCases})) FROM ${ident(temp)}`,
      )
    ).getRowsJS()[0] ?? [0, 0, 0];
    const [affected, deletes, appends] = counts.map((n) => Number(n));
    throwIfCancelled(ctx);
    if ((deletes ?? 0) > 0 || (appends ?? 0) > 0) {
      await target.table.rowDelta({
        ...(deletes
          ? {
              deletesSql: `SELECT ${FP} AS file_path, ${POS} AS pos FROM ${ident(temp)} WHERE ${CASE} IN (${deleteCases})`,
            }
          : {}),
        ...(appends
          ? {
              appends: {
                sql: `SELECT ${fields.map((f) => ident(f.name)).join(', ')} FROM ${ident(temp)} WHERE ${CASE} IN (${appendCases})`,
              },
            }
          : {}),
        readSnapshotId: targetScan.plan?.snapshotId ?? null,
      });
    }
    return rowsResult(affected ?? 0, binder.bytesScanned);
  });
}
