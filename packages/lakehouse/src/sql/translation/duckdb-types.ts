// Trino type names (CAST targets) → DuckDB types. Anything without a faithful mapping fails with NOT_SUPPORTED
// naming the type. IPADDRESS has no DuckDB type: it is a one-field struct of Trino's own 16-byte form (see
// functions/ip-address.ts), so it sorts, groups and compares as Trino's does.
import { sqlIdent as ident } from '../../duckdb/duckdb-session';
import { NotSupportedError } from '../errors';
import { typeName, typeText, type SqlType } from '../analyzer/types';
import type { TypeName } from '../tree/ast';
import { IPADDRESS_DUCKDB_TYPE } from '../functions/ip-address';

export function duckdbType(type: TypeName): string {
  const sub = (i: number): string => {
    const p = type.params[i];
    if (p === undefined || typeof p === 'number')
      throw new NotSupportedError(`Type ${typeText(type)}`, type.pos);
    return duckdbType(p);
  };
  switch (type.base) {
    case 'varchar':
    case 'char':
    case 'string':
      return 'VARCHAR';
    case 'bigint':
      return 'BIGINT';
    case 'integer':
    case 'int':
      return 'INTEGER';
    case 'smallint':
      return 'SMALLINT';
    case 'tinyint':
      return 'TINYINT';
    case 'double':
      return 'DOUBLE';
    case 'real':
    case 'float':
      return 'FLOAT';
    case 'boolean':
      return 'BOOLEAN';
    case 'date':
      return 'DATE';
    case 'timestamp': {
      if (type.withTimeZone) return 'TIMESTAMPTZ';
      // Trino's `timestamp` is timestamp(3).
      const precision = typeof type.params[0] === 'number' ? type.params[0] : 3;
      return precision === 0
        ? 'TIMESTAMP_S'
        : precision <= 3
          ? 'TIMESTAMP_MS'
          : precision <= 6
            ? 'TIMESTAMP'
            : 'TIMESTAMP_NS';
    }
    case 'time':
      if (type.withTimeZone) throw new NotSupportedError('Type time with time zone', type.pos);
      return 'TIME';
    case 'decimal': {
      const [p = 38, s = 0] = type.params;
      if (typeof p !== 'number' || typeof s !== 'number')
        throw new NotSupportedError(`Type ${typeText(type)}`, type.pos);
      return `DECIMAL(${p},${s})`;
    }
    case 'varbinary':
    case 'binary':
      return 'BLOB';
    case 'json':
      return 'JSON';
    case 'uuid':
      return 'UUID';
    case 'ipaddress':
      return IPADDRESS_DUCKDB_TYPE;
    case 'array':
      return `${sub(0)}[]`;
    case 'map':
      return `MAP(${sub(0)}, ${sub(1)})`;
    case 'row':
    case 'struct':
      return `STRUCT(${type.params.map((_, i) => `"${type.fieldNames?.[i] ?? `field${i}`}" ${sub(i)}`).join(', ')})`;
    default:
      throw new NotSupportedError(`Type ${typeText(type)}`, type.pos);
  }
}

const SQL_TYPES: Partial<Record<SqlType['k'], string>> = {
  varchar: 'VARCHAR',
  char: 'VARCHAR',
  tinyint: 'TINYINT',
  smallint: 'SMALLINT',
  integer: 'INTEGER',
  bigint: 'BIGINT',
  real: 'FLOAT',
  double: 'DOUBLE',
  boolean: 'BOOLEAN',
  date: 'DATE',
  varbinary: 'BLOB',
  json: 'JSON',
  uuid: 'UUID',
  ipaddress: IPADDRESS_DUCKDB_TYPE,
};

/** The DuckDB type holding values of an analyzer type (a Hive table's column read from Parquet). */
export function duckdbTypeOfSql(t: SqlType): string {
  switch (t.k) {
    case 'decimal':
      return `DECIMAL(${t.precision},${t.scale})`;
    case 'timestamp':
      if (t.zone !== undefined) return 'TIMESTAMPTZ';
      return t.precision === 0
        ? 'TIMESTAMP_S'
        : t.precision <= 3
          ? 'TIMESTAMP_MS'
          : t.precision <= 6
            ? 'TIMESTAMP'
            : 'TIMESTAMP_NS';
    case 'time':
      return 'TIME';
    case 'array':
      return `${duckdbTypeOfSql(t.element)}[]`;
    case 'map':
      return `MAP(${duckdbTypeOfSql(t.key)}, ${duckdbTypeOfSql(t.value)})`;
    case 'row':
      return `STRUCT(${t.fields.map((f, i) => `${ident(f.name ?? `field${i}`)} ${duckdbTypeOfSql(f.type)}`).join(', ')})`;
    default: {
      const duckdb = SQL_TYPES[t.k];
      if (!duckdb) throw new NotSupportedError(`Type ${typeName(t)}`);
      return duckdb;
    }
  }
}
