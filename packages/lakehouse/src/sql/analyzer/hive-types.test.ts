// Hive type names as Glue records them ↔ Trino's types, as Athena's Hive connector maps them.
import { describe, expect, test } from '@jest/globals';
import { hiveTypeOf, sqlTypeOfHive } from './hive-types';
import { typeName } from './types';

describe('Hive types', () => {
  test('Glue type names read as Trino types; a Hive timestamp is timestamp(3); unknown names read as varchar', () => {
    expect(
      [
        'string',
        'int',
        'TINYINT',
        'array<string>',
        'map<string,array<bigint>>',
        'struct<a:int, b:decimal(10,2)>',
        'timestamp',
        'varchar(12)',
        'float',
        'geometry',
      ].map((t) => typeName(sqlTypeOfHive(t))),
    ).toEqual([
      'varchar',
      'integer',
      'tinyint',
      'array(varchar)',
      'map(varchar, array(bigint))',
      'row(a integer, b decimal(10,2))',
      'timestamp(3)',
      'varchar(12)',
      'real',
      'varchar',
    ]);
  });

  test('CTAS columns are written as Hive types; types Hive cannot hold are refused with Trino text', () => {
    expect(hiveTypeOf({ k: 'array', element: { k: 'varchar', length: 3 } })).toBe('array<varchar(3)>');
    expect(hiveTypeOf({ k: 'timestamp', precision: 6 })).toBe('timestamp');
    expect(() => hiveTypeOf({ k: 'ipaddress' })).toThrow('NOT_SUPPORTED: Unsupported Hive type: ipaddress');
    expect(() => hiveTypeOf({ k: 'timestamp', precision: 3, zone: 'UTC' })).toThrow(
      'Unsupported Hive type: timestamp(3) with time zone',
    );
    expect(() => hiveTypeOf({ k: 'row', fields: [{ type: { k: 'integer' } }] })).toThrow(
      'Anonymous row type is not supported in Hive',
    );
  });
});
