// Athena's Iceberg DDL and DML pages, walked in order on one S3 Tables namespace: create, insert, update, delete,
// merge, time travel, metadata tables, schema evolution (ADD COLUMNS, CHANGE COLUMN, DROP COLUMN, SHOW COLUMNS),
// table properties, SHOW CREATE TABLE, CTAS, and what Athena refuses on S3 Tables (OPTIMIZE, VACUUM, ALTER TABLE
// RENAME, CREATE VIEW, ALTER DATABASE) and on Iceberg tables (REPLACE COLUMNS). The pages' examples name an S3
// LOCATION; S3 Tables manage their tables' locations, so the statements here leave it out.
import type { CorpusCase } from '../case';

const UG = 'https://docs.aws.amazon.com/athena/latest/ug';
const S3_TABLES = `${UG}/gdc-register-s3-table-bucket-cat.html`;

const c = (id: string, source: string, sql: string, extra: Partial<CorpusCase> = {}): CorpusCase => ({
  id: `iceberg-ddl-dml/${id}`,
  family: 'iceberg-ddl-dml',
  source: `${UG}/${source}`,
  sql,
  sequential: true,
  ...extra,
});

/**
 * A statement the page says Athena does not support: only that it fails as NOT_SUPPORTED is checked (the page
 * gives no error text; the local engine's reason is its own).
 */
const refused = (id: string, sql: string, source = S3_TABLES): CorpusCase => ({
  id: `iceberg-ddl-dml/${id}`,
  family: 'iceberg-ddl-dml',
  source,
  sql,
  sequential: true,
  error: /^NOT_SUPPORTED: /,
  ours: 'the error name NOT_SUPPORTED: the page says only that the statement is not supported',
});

export const ICEBERG_DDL_DML: CorpusCase[] = [
  c(
    'create-table',
    'querying-iceberg-creating-tables.html',
    "CREATE TABLE iceberg_table (id int, data string, category string) PARTITIONED BY (category, bucket(16, id)) TBLPROPERTIES ('table_type' = 'ICEBERG')",
    { rows: [] },
  ),
  c('insert-values', 'querying-iceberg-insert-into.html', "INSERT INTO iceberg_table VALUES (1, 'a', 'c1')"),
  c(
    'insert-more',
    'querying-iceberg-insert-into.html',
    "INSERT INTO iceberg_table VALUES (2, 'b', 'c1'), (3, 'c', 'c2'), (4, 'd', 'c3')",
  ),
  c('select', 'querying-iceberg-table-data.html', 'SELECT * FROM iceberg_table ORDER BY id', {
    rows: [
      ['1', 'a', 'c1'],
      ['2', 'b', 'c1'],
      ['3', 'c', 'c2'],
      ['4', 'd', 'c3'],
    ],
    types: ['integer', 'varchar', 'varchar'],
  }),
  c('update', 'querying-iceberg-update.html', "UPDATE iceberg_table SET category='c2' WHERE category='c1'"),
  c(
    'after-update',
    'querying-iceberg-update.html',
    'SELECT category, count(*) FROM iceberg_table GROUP BY category ORDER BY category',
    {
      rows: [
        ['c2', '3'],
        ['c3', '1'],
      ],
    },
  ),
  c('delete', 'querying-iceberg-delete.html', "DELETE FROM iceberg_table WHERE category='c3'"),
  c('after-delete', 'querying-iceberg-delete.html', 'SELECT count(*) FROM iceberg_table', { rows: [['3']] }),
  c('snapshots', 'querying-iceberg-table-data.html', 'SELECT count(*) FROM "iceberg_table$snapshots"', {
    rows: [['4']],
    note: 'two appends, the UPDATE and the DELETE: one snapshot each',
  }),
  c('history', 'querying-iceberg-table-data.html', 'SELECT count(*) FROM "iceberg_table$history"', {
    rows: [['4']],
  }),
  c(
    'time-travel-before-the-table',
    'querying-iceberg-table-data.html',
    "SELECT * FROM iceberg_table FOR TIMESTAMP AS OF (current_timestamp - interval '1' day)",
    { error: /^INVALID_ARGUMENTS: .*No version history table docs\.iceberg_table at or before/ },
  ),
  c(
    'add-columns',
    'querying-iceberg-alter-table-add-columns.html',
    'ALTER TABLE iceberg_table ADD COLUMNS (comment string)',
  ),
  c(
    'new-column-reads-null',
    'querying-iceberg-alter-table-add-columns.html',
    'SELECT id, comment FROM iceberg_table WHERE id = 1',
    { rows: [['1', null]] },
  ),
  c(
    'change-column',
    'querying-iceberg-alter-table-change-column.html',
    'ALTER TABLE iceberg_table CHANGE comment blog_comment string AFTER id',
  ),
  c('show-columns', 'querying-iceberg-show-columns.html', 'SHOW COLUMNS FROM iceberg_table', {
    rows: [['id'], ['blog_comment'], ['data'], ['category']],
  }),
  c(
    'change-column-type',
    'querying-iceberg-alter-table-change-column.html',
    'ALTER TABLE iceberg_table CHANGE COLUMN id id bigint',
  ),
  c(
    'drop-column',
    'querying-iceberg-alter-table-drop-column.html',
    'ALTER TABLE iceberg_table DROP COLUMN blog_comment',
  ),
  c('describe', 'querying-iceberg-describe-table.html', 'DESCRIBE iceberg_table', {
    rows: [
      ['id', 'bigint', ''],
      ['data', 'string', ''],
      ['category', 'string', ''],
      ['', '', ''],
      ['# Partition Transforms', '', ''],
      ['# col_name', 'transform', ''],
      ['category', 'identity', ''],
      ['id', 'bucket[16]', ''],
    ],
    ours: "the output: the page shows the statement only; this is Athena's Hive DESCRIBE layout (columns, then the partition transforms) as the local engine prints it",
  }),
  c(
    'read-after-evolution',
    'querying-iceberg-alter-table-change-column.html',
    'SELECT * FROM iceberg_table ORDER BY id',
    {
      rows: [
        ['1', 'a', 'c2'],
        ['2', 'b', 'c2'],
        ['3', 'c', 'c2'],
      ],
      types: ['bigint', 'varchar', 'varchar'],
    },
  ),
  c(
    'set-tblproperties',
    'querying-iceberg-alter-table-set-properties.html',
    "ALTER TABLE iceberg_table SET TBLPROPERTIES ('format'='parquet', 'write_compression'='snappy', 'optimize_rewrite_delete_file_threshold'='10')",
  ),
  c(
    'show-tblproperties',
    'querying-iceberg-show-table-properties.html',
    "SHOW TBLPROPERTIES iceberg_table ('write_compression')",
    { rows: [['write_compression', 'snappy']] },
  ),
  c(
    'unset-tblproperties',
    'querying-iceberg-alter-table-unset-properties.html',
    "ALTER TABLE iceberg_table UNSET TBLPROPERTIES ('optimize_rewrite_delete_file_threshold')",
  ),
  c(
    'property-unset',
    'querying-iceberg-alter-table-unset-properties.html',
    "SHOW TBLPROPERTIES iceberg_table ('optimize_rewrite_delete_file_threshold')",
    { rows: [] },
  ),
  c('show-create-table', 'querying-iceberg-show-create-table.html', 'SHOW CREATE TABLE iceberg_table', {
    rows: [
      ['CREATE TABLE docs.iceberg_table ('],
      ['  "id" bigint,'],
      ['  "data" string,'],
      ['  "category" string)'],
      ['PARTITIONED BY (category, bucket(16, id))'],
      ['TBLPROPERTIES ('],
      ["  'table_type'='iceberg',"],
      ["  'format'='parquet',"],
      ["  'write_compression'='snappy'"],
      [')'],
    ],
    ours: 'the output: the page shows the statement only; the local engine prints DDL that recreates the table (checked by a lakehouse test)',
  }),
  c(
    'merge-target',
    'merge-into-statement.html',
    "CREATE TABLE accounts (customer string, purchases int) TBLPROPERTIES ('table_type' = 'ICEBERG')",
  ),
  c(
    'merge-target-rows',
    'merge-into-statement.html',
    "INSERT INTO accounts VALUES ('a', 10), ('b', 20), ('c', 30)",
  ),
  c(
    'merge-source',
    'merge-into-statement.html',
    "CREATE TABLE monthly_accounts_update (customer string, purchases int) TBLPROPERTIES ('table_type' = 'ICEBERG')",
  ),
  c(
    'merge-source-rows',
    'merge-into-statement.html',
    "INSERT INTO monthly_accounts_update VALUES ('a', 5), ('b', NULL), ('d', 40)",
  ),
  c(
    'merge',
    'merge-into-statement.html',
    `MERGE INTO accounts t USING monthly_accounts_update s ON (t.customer = s.customer)
     WHEN MATCHED AND s.purchases IS NOT NULL THEN UPDATE SET purchases = s.purchases + t.purchases
     WHEN MATCHED AND s.purchases IS NULL THEN DELETE
     WHEN NOT MATCHED THEN INSERT (customer, purchases) VALUES (s.customer, s.purchases)`,
  ),
  c(
    'after-merge',
    'merge-into-statement.html',
    'SELECT customer, purchases FROM accounts ORDER BY customer',
    {
      rows: [
        ['a', '15'],
        ['c', '30'],
        ['d', '40'],
      ],
    },
  ),
  c(
    'ctas',
    'create-table-as.html',
    "CREATE TABLE iceberg_ctas WITH (format = 'PARQUET', partitioning = ARRAY['category']) AS SELECT id, data, category FROM iceberg_table",
  ),
  c('ctas-rows', 'create-table-as.html', 'SELECT count(*) FROM iceberg_ctas', { rows: [['3']] }),
  refused('optimize-refused', "OPTIMIZE iceberg_table REWRITE DATA USING BIN_PACK WHERE category = 'c2'"),
  refused('vacuum-refused', 'VACUUM iceberg_table'),
  refused('rename-refused', 'ALTER TABLE iceberg_table RENAME TO iceberg_table2'),
  refused('create-view-refused', 'CREATE VIEW v AS SELECT 1 AS a'),
  refused('alter-database-refused', "ALTER DATABASE docs SET DBPROPERTIES ('owner'='me')"),
  refused(
    'replace-columns-refused',
    'ALTER TABLE iceberg_table REPLACE COLUMNS (id int)',
    `${UG}/querying-iceberg-alter-table-change-column.html`,
  ),
  c('drop-table', 'querying-iceberg-drop-table.html', 'DROP TABLE iceberg_ctas'),
  c('show-tables', 'querying-iceberg-drop-table.html', "SHOW TABLES LIKE 'iceberg*'", {
    rows: [['iceberg_table']],
  }),
];
