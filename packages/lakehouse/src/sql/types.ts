// Type names across the three dialects involved: Trino/Athena SQL (CAST targets, DDL), Iceberg (table schema)
// and DuckDB (execution). Anything without a faithful mapping fails with NOT_SUPPORTED naming the type.
import type { IcebergPrimitive } from '../contract';
import type { TypeName } from './ast';
import { NotSupportedError } from './errors';

export function typeText(type: TypeName): string {
  const params = type.params.map((p, i) =>
    typeof p === 'number'
      ? String(p)
      : `${type.fieldNames?.[i] ? `${type.fieldNames[i]} ` : ''}${typeText(p)}`,
  );
  return `${type.base}${params.length ? `(${params.join(', ')})` : ''}${type.withTimeZone ? ' with time zone' : ''}`;
}

/** A Trino type (as written in CAST) → DuckDB type. */
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

/** A column type in Athena's Iceberg DDL (Hive names: string, int, bigint, timestamp...) → Iceberg primitive. */
export function icebergType(type: TypeName): IcebergPrimitive {
  switch (type.base) {
    case 'string':
    case 'varchar':
    case 'char':
      return 'string';
    case 'int':
    case 'integer':
      return 'int';
    case 'bigint':
      return 'long';
    case 'double':
      return 'double';
    case 'float':
    case 'real':
      return 'float';
    case 'boolean':
      return 'boolean';
    case 'date':
      return 'date';
    case 'timestamp':
      return type.withTimeZone ? 'timestamptz' : 'timestamp';
    case 'time':
      return 'time';
    case 'binary':
    case 'varbinary':
      return 'binary';
    case 'uuid':
      return 'uuid';
    case 'decimal': {
      const [p = 10, s = 0] = type.params;
      if (typeof p !== 'number' || typeof s !== 'number') break;
      return `decimal(${p},${s})`;
    }
  }
  throw new NotSupportedError(
    `Column type ${typeText(type)} (the local engine stores Iceberg primitive types: string, int, bigint, double, float, boolean, date, timestamp, decimal(p,s), binary)`,
    type.pos,
  );
}

/** Iceberg primitive → the DuckDB type its values are cast to before an append (the engine's own mapping). */
export { duckdbType as icebergToDuckdb } from '../metadata/types';

/** Iceberg primitive → the type name Athena shows for the column (DESCRIBE, result metadata). */
export function icebergToAthena(type: IcebergPrimitive): string {
  switch (type) {
    case 'int':
      return 'int';
    case 'long':
      return 'bigint';
    case 'timestamptz':
      return 'timestamp with time zone';
    default:
      return type;
  }
}
