// What a statement does to which tables, read from the parsed statement with the query context's defaults: the
// tables a query reads, the one an INSERT, DELETE, UPDATE or MERGE writes and how, the one a DDL statement creates,
// drops, alters or describes, the schema SHOW TABLES lists. Lake Formation's check before a statement runs asks
// for one permission per access (local-aws, authz/lake-formation). CTE names are not tables; a metadata table
// (`t$snapshots`) is an access to its table.
import type { QueryContext, TableAccess, TableAccessKind } from '../../contract';
import { DEFAULT_CATALOG } from '../catalog/registry';
import type { QualifiedName, Statement } from '../tree/ast';
import { walkExpr, walkQuery, walkRelation, type AstVisitor } from '../tree/ast-walk';
import { qualifyTableName } from './name-resolution';

export function tableAccesses(statement: Statement, session: QueryContext): TableAccess[] {
  const out: TableAccess[] = [];
  const add = (kind: TableAccessKind, name: QualifiedName) => {
    const q = qualifyTableName(name, session);
    const dollar = q.table.lastIndexOf('$');
    out.push({
      kind,
      catalog: q.catalog.toLowerCase(),
      schema: q.schema,
      table: dollar >= 0 ? q.table.slice(0, dollar) : q.table,
      ...(dollar >= 0 ? { metadataTable: q.table.slice(dollar + 1) } : {}),
    });
  };
  const reads: AstVisitor = { table: (ref, isCte) => (isCte ? undefined : add('read', ref.name)) };
  switch (statement.k) {
    case 'query':
      walkQuery(statement.query, reads);
      break;
    case 'ctas':
      add('create', statement.name);
      walkQuery(statement.query, reads);
      break;
    case 'create-table':
      add('create', statement.name);
      break;
    case 'drop-table':
      add('drop', statement.name);
      break;
    case 'insert':
      add('insert', statement.target);
      walkQuery(statement.query, reads);
      break;
    case 'delete':
      add('delete', statement.target);
      if (statement.where) walkExpr(statement.where, reads);
      break;
    case 'update':
      add('update', statement.target);
      for (const s of statement.set) walkExpr(s.value, reads);
      if (statement.where) walkExpr(statement.where, reads);
      break;
    case 'merge': {
      const actions = new Set(statement.clauses.map((c) => c.action));
      for (const action of ['insert', 'update', 'delete'] as const)
        if (actions.has(action)) add(action, statement.target);
      walkRelation(statement.source, reads);
      walkExpr(statement.on, reads);
      for (const c of statement.clauses) {
        if (c.condition) walkExpr(c.condition, reads);
        for (const s of c.set ?? []) walkExpr(s.value, reads);
        for (const v of c.insertValues ?? []) walkExpr(v, reads);
      }
      break;
    }
    case 'alter-add-columns':
    case 'alter-drop-column':
    case 'alter-change-column':
    case 'alter-set-properties':
    case 'alter-unset-properties':
      add('alter', statement.name);
      break;
    case 'describe':
    case 'show-columns':
    case 'show-create-table':
    case 'show-tblproperties':
      add('describe', statement.name);
      break;
    case 'show-tables': {
      const parts = statement.schema?.parts.map((p) => p.name) ?? [];
      const schema = parts.at(-1) ?? session.database?.toLowerCase();
      const catalog = (parts.length === 2 ? parts[0] : session.catalog) ?? DEFAULT_CATALOG;
      if (schema) out.push({ kind: 'list', catalog: catalog.toLowerCase(), schema });
      break;
    }
    case 'refused':
      // Athena refuses these itself (NOT_SUPPORTED) whoever runs them.
      break;
  }
  return out;
}
