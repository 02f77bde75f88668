// Statement grammar: the DDL/DML Athena documents for Iceberg tables, plus queries. Entry point: parseStatement.
import type {
  ColumnDef,
  Expr,
  Identifier,
  MergeClause,
  PartitionSpecItem,
  Relation,
  Statement,
} from '../tree/ast';
import { GenericUserError, NotSupportedError, SqlSyntaxError, type SourcePosition } from '../errors';
import { QueryParser } from './parse-query';
import { tokenize } from './tokenizer';

const TRANSFORMS = new Set([
  'year',
  'month',
  'day',
  'hour',
  'bucket',
  'truncate',
  'void',
  'years',
  'months',
  'days',
  'hours',
]);

class StatementParser extends QueryParser {
  parseStatementToEnd(): Statement {
    const statement = this.parseStatement();
    this.accept(';');
    if (this.peek().kind !== 'eof') this.fail('<EOF>');
    return statement;
  }

  private parseStatement(): Statement {
    const pos = this.pos;
    if (this.startsQuery() || this.is('(')) return { k: 'query', query: this.parseQuery(), pos };
    if (this.accept('create')) return this.parseCreate(pos);
    if (this.accept('drop')) {
      if (!this.accept('table')) throw new NotSupportedError(`DROP ${this.peek().raw.toUpperCase()}`, pos);
      const ifExists = this.acceptSeq('if', 'exists');
      return { k: 'drop-table', name: this.parseQualifiedName(), ifExists, pos };
    }
    if (this.accept('show')) return this.parseShow(pos);
    if (this.accept('describe') || this.accept('desc')) {
      if (this.is('formatted') || this.is('extended')) this.next();
      return { k: 'describe', name: this.parseQualifiedName(), pos };
    }
    if (this.accept('insert')) {
      if (this.is('overwrite')) throw new NotSupportedError('INSERT OVERWRITE', pos);
      this.expect('into');
      const target = this.parseQualifiedName();
      let columns: Identifier[] | undefined;
      if (this.is('(') && !this.startsQuery(1) && !this.is('(', 1)) {
        this.next();
        columns = this.identifierList();
        this.expect(')');
      }
      return { k: 'insert', target, columns, query: this.parseQuery(), pos };
    }
    if (this.accept('delete')) {
      this.expect('from');
      const target = this.parseQualifiedName();
      const alias = this.parseOptionalAlias();
      const where = this.accept('where') ? this.parseExpression() : undefined;
      return { k: 'delete', target, alias, where, pos };
    }
    if (this.accept('update')) {
      const target = this.parseQualifiedName();
      const alias = this.parseOptionalAlias();
      this.expect('set');
      const set = this.parseAssignments();
      const where = this.accept('where') ? this.parseExpression() : undefined;
      return { k: 'update', target, alias, set, where, pos };
    }
    if (this.accept('merge')) return this.parseMerge(pos);
    if (this.accept('alter')) return this.parseAlter(pos);
    if (this.accept('optimize')) {
      // OPTIMIZE t REWRITE DATA USING BIN_PACK [WHERE ...]: read the table name; the rest is refused with it.
      const table = this.parseQualifiedName();
      this.skipToEnd();
      return { k: 'refused', what: 'OPTIMIZE', table, pos };
    }
    if (this.accept('vacuum')) return { k: 'refused', what: 'VACUUM', table: this.parseQualifiedName(), pos };
    const word = this.peek();
    if (
      word.kind === 'ident' &&
      ['explain', 'msck', 'prepare', 'execute', 'unload', 'use', 'grant', 'revoke', 'call'].includes(
        word.value,
      )
    ) {
      throw new NotSupportedError(word.value.toUpperCase(), pos);
    }
    this.fail(
      "'ALTER', 'CREATE', 'DELETE', 'DESCRIBE', 'DROP', 'INSERT', 'MERGE', 'SELECT', 'SHOW', 'UPDATE', 'VALUES', 'WITH'",
    );
  }

  private parseOptionalAlias(): Identifier | undefined {
    if (this.accept('as')) return this.identifier();
    if (this.isIdentifier()) return this.identifier();
    return undefined;
  }

  private parseAssignments(): { column: Identifier; value: Expr }[] {
    const set: { column: Identifier; value: Expr }[] = [];
    do {
      const column = this.identifier();
      if (this.is('.'))
        throw new SqlSyntaxError(
          'UPDATE/MERGE SET names a column of the target table without a qualifier',
          this.pos,
        );
      this.expect('=');
      set.push({ column, value: this.parseExpression() });
    } while (this.accept(','));
    return set;
  }

  private parseCreate(pos: SourcePosition): Statement {
    if (this.accept('external')) throw new NotSupportedError('CREATE EXTERNAL TABLE (Hive tables)', pos);
    if (this.is('view') || this.isSeq('or', 'replace', 'view')) {
      this.skipToEnd();
      return { k: 'refused', what: 'CREATE VIEW', pos };
    }
    if (this.is('database') || this.is('schema') || this.is('or')) {
      throw new NotSupportedError(`CREATE ${this.peek().raw.toUpperCase()}`, pos);
    }
    this.expect('table', "'TABLE'");
    const ifNotExists = this.acceptSeq('if', 'not', 'exists');
    const name = this.parseQualifiedName();
    const columns: ColumnDef[] = [];
    let columnAliases: Identifier[] | undefined;
    if (this.accept('(')) {
      const aliasList = this.isIdentifier(0, true) && (this.is(',', 1) || this.is(')', 1));
      if (aliasList) {
        columnAliases = this.identifierList(true);
      } else {
        do columns.push(this.parseColumnDef());
        while (this.accept(','));
      }
      this.expect(')', "')', ','");
    }
    let comment: string | undefined;
    let location: string | undefined;
    let partitioning: PartitionSpecItem[] = [];
    let properties: Record<string, Expr> = {};
    for (;;) {
      if (this.accept('comment')) comment = this.stringLiteral();
      else if (this.acceptSeq('partitioned', 'by')) partitioning = this.parsePartitionList();
      else if (this.accept('location')) location = this.stringLiteral();
      else if (this.accept('tblproperties')) properties = { ...properties, ...this.parseProperties(true) };
      else if (this.is('with') && this.is('(', 1)) {
        this.next();
        properties = { ...properties, ...this.parseProperties(false) };
      } else if (this.is('stored') || this.is('row') || this.is('clustered')) {
        throw new NotSupportedError(
          `${this.peek().raw.toUpperCase()} (Hive table storage clauses)`,
          this.pos,
        );
      } else break;
    }
    if (this.accept('as')) {
      if (columns.length > 0)
        throw new SqlSyntaxError('CREATE TABLE AS SELECT takes column names, not column definitions', pos);
      const parenthesised = this.accept('(');
      const query = this.parseQuery();
      if (parenthesised) this.expect(')');
      let withData = true;
      if (this.accept('with')) {
        withData = !this.accept('no');
        this.expect('data');
      }
      if (partitioning.length > 0)
        throw new NotSupportedError('PARTITIONED BY in CTAS (use WITH (partitioning = ARRAY[...]))', pos);
      return { k: 'ctas', name, ifNotExists, columnAliases, properties, query, withData, pos };
    }
    if (columnAliases || columns.length === 0) this.fail("'AS', column definitions");
    const partitioningValue = properties['partitioning'];
    if (partitioningValue) partitioning = [...partitioning, ...partitioningProperty(partitioningValue)];
    return {
      k: 'create-table',
      name,
      ifNotExists,
      columns,
      partitioning,
      properties,
      location,
      comment,
      pos,
    };
  }

  private parseColumnDef(): ColumnDef {
    const name = this.identifier(true);
    const type = this.parseType();
    const notNull = this.acceptSeq('not', 'null');
    const comment = this.accept('comment') ? this.stringLiteral() : undefined;
    return { name, type, comment, notNull };
  }

  /** TBLPROPERTIES ('k'='v', ...) (quoted keys) or WITH (k = expr, ...). */
  private parseProperties(quotedKeys: boolean): Record<string, Expr> {
    this.expect('(');
    const properties: Record<string, Expr> = {};
    do {
      const key = quotedKeys ? this.stringLiteral() : this.identifier(true).name;
      this.expect('=');
      properties[key.toLowerCase()] = this.parseExpression();
    } while (this.accept(','));
    this.expect(')');
    return properties;
  }

  private parsePartitionList(): PartitionSpecItem[] {
    this.expect('(');
    const items: PartitionSpecItem[] = [];
    do items.push(this.parsePartitionItem());
    while (this.accept(','));
    this.expect(')');
    return items;
  }

  parsePartitionItemToEnd(): PartitionSpecItem {
    const item = this.parsePartitionItem();
    if (this.peek().kind !== 'eof') this.fail('<EOF>');
    return item;
  }

  private parsePartitionItem(): PartitionSpecItem {
    const pos = this.pos;
    const token = this.peek();
    if (token.kind === 'ident' && TRANSFORMS.has(token.value) && this.is('(', 1)) {
      this.next();
      this.next();
      const transform = token.value.replace(/s$/, '') as PartitionSpecItem['transform'];
      if (transform === 'bucket' || transform === 'truncate') {
        // Athena writes bucket(16, col); Trino's partitioning property writes bucket(col, 16).
        let param: number;
        let column: string;
        if (this.peek().kind === 'number') {
          param = this.integer();
          this.expect(',');
          column = this.identifier(true).name;
        } else {
          column = this.identifier(true).name;
          this.expect(',');
          param = this.integer();
        }
        this.expect(')');
        return { transform, column, param, pos };
      }
      const column = this.identifier(true).name;
      this.expect(')');
      return { transform, column, pos };
    }
    if (this.isIdentifier(0, true) && this.isIdentifier(1, true)) {
      throw new SqlSyntaxError(
        'PARTITIONED BY of an Iceberg table lists columns of the table or transforms (hour(c), bucket(n, c)), not new column definitions',
        pos,
      );
    }
    return { transform: 'identity', column: this.identifier(true).name, pos };
  }

  private parseMerge(pos: SourcePosition): Statement {
    this.expect('into');
    const target = this.parseQualifiedName();
    const targetAlias = this.is('using') ? undefined : this.parseOptionalAlias();
    this.expect('using');
    const source: Relation = this.parseRelation();
    this.expect('on');
    const on = this.parseExpression();
    const clauses: MergeClause[] = [];
    while (this.is('when')) {
      const clausePos = this.next().pos;
      const matched = !this.accept('not');
      this.expect('matched');
      const condition = this.accept('and') ? this.parseExpression() : undefined;
      this.expect('then');
      if (matched) {
        if (this.accept('delete')) clauses.push({ matched, condition, action: 'delete', pos: clausePos });
        else {
          this.expect('update', "'UPDATE', 'DELETE'");
          this.expect('set');
          clauses.push({
            matched,
            condition,
            action: 'update',
            set: this.parseAssignments(),
            pos: clausePos,
          });
        }
        continue;
      }
      this.expect('insert', "'INSERT'");
      const insertColumns = this.optionalIdentifierList();
      this.expect('values');
      this.expect('(');
      const insertValues = [this.parseExpression()];
      while (this.accept(',')) insertValues.push(this.parseExpression());
      this.expect(')');
      clauses.push({ matched, condition, action: 'insert', insertColumns, insertValues, pos: clausePos });
    }
    if (clauses.length === 0) this.fail("'WHEN'");
    return { k: 'merge', target, targetAlias, source, on, clauses, pos };
  }

  private parseShow(pos: SourcePosition): Statement {
    if (this.accept('tables')) {
      const schema = this.accept('in') || this.accept('from') ? this.parseQualifiedName() : undefined;
      let like: string | undefined;
      if (this.accept('like')) like = this.stringLiteral();
      else if (this.peek().kind === 'string') like = this.stringLiteral();
      return { k: 'show-tables', schema, like, pos };
    }
    if (this.accept('columns')) {
      // SHOW COLUMNS {FROM|IN} [db.]table [{FROM|IN} db] (Athena's SHOW COLUMNS page).
      if (!this.accept('from')) this.expect('in', "'FROM', 'IN'");
      const name = this.parseQualifiedName();
      if (this.accept('from') || this.accept('in')) {
        const database = this.identifier(true);
        if (name.parts.length !== 1)
          throw new SqlSyntaxError('SHOW COLUMNS names the database twice', database.pos, database.name);
        name.parts.unshift(database);
      }
      return { k: 'show-columns', name, pos };
    }
    if (this.acceptSeq('create', 'table'))
      return { k: 'show-create-table', name: this.parseQualifiedName(), pos };
    if (this.accept('tblproperties')) {
      const name = this.parseQualifiedName();
      let key: string | undefined;
      if (this.accept('(')) {
        key = this.stringLiteral();
        this.expect(')');
      }
      return { k: 'show-tblproperties', name, key, pos };
    }
    throw new NotSupportedError(`SHOW ${this.peek().raw.toUpperCase()}`, pos);
  }

  private parseAlter(pos: SourcePosition): Statement {
    if (this.is('database') || this.is('schema')) {
      this.skipToEnd();
      return { k: 'refused', what: 'ALTER DATABASE', pos };
    }
    this.expect('table', "'TABLE', 'DATABASE'");
    const name = this.parseQualifiedName();
    if (this.acceptSeq('add', 'columns')) {
      this.expect('(');
      const columns: ColumnDef[] = [];
      do columns.push(this.parseColumnDef());
      while (this.accept(','));
      this.expect(')');
      return { k: 'alter-add-columns', name, columns, pos };
    }
    if (this.acceptSeq('add', 'column')) {
      const ifNotExists = this.acceptSeq('if', 'not', 'exists');
      if (ifNotExists) throw new NotSupportedError('ADD COLUMN IF NOT EXISTS', pos);
      return { k: 'alter-add-columns', name, columns: [this.parseColumnDef()], pos };
    }
    if (this.accept('drop')) {
      // ALTER TABLE t DROP COLUMN c (Athena's Iceberg page writes COLUMN; Hive's partition form is refused).
      if (this.is('partition') || this.is('if'))
        throw new NotSupportedError(`ALTER TABLE ... DROP ${this.peek().raw.toUpperCase()}`, pos);
      this.accept('column');
      return { k: 'alter-drop-column', name, column: this.identifier(true), pos };
    }
    if (this.accept('change')) {
      // ALTER TABLE t CHANGE [COLUMN] old new type [COMMENT 'c'] [FIRST | AFTER col]
      this.accept('column');
      const column = this.identifier(true);
      const definition = this.parseColumnDef();
      let position: { first: true } | { after: Identifier } | undefined;
      if (this.accept('first')) position = { first: true };
      else if (this.accept('after')) position = { after: this.identifier(true) };
      return { k: 'alter-change-column', name, column, definition, position, pos };
    }
    if (this.acceptSeq('replace', 'columns')) {
      this.skipToEnd();
      return { k: 'refused', what: 'ALTER TABLE REPLACE COLUMNS', table: name, pos };
    }
    if (this.acceptSeq('rename', 'to')) {
      this.skipToEnd();
      return { k: 'refused', what: 'ALTER TABLE RENAME TO', table: name, pos };
    }
    if (this.acceptSeq('set', 'tblproperties'))
      return { k: 'alter-set-properties', name, properties: this.parseProperties(true), pos };
    if (this.acceptSeq('unset', 'tblproperties')) {
      this.expect('(');
      const keys = [this.stringLiteral().toLowerCase()];
      while (this.accept(',')) keys.push(this.stringLiteral().toLowerCase());
      this.expect(')');
      return { k: 'alter-unset-properties', name, keys, pos };
    }
    const start = this.index;
    while (this.peek().kind !== 'eof' && !this.is(';') && this.index - start < 3) this.next();
    throw new NotSupportedError(`ALTER TABLE ... ${this.textFrom(start).toUpperCase()}`, pos);
  }

  /** Moves past the rest of a statement that is parsed only to be refused (up to `;` or the end). */
  private skipToEnd(): void {
    while (this.peek().kind !== 'eof' && !this.is(';')) this.next();
  }
}

/**
 * Trino's `partitioning = ARRAY['hour(c)', 'bucket(16, c)', 'c']` table property (CREATE TABLE and CTAS), with
 * Trino's INVALID_TABLE_PROPERTY errors.
 */
export function partitioningProperty(expr: Expr): PartitionSpecItem[] {
  if (expr.k !== 'array')
    throw invalidPartitioning("partitioning must be ARRAY['column', 'hour(column)', ...]", expr.pos);
  return expr.items.map((item) => {
    if (item.k !== 'string')
      throw invalidPartitioning('partitioning entries must be string literals', item.pos);
    try {
      const parser = new StatementParser(tokenize(item.value), item.value);
      return { ...parser.parsePartitionItemToEnd(), pos: item.pos };
    } catch (error) {
      if (!(error instanceof SqlSyntaxError)) throw error;
      throw invalidPartitioning(`Unable to parse partitioning value: ${item.value}`, item.pos, item.value);
    }
  });
}

function invalidPartitioning(text: string, position: SourcePosition, value?: string): GenericUserError {
  return new GenericUserError('INVALID_TABLE_PROPERTY', text, { position, value });
}

/** Parses exactly one statement (an optional trailing semicolon is allowed). Throws SqlSyntaxError. */
export function parseStatement(sql: string): Statement {
  return new StatementParser(tokenize(sql), sql).parseStatementToEnd();
}
