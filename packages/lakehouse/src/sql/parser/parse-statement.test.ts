import { describe, expect, test } from '@jest/globals';
import type { Relation, Statement } from '../tree/ast';
import type { SqlError } from '../errors';
import { parseStatement } from './parse-statement';

function firstTable(statement: Statement): Extract<Relation, { k: 'table' }> {
  if (statement.k !== 'query' || statement.query.body.k !== 'select') throw new Error('not a select');
  const from = statement.query.body.from[0];
  if (from?.k !== 'table') throw new Error('not a table');
  return from;
}

function failure(sql: string): SqlError {
  try {
    parseStatement(sql);
  } catch (error) {
    return error as SqlError;
  }
  throw new Error(`parsed: ${sql}`);
}

describe('parseStatement', () => {
  test('statement kinds', () => {
    const kinds = [
      ['SELECT 1', 'query'],
      ['WITH a AS (SELECT 1) SELECT * FROM a', 'query'],
      ['VALUES 1, 2', 'query'],
      ["CREATE TABLE t (a int) TBLPROPERTIES ('table_type'='ICEBERG')", 'create-table'],
      ["CREATE TABLE t WITH (format='PARQUET') AS SELECT 1 AS a", 'ctas'],
      ['DROP TABLE IF EXISTS t', 'drop-table'],
      ["SHOW TABLES IN ns LIKE 'x%'", 'show-tables'],
      ['DESCRIBE ns.t', 'describe'],
      ['INSERT INTO t (a) VALUES (1)', 'insert'],
      ['DELETE FROM t WHERE a = 1', 'delete'],
      ['UPDATE t SET a = 2 WHERE a = 1', 'update'],
      ['MERGE INTO t USING s ON t.a = s.a WHEN MATCHED THEN DELETE', 'merge'],
      ['ALTER TABLE t ADD COLUMNS (b string)', 'alter-add-columns'],
      ['ALTER TABLE t DROP COLUMN b', 'alter-drop-column'],
      ['ALTER TABLE t CHANGE comment blog_comment string AFTER id', 'alter-change-column'],
      ["ALTER TABLE t SET TBLPROPERTIES ('write_compression'='zstd')", 'alter-set-properties'],
      ["ALTER TABLE t UNSET TBLPROPERTIES ('write_compression')", 'alter-unset-properties'],
      ['SHOW COLUMNS IN t FROM ns', 'show-columns'],
      ['SHOW CREATE TABLE t', 'show-create-table'],
      ['SHOW TBLPROPERTIES t', 'show-tblproperties'],
      ['OPTIMIZE t REWRITE DATA USING BIN_PACK', 'refused'],
      ['VACUUM t', 'refused'],
      ['ALTER TABLE t RENAME TO u', 'refused'],
      ['ALTER TABLE t REPLACE COLUMNS (a int)', 'refused'],
      ['CREATE VIEW v AS SELECT 1', 'refused'],
      ["ALTER DATABASE d SET DBPROPERTIES ('a'='b')", 'refused'],
    ] as const;
    for (const [sql, kind] of kinds) expect(parseStatement(sql).k).toBe(kind);
  });

  test('quoted identifiers, the S3 Tables catalog and version clauses on table references', () => {
    const ref = firstTable(
      parseStatement('SELECT * FROM "s3tablescatalog/lab"."Network".t FOR VERSION AS OF 42 AS v'),
    );
    expect(ref.name.parts.map((p) => p.name)).toEqual(['s3tablescatalog/lab', 'network', 't']);
    expect(ref.version?.kind).toBe('version');
    expect(ref.version?.expr).toMatchObject({ k: 'number', text: '42' });
    expect(ref.alias?.name).toBe('v');

    const meta = firstTable(parseStatement('SELECT * FROM ns."vpc_flow_logs$snapshots"'));
    expect(meta.name.parts[1]).toMatchObject({ name: 'vpc_flow_logs$snapshots', quoted: true });

    const ts = firstTable(
      parseStatement("SELECT * FROM t FOR TIMESTAMP AS OF TIMESTAMP '2024-01-01 00:00:00 UTC' WHERE x = 1"),
    );
    expect(ts.version).toMatchObject({
      kind: 'timestamp',
      expr: { k: 'typed', type: 'timestamp', value: '2024-01-01 00:00:00 UTC' },
    });
  });

  test('backquoted names in Athena DDL, partition transforms and properties', () => {
    const s = parseStatement(
      "CREATE TABLE IF NOT EXISTS `s3tablescatalog/lab`.net.e (ts timestamp, ip string COMMENT 'addr', n bigint NOT NULL) " +
        "PARTITIONED BY (hour(ts), bucket(16, ip), truncate(ip, 4), n) TBLPROPERTIES ('table_type'='ICEBERG', 'format'='parquet')",
    );
    if (s.k !== 'create-table') throw new Error(s.k);
    expect(s.ifNotExists).toBe(true);
    expect(s.name.parts.map((p) => p.name)).toEqual(['s3tablescatalog/lab', 'net', 'e']);
    expect(s.columns.map((c) => [c.name.name, c.type.base, c.notNull, c.comment])).toEqual([
      ['ts', 'timestamp', false, undefined],
      ['ip', 'string', false, 'addr'],
      ['n', 'bigint', true, undefined],
    ]);
    expect(s.partitioning.map((p) => [p.transform, p.column, p.param])).toEqual([
      ['hour', 'ts', undefined],
      ['bucket', 'ip', 16],
      ['truncate', 'ip', 4],
      ['identity', 'n', undefined],
    ]);
    expect(Object.keys(s.properties)).toEqual(['table_type', 'format']);
  });

  test('MERGE clauses in order with their conditions', () => {
    const s = parseStatement(
      `MERGE INTO ref.inv AS t USING (VALUES ('a', 'x')) AS s (ip, tier) ON t.ip = s.ip
       WHEN MATCHED AND s.tier IS NULL THEN DELETE
       WHEN MATCHED THEN UPDATE SET tier = s.tier
       WHEN NOT MATCHED AND s.tier <> 'skip' THEN INSERT (ip, tier) VALUES (s.ip, s.tier)`,
    );
    if (s.k !== 'merge') throw new Error(s.k);
    expect(s.clauses.map((c) => [c.matched, c.action, c.condition !== undefined])).toEqual([
      [true, 'delete', true],
      [true, 'update', false],
      [false, 'insert', true],
    ]);
    expect(s.source).toMatchObject({ k: 'subquery', alias: { name: 's' } });
  });

  test('expressions: precedence, window, lambda, interval, special forms', () => {
    const s = parseStatement(
      "SELECT a + b * c, x BETWEEN 1 AND 2 AND NOT y, sum(b) OVER (PARTITION BY a ORDER BY c DESC ROWS BETWEEN 1 PRECEDING AND CURRENT ROW), transform(arr, v -> v + 1), ts + INTERVAL '1' HOUR, position('a' IN s), CAST(x AS varchar), TRY_CAST(x AS decimal(10,2)) FROM t",
    );
    if (s.k !== 'query' || s.query.body.k !== 'select') throw new Error(s.k);
    const [sum, between, win, lambda, interval, pos, cast, tryCast] = s.query.body.items.map((i) => i.expr);
    expect(sum).toMatchObject({ k: 'binary', op: '+', right: { k: 'binary', op: '*' } });
    expect(between).toMatchObject({
      k: 'binary',
      op: 'and',
      left: { k: 'between' },
      right: { k: 'unary', op: 'not' },
    });
    expect(win).toMatchObject({
      k: 'func',
      name: 'sum',
      over: { frame: { unit: 'rows', start: { kind: 'preceding' }, end: { kind: 'current' } } },
    });
    expect(lambda).toMatchObject({ k: 'func', name: 'transform', args: [{ k: 'column' }, { k: 'lambda' }] });
    expect(interval).toMatchObject({ k: 'binary', right: { k: 'interval', value: '1', from: 'hour' } });
    expect(pos).toMatchObject({ k: 'func', name: 'strpos' });
    expect(cast).toMatchObject({ k: 'cast', safe: false, type: { base: 'varchar' } });
    expect(tryCast).toMatchObject({ k: 'cast', safe: true, type: { base: 'decimal', params: [10, 2] } });
  });

  test('set operations: INTERSECT binds tighter; EXCEPT ALL keeps ALL', () => {
    const s = parseStatement('SELECT 1 UNION SELECT 2 INTERSECT SELECT 3 EXCEPT ALL SELECT 4');
    if (s.k !== 'query') throw new Error(s.k);
    expect(s.query.body).toMatchObject({
      k: 'setop',
      op: 'except',
      all: true,
      left: { op: 'union', right: { op: 'intersect' } },
    });
  });

  test('malformed SQL fails with Trino wording and the position', () => {
    expect(failure('SELEC 1').message).toBe(
      "SYNTAX_ERROR: line 1:1: mismatched input 'SELEC'. Expecting: 'ALTER', 'CREATE', 'DELETE', 'DESCRIBE', 'DROP', 'INSERT', 'MERGE', 'SELECT', 'SHOW', 'UPDATE', 'VALUES', 'WITH'",
    );
    const e = failure('SELECT a,\n  FROM t');
    expect(e.message).toMatch(/^SYNTAX_ERROR: line 2:3: mismatched input 'FROM'/);
    expect(e.position).toEqual({ line: 2, column: 3 });
    expect(failure("SELECT 'open").message).toBe('SYNTAX_ERROR: line 1:8: unterminated string literal');
    expect(failure('SELECT 1 2').message).toMatch(
      /^SYNTAX_ERROR: line 1:10: mismatched input '2'. Expecting: <EOF>/,
    );
    expect(failure('SELECT * FROM t FOR VERSION 1').message).toMatch(
      /^SYNTAX_ERROR: line 1:29: mismatched input '1'. Expecting: 'AS'/,
    );
  });

  test('non-reserved words of Trino are names; GROUPING and FETCH ... WITH TIES parse', () => {
    const s = parseStatement(
      'SELECT comment, location, filter, grouping(a) FROM t GROUP BY ROLLUP (a) ORDER BY comment FETCH FIRST 1 ROW WITH TIES',
    );
    expect(s.k === 'query' && s.query.withTies).toBe(true);
    expect(parseStatement('INSERT INTO t (id, comment) VALUES (1, 2)').k).toBe('insert');
    expect(failure('SELECT a FROM t FETCH FIRST 1 ROW WITH TIES').message).toMatch(
      /^SYNTAX_ERROR: .*FETCH FIRST WITH TIES clause requires ORDER BY/,
    );
  });

  test('unsupported constructs fail naming the construct and position', () => {
    expect(failure('SELECT * FROM a NATURAL JOIN b').message).toBe(
      'NOT_SUPPORTED: line 1:17: NATURAL JOIN is not supported by the local engine (it runs on Athena)',
    );
    expect(failure('EXPLAIN SELECT 1').message).toMatch(/^NOT_SUPPORTED: line 1:1: EXPLAIN/);
    expect(failure('ALTER TABLE t ADD PARTITION (a = 1)').message).toMatch(
      /^NOT_SUPPORTED: line 1:1: ALTER TABLE \.\.\. ADD PARTITION \(/,
    );
    expect(failure('SELECT * FROM t WHERE a = ?').message).toMatch(
      /^NOT_SUPPORTED: line 1:27: Query parameters/,
    );
    expect(failure("CREATE EXTERNAL TABLE t (a int) LOCATION 's3://b/'").message).toMatch(
      /^NOT_SUPPORTED: line 1:1: CREATE EXTERNAL TABLE/,
    );
  });
});
