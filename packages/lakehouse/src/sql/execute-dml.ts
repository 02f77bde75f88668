// INSERT (one append commit), DELETE (position deletes, one commit) and UPDATE (deletes + new rows in one
// row-delta commit). Rows are computed into a temp table first, so the commit sees exactly what was counted.
import type { Schema, StatementResult, TableHandle } from '../contract';
import type { Identifier, QualifiedName, Statement } from './ast';
import { StatementBinder } from './binder';
import type { TableRelation } from './duckdb-writer';
import { sqlIdent as ident } from '../duckdb/duckdb-session';
import { currentSchema } from '../metadata/table-metadata';
import { dropTemporary, runTrinoSql, temporaryName, type PositionIndex } from './duckdb-run';
import type { DdlEnvironment } from './engine';
import { ColumnNotFoundError, GenericUserError } from './errors';
import { rowsResult } from './execute-ddl';
import { enforceCutoff, throwIfCancelled } from './execute-query';
import { loadResolvedTable, resolveName } from './name-resolution';
import { icebergToAthena, icebergToDuckdb } from './types';

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
    if (seen.has(c.name))
      throw new GenericUserError(
        'DUPLICATE_COLUMN_NAME',
        `Column name '${c.name}' specified more than once`,
        { position: c.pos, value: c.name },
      );
    seen.add(c.name);
  }
}

async function countRows(env: DdlEnvironment, temp: string): Promise<number> {
  const row = (await env.connection.runAndReadAll(`SELECT count(*) FROM ${ident(temp)}`)).getRowsJS()[0];
  return Number(row?.[0] ?? 0);
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
  const temp = temporaryName('insert');
  try {
    await runTrinoSql(env.connection, `CREATE TEMP TABLE ${ident(temp)} AS ${sql}`, positions);
    const described = (await env.connection.runAndReadAll(`DESCRIBE ${ident(temp)}`)).getRowObjectsJS();
    const sourceNames = described.map((r) => String(r['column_name']));
    const fieldOf = (name: string) => target.schema.fields.find((f) => f.name.toLowerCase() === name);
    if (sourceNames.length !== targetColumns.length) {
      const tableTypes = targetColumns.map((c) => icebergToAthena(fieldOf(c.name)!.type)).join(', ');
      const queryTypes = described.map((r) => String(r['column_type']).toLowerCase()).join(', ');
      throw new GenericUserError(
        'TYPE_MISMATCH',
        `Insert query has mismatched column types: Table: [${tableTypes}], Query: [${queryTypes}]`,
        { position: s.query.pos },
      );
    }
    const projection = target.schema.fields.map((field) => {
      const index = targetColumns.findIndex((c) => c.name === field.name.toLowerCase());
      const value = index < 0 ? 'NULL' : ident(sourceNames[index] as string);
      return `CAST(${value} AS ${icebergToDuckdb(field.type)}) AS ${ident(field.name)}`;
    });
    const count = await countRows(env, temp);
    throwIfCancelled(env);
    if (count > 0) await target.table.append({ sql: `SELECT ${projection.join(', ')} FROM ${ident(temp)}` });
    return rowsResult(count, binder.bytesScanned);
  } finally {
    await dropTemporary(env.connection, temp);
  }
}

export async function executeDelete(
  env: DdlEnvironment,
  s: Extract<Statement, { k: 'delete' }>,
  positions: PositionIndex,
): Promise<StatementResult> {
  const target = await loadTarget(env, s.target, s.alias);
  const binder = new StatementBinder(env);
  await binder.bindRelations([target.ref], s.where ? [s.where] : [], {
    rowIdsFor: target.ref,
    filterFor: { ref: target.ref, where: s.where },
  });
  enforceCutoff(binder.bytesScanned, env.bytesScannedCutoff);
  const writer = binder.writer();
  const where = s.where ? ` WHERE ${writer.expr(s.where)}` : '';
  const temp = temporaryName('delete');
  try {
    await runTrinoSql(
      env.connection,
      `CREATE TEMP TABLE ${ident(temp)} AS SELECT file_path, pos FROM ${writer.relation(target.ref)}${where}`,
      positions,
    );
    const count = await countRows(env, temp);
    throwIfCancelled(env);
    if (count > 0) {
      const readSnapshotId = binder.scans.find((scan) => scan.ref === target.ref)?.plan?.snapshotId ?? null;
      await target.table.rowDelta({
        deletesSql: `SELECT file_path, pos FROM ${ident(temp)}`,
        readSnapshotId,
      });
    }
    return rowsResult(count, binder.bytesScanned);
  } finally {
    await dropTemporary(env.connection, temp);
  }
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
  const binder = new StatementBinder(env);
  await binder.bindRelations([target.ref], [...s.set.map((a) => a.value), ...(s.where ? [s.where] : [])], {
    rowIdsFor: target.ref,
    allColumnsFor: target.ref,
    filterFor: { ref: target.ref, where: s.where },
  });
  enforceCutoff(binder.bytesScanned, env.bytesScannedCutoff);
  const writer = binder.writer();
  const columns = target.schema.fields.map((field) => {
    const assignment = s.set.find((a) => a.column.name === field.name.toLowerCase());
    const value = assignment
      ? `CAST(${writer.expr(assignment.value)} AS ${icebergToDuckdb(field.type)})`
      : ident(field.name);
    return `${value} AS ${ident(field.name)}`;
  });
  const where = s.where ? ` WHERE ${writer.expr(s.where)}` : '';
  const temp = temporaryName('update');
  try {
    await runTrinoSql(
      env.connection,
      `CREATE TEMP TABLE ${ident(temp)} AS SELECT file_path AS __loglake_file_path, pos AS __loglake_pos, ${columns.join(', ')} FROM ${writer.relation(target.ref)}${where}`,
      positions,
    );
    const count = await countRows(env, temp);
    throwIfCancelled(env);
    if (count > 0) {
      const readSnapshotId = binder.scans.find((scan) => scan.ref === target.ref)?.plan?.snapshotId ?? null;
      await target.table.rowDelta({
        deletesSql: `SELECT __loglake_file_path AS file_path, __loglake_pos AS pos FROM ${ident(temp)}`,
        appends: {
          sql: `SELECT ${target.schema.fields.map((f) => ident(f.name)).join(', ')} FROM ${ident(temp)}`,
        },
        readSnapshotId,
      });
    }
    return rowsResult(count, binder.bytesScanned);
  } finally {
    await dropTemporary(env.connection, temp);
  }
}
