// INSERT (one append commit), DELETE (position deletes, one commit) and UPDATE (deletes + new rows in one
// row-delta commit). Rows are computed into a temp table first, so the commit sees exactly what was counted.
import type { Schema, StatementResult, TableHandle } from '../contract';
import { sqlIdent as ident } from '../duckdb/duckdb-session';
import { currentSchema } from '../metadata/table-metadata';
import type { Expr, Identifier, QualifiedName, Statement } from './ast';
import { StatementBinder } from './binder';
import type { TableRelation } from './duckdb-writer';
import {
  countRows,
  createTemporaryTable,
  runTrinoSql,
  withTemporaryTable,
  type PositionIndex,
} from './duckdb-run';
import type { DdlEnvironment } from './engine';
import { ColumnNotFoundError, GenericUserError } from './errors';
import { duplicateColumn, rowsResult } from './execute-ddl';
import { enforceCutoff, throwIfCancelled } from './execute-query';
import { loadResolvedTable, resolveName } from './name-resolution';
import { icebergToAthena, icebergToDuckdb } from './types';

type Assignment = Extract<Statement, { k: 'update' }>['set'][number];

export interface Target {
  table: TableHandle;
  schema: Schema;
  ref: TableRelation;
}

export async function loadTarget(
  env: DdlEnvironment,
  name: QualifiedName,
  alias: Identifier | undefined,
): Promise<Target> {
  const resolved = resolveName(name, env.context);
  const table = await loadResolvedTable(env.warehouse, resolved, name.pos);
  const schema = currentSchema(await table.metadata());
  return { table, schema, ref: { k: 'table', name, alias, pos: name.pos } };
}

export function checkColumns(schema: Schema, columns: Identifier[]): void {
  const seen = new Set<string>();
  for (const c of columns) {
    if (!schema.fields.some((f) => f.name.toLowerCase() === c.name))
      throw new ColumnNotFoundError(c.name, c.pos);
    if (seen.has(c.name)) throw duplicateColumn(c);
    seen.add(c.name);
  }
}

export async function executeInsert(
  env: DdlEnvironment,
  s: Extract<Statement, { k: 'insert' }>,
  positions: PositionIndex,
): Promise<StatementResult> {
  const target = await loadTarget(env, s.target, undefined);
  const targetColumns =
    s.columns ??
    target.schema.fields.map((f) => ({ name: f.name.toLowerCase(), quoted: false, pos: s.target.pos }));
  checkColumns(target.schema, targetColumns);
  const binder = new StatementBinder(env);
  const sql = await binder.bindQuery(s.query);
  enforceCutoff(binder.bytesScanned, env.bytesScannedCutoff);
  return withTemporaryTable(env.connection, 'insert', async (temp) => {
    const described = await createTemporaryTable(env.connection, temp, sql, positions);
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
    const count = await countRows(env.connection, temp);
    throwIfCancelled(env);
    if (count > 0) await target.table.append({ sql: `SELECT ${projection.join(', ')} FROM ${ident(temp)}` });
    return rowsResult(count, binder.bytesScanned);
  });
}

export async function executeDelete(
  env: DdlEnvironment,
  s: Extract<Statement, { k: 'delete' }>,
  positions: PositionIndex,
): Promise<StatementResult> {
  const target = await loadTarget(env, s.target, s.alias);
  return rewriteSelectedRows(env, target, s.where, null, positions);
}

export async function executeUpdate(
  env: DdlEnvironment,
  s: Extract<Statement, { k: 'update' }>,
  positions: PositionIndex,
): Promise<StatementResult> {
  const target = await loadTarget(env, s.target, s.alias);
  checkColumns(
    target.schema,
    s.set.map((a) => a.column),
  );
  return rewriteSelectedRows(env, target, s.where, s.set, positions);
}

const FILE_PATH = '__loglake_file_path';
const POS = '__loglake_pos';

/**
 * DELETE (no assignments) and UPDATE: the target rows WHERE selects are deleted by position and, for UPDATE,
 * written again with the assignments applied, in one row delta read from a temp table of exactly the rows counted.
 */
async function rewriteSelectedRows(
  env: DdlEnvironment,
  target: Target,
  where: Expr | undefined,
  set: Assignment[] | null,
  positions: PositionIndex,
): Promise<StatementResult> {
  const binder = new StatementBinder(env);
  await binder.bindRelations([target.ref], [...(set ?? []).map((a) => a.value), ...(where ? [where] : [])], {
    rowIdsFor: target.ref,
    ...(set ? { allColumnsFor: target.ref } : {}),
    filterFor: { ref: target.ref, where },
  });
  enforceCutoff(binder.bytesScanned, env.bytesScannedCutoff);
  const writer = binder.writer();
  const columns = (set ? target.schema.fields : []).map((field) => {
    const assignment = set?.find((a) => a.column.name === field.name.toLowerCase());
    const value = assignment
      ? `CAST(${writer.expr(assignment.value)} AS ${icebergToDuckdb(field.type)})`
      : ident(field.name);
    return `${value} AS ${ident(field.name)}`;
  });
  const whereSql = where ? ` WHERE ${writer.expr(where)}` : '';
  const select = [`file_path AS ${FILE_PATH}`, `pos AS ${POS}`, ...columns].join(', ');
  return withTemporaryTable(env.connection, set ? 'update' : 'delete', async (temp) => {
    await runTrinoSql(
      env.connection,
      `CREATE TEMP TABLE ${ident(temp)} AS SELECT ${select} FROM ${writer.relation(target.ref)}${whereSql}`,
      positions,
    );
    const count = await countRows(env.connection, temp);
    throwIfCancelled(env);
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
