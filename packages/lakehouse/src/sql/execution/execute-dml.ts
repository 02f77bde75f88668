// INSERT (one append commit), DELETE (position deletes, one commit) and UPDATE (deletes + new rows in one
// row-delta commit). Rows are computed into a temp table first, so the commit sees exactly what was counted.
import type { Schema, StatementResult, TableHandle } from '../../contract';
import { sqlIdent as ident } from '../../duckdb/duckdb-session';
import { currentSchema } from '../../metadata/table-metadata';
import { duckdbType as icebergToDuckdb } from '../../metadata/types';
import { boundColumns } from '../analyzer/binder';
import { ExpressionTypes } from '../analyzer/expression-types';
import { loadResolvedTable, resolveName } from '../analyzer/name-resolution';
import { checkColumns } from '../analyzer/table-definition';
import { icebergToAthena } from '../analyzer/types';
import { GenericUserError } from '../errors';
import {
  aliasOf,
  type Expr,
  type Identifier,
  type QualifiedName,
  type Statement,
  type TableRelation,
} from '../tree/ast';
import { DuckdbWriter } from '../translation/duckdb-writer';
import {
  enforceCutoff,
  newBinder,
  rowsResult,
  throwIfCancelled,
  writeQuery,
  type ExecutionContext,
} from './context';
import { countRows, createTemporaryTable, runTrinoSql, withTemporaryTable } from './duckdb-run';

type Assignment = Extract<Statement, { k: 'update' }>['set'][number];

export interface Target {
  table: TableHandle;
  schema: Schema;
  ref: TableRelation;
}

export async function loadTarget(
  ctx: ExecutionContext,
  name: QualifiedName,
  alias: Identifier | undefined,
): Promise<Target> {
  const resolved = resolveName(name, ctx.session, ctx.catalogs);
  const table = await loadResolvedTable(resolved, ctx.services, name.pos);
  const schema = currentSchema(await table.metadata());
  return { table, schema, ref: { k: 'table', name, alias, pos: name.pos } };
}

/** Analyzes expressions over the target's columns (Trino's operator rules) and a writer that uses their types. */
export function targetWriter(
  binder: Parameters<typeof writeQuery>[0],
  target: Target,
  exprs: Expr[],
  others: { alias: string; schema?: Schema }[] = [],
): DuckdbWriter {
  const types = new ExpressionTypes(boundColumns(binder));
  types.expressions(exprs, [{ alias: aliasOf(target.ref), schema: target.schema }, ...others]);
  return new DuckdbWriter(binder, types);
}

export async function executeInsert(
  ctx: ExecutionContext,
  s: Extract<Statement, { k: 'insert' }>,
): Promise<StatementResult> {
  const target = await loadTarget(ctx, s.target, undefined);
  const targetColumns =
    s.columns ??
    target.schema.fields.map((f) => ({ name: f.name.toLowerCase(), quoted: false, pos: s.target.pos }));
  checkColumns(target.schema, targetColumns);
  const binder = newBinder(ctx);
  await binder.bindQuery(s.query);
  const { sql } = writeQuery(binder, s.query);
  enforceCutoff(binder.bytesScanned, ctx.bytesScannedCutoff);
  return withTemporaryTable(ctx.connection, 'insert', async (temp) => {
    const described = await createTemporaryTable(ctx.connection, temp, sql, ctx.positions);
    const fieldOf = (name: string) => target.schema.fields.find((f) => f.name.toLowerCase() === name);
    if (described.length !== targetColumns.length) {
      const tableTypes = targetColumns.map((c) => icebergToAthena(fieldOf(c.name)!.type)).join(', ');
      const queryTypes = described.map((c) => c.type.toLowerCase()).join(', ');
      throw new GenericUserError(
        'TYPE_MISMATCH',
        `Insert query has mismatched column types: Table: [${tableTypes}], Query: [${queryTypes}]`,
        { position: s.query.pos },
      );
    }
    const projection = target.schema.fields.map((field) => {
      const index = targetColumns.findIndex((c) => c.name === field.name.toLowerCase());
      const value = index < 0 ? 'NULL' : ident((described[index] as { name: string }).name);
      return `CAST(${value} AS ${icebergToDuckdb(field.type)}) AS ${ident(field.name)}`;
    });
    const count = await countRows(ctx.connection, temp);
    throwIfCancelled(ctx);
    if (count > 0) await target.table.append({ sql: `SELECT ${projection.join(', ')} FROM ${ident(temp)}` });
    return rowsResult(count, binder.bytesScanned);
  });
}

export async function executeDelete(
  ctx: ExecutionContext,
  s: Extract<Statement, { k: 'delete' }>,
): Promise<StatementResult> {
  const target = await loadTarget(ctx, s.target, s.alias);
  return rewriteSelectedRows(ctx, target, s.where, null);
}

export async function executeUpdate(
  ctx: ExecutionContext,
  s: Extract<Statement, { k: 'update' }>,
): Promise<StatementResult> {
  const target = await loadTarget(ctx, s.target, s.alias);
  checkColumns(
    target.schema,
    s.set.map((a) => a.column),
  );
  return rewriteSelectedRows(ctx, target, s.where, s.set);
}

const FILE_PATH = '__loglake_file_path';
const POS = '__loglake_pos';

/**
 * DELETE (no assignments) and UPDATE: the target rows WHERE selects are deleted by position and, for UPDATE,
 * written again with the assignments applied, in one row delta read from a temp table of exactly the rows counted.
 */
async function rewriteSelectedRows(
  ctx: ExecutionContext,
  target: Target,
  where: Expr | undefined,
  set: Assignment[] | null,
): Promise<StatementResult> {
  const binder = newBinder(ctx);
  const exprs = [...(set ?? []).map((a) => a.value), ...(where ? [where] : [])];
  await binder.bindRelations([target.ref], exprs, {
    rowIdsFor: target.ref,
    ...(set ? { allColumnsFor: target.ref } : {}),
    filterFor: { ref: target.ref, where },
  });
  enforceCutoff(binder.bytesScanned, ctx.bytesScannedCutoff);
  const writer = targetWriter(binder, target, exprs);
  const columns = (set ? target.schema.fields : []).map((field) => {
    const assignment = set?.find((a) => a.column.name === field.name.toLowerCase());
    const value = assignment
      ? `CAST(${writer.expr(assignment.value)} AS ${icebergToDuckdb(field.type)})`
      : ident(field.name);
    return `${value} AS ${ident(field.name)}`;
  });
  const whereSql = where ? ` WHERE ${writer.expr(where)}` : '';
  const select = [`file_path AS ${FILE_PATH}`, `pos AS ${POS}`, ...columns].join(', ');
  return withTemporaryTable(ctx.connection, set ? 'update' : 'delete', async (temp) => {
    await runTrinoSql(
      ctx.connection,
      `CREATE TEMP TABLE ${ident(temp)} AS SELECT ${select} FROM ${writer.relation(target.ref)}${whereSql}`,
      ctx.positions,
    );
    const count = await countRows(ctx.connection, temp);
    throwIfCancelled(ctx);
    if (count > 0) {
      await target.table.rowDelta({
        deletesSql: `SELECT ${FILE_PATH} AS file_path, ${POS} AS pos FROM ${ident(temp)}`,
        ...(set
          ? {
              appends: {
                sql: `SELECT ${target.schema.fields.map((f) => ident(f.name)).join(', ')} FROM ${ident(temp)}`,
              },
            }
          : {}),
        readSnapshotId: binder.scanOf(target.ref)?.plan?.snapshotId ?? null,
      });
    }
    return rowsResult(count, binder.bytesScanned);
  });
}
