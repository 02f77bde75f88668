// Athena's ColumnInfo for a result column, as GetQueryResults reports it (engine version 3).
import type { ColumnInfo } from '@aws-sdk/client-athena';
import type { ResultColumn } from '@loglake/lakehouse';

const PRECISION: Record<string, number> = {
  varchar: 2147483647,
  char: 2147483647,
  varbinary: 1073741824,
  bigint: 19,
  integer: 10,
  smallint: 5,
  tinyint: 3,
  double: 17,
  real: 24,
  boolean: 0,
  date: 0,
  json: 0,
};

export function columnInfo(column: ResultColumn): ColumnInfo {
  const type = column.type;
  const base = type.replace(/\(.*$/, '');
  let precision = PRECISION[base] ?? 0;
  let scale = 0;
  const decimal = /^decimal\((\d+),\s*(\d+)\)$/.exec(type);
  if (decimal) {
    precision = Number(decimal[1]);
    scale = Number(decimal[2]);
  }
  const timestamp = /^timestamp\((\d+)\)/.exec(type);
  if (timestamp) precision = Number(timestamp[1]);
  const varcharLength = /^(varchar|char)\((\d+)\)$/.exec(type);
  if (varcharLength) precision = Number(varcharLength[2]);
  return {
    CatalogName: 'hive',
    SchemaName: '',
    TableName: '',
    Name: column.name,
    Label: column.name,
    Type: type,
    Precision: precision,
    Scale: scale,
    Nullable: 'UNKNOWN',
    CaseSensitive: base === 'varchar' || base === 'char',
  };
}
