// The statement type Athena reports for a query at submission (GetQueryExecution's StatementType and
// SubstatementType), read from the parsed statement: queries and DML are DML, table definitions DDL, SHOW and
// DESCRIBE utility. SubstatementType is given where Athena's values are known (SELECT, INSERT, UPDATE, DELETE,
// MERGE, CREATE_TABLE_AS_SELECT) and left out otherwise rather than guessed.
import type { Statement } from '../tree/ast';

export interface StatementKind {
  statementType: 'DDL' | 'DML' | 'UTILITY';
  substatementType?: string;
}

export function statementKind(statement: Statement): StatementKind {
  switch (statement.k) {
    case 'query':
      return { statementType: 'DML', substatementType: 'SELECT' };
    case 'insert':
      return { statementType: 'DML', substatementType: 'INSERT' };
    case 'update':
      return { statementType: 'DML', substatementType: 'UPDATE' };
    case 'delete':
      return { statementType: 'DML', substatementType: 'DELETE' };
    case 'merge':
      return { statementType: 'DML', substatementType: 'MERGE' };
    case 'ctas':
      return { statementType: 'DML', substatementType: 'CREATE_TABLE_AS_SELECT' };
    case 'show-tables':
    case 'show-columns':
    case 'show-create-table':
    case 'show-tblproperties':
    case 'describe':
      return { statementType: 'UTILITY' };
    case 'create-table':
    case 'drop-table':
    case 'alter-add-columns':
    case 'alter-drop-column':
    case 'alter-change-column':
    case 'alter-set-properties':
    case 'alter-unset-properties':
    case 'refused':
      return { statementType: 'DDL' };
  }
}
