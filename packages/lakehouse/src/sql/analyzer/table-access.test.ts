import { describe, expect, test } from '@jest/globals';
import { prepareStatement } from '../engine';

const CONTEXT = { catalog: 's3tablescatalog/lab-bucket', database: 'network' };
const accesses = (sql: string) =>
  prepareStatement(sql)
    .tableAccesses(CONTEXT)
    .map(
      (a) =>
        `${a.kind} ${a.catalog}.${a.schema}${a.table ? `.${a.table}` : ''}${a.metadataTable ? ` ($${a.metadataTable})` : ''}`,
    );

describe('what a statement does to which tables', () => {
  test('a query reads every table it names, not its CTEs; a metadata table is a read of its table', () => {
    expect(
      accesses(`WITH recent AS (SELECT * FROM vpc_flow_logs)
        SELECT * FROM recent r JOIN ref.host_inventory h ON r.srcaddr = h.private_ip
        WHERE r.dstaddr IN (SELECT ip FROM "s3tablescatalog/lab-bucket".ref.known_bad_ips)`),
    ).toEqual([
      'read s3tablescatalog/lab-bucket.network.vpc_flow_logs',
      'read s3tablescatalog/lab-bucket.ref.host_inventory',
      'read s3tablescatalog/lab-bucket.ref.known_bad_ips',
    ]);
    expect(accesses('SELECT operation FROM "vpc_flow_logs$snapshots"')).toEqual([
      'read s3tablescatalog/lab-bucket.network.vpc_flow_logs ($snapshots)',
    ]);
  });

  test('DML: the target written (MERGE by its clauses), the sources read', () => {
    expect(accesses('INSERT INTO ref.known_bad_ips SELECT srcaddr, 1 FROM vpc_flow_logs')).toEqual([
      'insert s3tablescatalog/lab-bucket.ref.known_bad_ips',
      'read s3tablescatalog/lab-bucket.network.vpc_flow_logs',
    ]);
    expect(accesses('DELETE FROM vpc_flow_logs WHERE srcaddr IN (SELECT ip FROM ref.known_bad_ips)')).toEqual(
      [
        'delete s3tablescatalog/lab-bucket.network.vpc_flow_logs',
        'read s3tablescatalog/lab-bucket.ref.known_bad_ips',
      ],
    );
    expect(accesses("UPDATE ref.host_inventory SET tier = 'web' WHERE hostname = 'a'")).toEqual([
      'update s3tablescatalog/lab-bucket.ref.host_inventory',
    ]);
    expect(
      accesses(`MERGE INTO ref.host_inventory t USING ref.changes s ON t.private_ip = s.private_ip
        WHEN MATCHED AND s.op = 'delete' THEN DELETE
        WHEN MATCHED THEN UPDATE SET tier = s.tier
        WHEN NOT MATCHED THEN INSERT (private_ip) VALUES (s.private_ip)`),
    ).toEqual([
      'insert s3tablescatalog/lab-bucket.ref.host_inventory',
      'update s3tablescatalog/lab-bucket.ref.host_inventory',
      'delete s3tablescatalog/lab-bucket.ref.host_inventory',
      'read s3tablescatalog/lab-bucket.ref.changes',
    ]);
  });

  test('DDL and utility statements: create, drop, alter, describe, list', () => {
    expect(accesses("CREATE TABLE lab.t (a int) TBLPROPERTIES ('table_type'='iceberg')")).toEqual([
      'create s3tablescatalog/lab-bucket.lab.t',
    ]);
    expect(
      accesses(
        "CREATE TABLE awsdatacatalog.snaps.day WITH (format='PARQUET', external_location='s3://b/p/') AS SELECT * FROM vpc_flow_logs",
      ),
    ).toEqual(['create awsdatacatalog.snaps.day', 'read s3tablescatalog/lab-bucket.network.vpc_flow_logs']);
    expect(accesses('DROP TABLE IF EXISTS enriched.labelled')).toEqual([
      'drop s3tablescatalog/lab-bucket.enriched.labelled',
    ]);
    expect(accesses('ALTER TABLE vpc_flow_logs ADD COLUMNS (note string)')).toEqual([
      'alter s3tablescatalog/lab-bucket.network.vpc_flow_logs',
    ]);
    expect(accesses('DESCRIBE ref.host_inventory')).toEqual([
      'describe s3tablescatalog/lab-bucket.ref.host_inventory',
    ]);
    expect(accesses('SHOW TABLES IN ref')).toEqual(['list s3tablescatalog/lab-bucket.ref']);
  });
});
