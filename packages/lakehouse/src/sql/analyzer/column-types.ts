// The Trino types of a bound table's columns: an Iceberg table's from its schema (Athena reads Iceberg timestamps
// as timestamp(6)), a Hive table's from the Hive types its catalog records (tinyint, array<string>, a
// millisecond timestamp...).
import type { Schema, TableHandle } from '../../contract';
import { isHiveTable } from '../catalog/catalog';
import { sqlTypeOfHive } from './hive-types';
import { sqlTypeOfIceberg, type SqlType } from './types';

export interface TypedColumn {
  /** Lower-cased, as names resolve. */
  name: string;
  type: SqlType;
}

export function columnTypes(table: TableHandle | undefined, schema: Schema): TypedColumn[] {
  if (table && isHiveTable(table))
    return table.hiveColumns.map((c) => ({ name: c.name.toLowerCase(), type: sqlTypeOfHive(c.type) }));
  return schema.fields.map((f) => ({ name: f.name.toLowerCase(), type: sqlTypeOfIceberg(f.type) }));
}
