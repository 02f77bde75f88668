// Trino's types as the analyzer reasons about them (with timestamp precision and, for values with a time zone,
// the zone they display in), and the mappings between them and the other two dialects' names: the DDL type
// names of Athena's Iceberg statements and the Iceberg primitives a table stores.
import type { IcebergPrimitive } from '../../contract';
import { parseType } from '../../metadata/types';
import { NotSupportedError } from '../errors';
import type { TypeName } from '../tree/ast';

export type SqlType =
  | { k: 'varchar'; length?: number }
  | { k: 'char'; length: number }
  | {
      k:
        | 'tinyint'
        | 'smallint'
        | 'integer'
        | 'bigint'
        | 'real'
        | 'double'
        | 'boolean'
        | 'date'
        | 'varbinary'
        | 'json'
        | 'ipaddress'
        | 'uuid'
        | 'unknown'
        | 'interval day to second'
        | 'interval year to month';
    }
  | { k: 'decimal'; precision: number; scale: number }
  /** `zone` set: timestamp(p) with time zone, displayed in that zone (`UTC`, `+01:00`, `America/New_York`). */
  | { k: 'timestamp'; precision: number; zone?: string }
  | { k: 'time'; precision: number }
  | { k: 'array'; element: SqlType }
  | { k: 'map'; key: SqlType; value: SqlType }
  | { k: 'row'; fields: { name?: string; type: SqlType }[] };

export const VARCHAR: SqlType = { k: 'varchar' };
export const BIGINT: SqlType = { k: 'bigint' };
export const INTEGER: SqlType = { k: 'integer' };
export const DOUBLE: SqlType = { k: 'double' };
export const BOOLEAN: SqlType = { k: 'boolean' };
export const DATE: SqlType = { k: 'date' };
export const UNKNOWN: SqlType = { k: 'unknown' };

/** Trino's name for a type, as its messages and Athena's result metadata spell it. */
export function typeName(t: SqlType): string {
  switch (t.k) {
    case 'varchar':
      return t.length === undefined ? 'varchar' : `varchar(${t.length})`;
    case 'char':
      return `char(${t.length})`;
    case 'decimal':
      return `decimal(${t.precision},${t.scale})`;
    case 'timestamp':
      return `timestamp(${t.precision})${t.zone !== undefined ? ' with time zone' : ''}`;
    case 'time':
      return `time(${t.precision})`;
    case 'array':
      return `array(${typeName(t.element)})`;
    case 'map':
      return `map(${typeName(t.key)}, ${typeName(t.value)})`;
    case 'row':
      return `row(${t.fields.map((f) => `${f.name ? `${f.name} ` : ''}${typeName(f.type)}`).join(', ')})`;
    default:
      return t.k;
  }
}

export const isCharacter = (t: SqlType): boolean => t.k === 'varchar' || t.k === 'char';
export const isNumeric = (t: SqlType): boolean =>
  ['tinyint', 'smallint', 'integer', 'bigint', 'real', 'double', 'decimal'].includes(t.k);
export const isExactInteger = (t: SqlType): boolean =>
  ['tinyint', 'smallint', 'integer', 'bigint'].includes(t.k);
export const hasZone = (t: SqlType | undefined): t is { k: 'timestamp'; precision: number; zone: string } =>
  t?.k === 'timestamp' && t.zone !== undefined;

/** The Trino type a stored Iceberg column reads as (Athena: Iceberg timestamps are timestamp(6)). */
export function sqlTypeOfIceberg(type: IcebergPrimitive): SqlType {
  const parsed = parseType(type);
  switch (parsed.kind) {
    case 'string':
      return VARCHAR;
    case 'int':
      return INTEGER;
    case 'long':
      return BIGINT;
    case 'float':
      return { k: 'real' };
    case 'double':
      return DOUBLE;
    case 'boolean':
      return BOOLEAN;
    case 'date':
      return DATE;
    case 'time':
      return { k: 'time', precision: 6 };
    case 'timestamp':
      return { k: 'timestamp', precision: 6 };
    case 'timestamptz':
      return { k: 'timestamp', precision: 6, zone: 'UTC' };
    case 'binary':
      return { k: 'varbinary' };
    case 'uuid':
      return { k: 'uuid' };
    case 'decimal':
      return { k: 'decimal', precision: parsed.precision, scale: parsed.scale };
  }
}

/** The type a CAST names (`varchar`, `timestamp(3)`, `array(integer)`, `row(a int)`), or undefined if unknown. */
export function sqlTypeOfName(type: TypeName): SqlType | undefined {
  const p = type.params;
  const sub = (i: number): SqlType | undefined => {
    const param = p[i];
    return param === undefined || typeof param === 'number' ? undefined : sqlTypeOfName(param);
  };
  switch (type.base) {
    case 'varchar':
    case 'string':
      return typeof p[0] === 'number' ? { k: 'varchar', length: p[0] } : VARCHAR;
    case 'char':
      return { k: 'char', length: typeof p[0] === 'number' ? p[0] : 1 };
    case 'tinyint':
    case 'smallint':
    case 'bigint':
    case 'double':
    case 'real':
    case 'boolean':
    case 'date':
    case 'varbinary':
    case 'json':
    case 'ipaddress':
    case 'uuid':
      return { k: type.base };
    case 'integer':
    case 'int':
      return INTEGER;
    case 'float':
      return { k: 'real' };
    case 'binary':
      return { k: 'varbinary' };
    case 'decimal':
      return {
        k: 'decimal',
        precision: typeof p[0] === 'number' ? p[0] : 38,
        scale: typeof p[1] === 'number' ? p[1] : 0,
      };
    case 'timestamp': {
      // Trino's `timestamp` is timestamp(3).
      const precision = typeof p[0] === 'number' ? p[0] : 3;
      return type.withTimeZone ? { k: 'timestamp', precision, zone: 'UTC' } : { k: 'timestamp', precision };
    }
    case 'time':
      return { k: 'time', precision: typeof p[0] === 'number' ? p[0] : 3 };
    case 'array': {
      const element = sub(0);
      return element && { k: 'array', element };
    }
    case 'map': {
      const key = sub(0);
      const value = sub(1);
      return key && value && { k: 'map', key, value };
    }
    case 'row':
    case 'struct': {
      const fields = p.map((_, i) => ({ name: type.fieldNames?.[i], type: sub(i) }));
      if (fields.some((f) => !f.type)) return undefined;
      return { k: 'row', fields: fields as { name?: string; type: SqlType }[] };
    }
    default:
      return undefined;
  }
}

/** Writes a TypeName back as Trino spells it (for messages). */
export function typeText(type: TypeName): string {
  const params = type.params.map((p, i) =>
    typeof p === 'number'
      ? String(p)
      : `${type.fieldNames?.[i] ? `${type.fieldNames[i]} ` : ''}${typeText(p)}`,
  );
  return `${type.base}${params.length ? `(${params.join(', ')})` : ''}${type.withTimeZone ? ' with time zone' : ''}`;
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

/** Iceberg primitive → the type name Athena shows for the column (DESCRIBE, SHOW CREATE TABLE). */
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

/** The type values share (CASE results, array items, a VALUES column): their kind, the wider integer or DOUBLE among
 * numbers; unknown when only unknowns are known; undefined when no rule applies. */
export function commonType(types: readonly (SqlType | undefined)[]): SqlType | undefined {
  const known = types.filter((t): t is SqlType => t !== undefined && t.k !== 'unknown');
  if (known.length === 0) return types.some((t) => t?.k === 'unknown') ? UNKNOWN : undefined;
  const first = known[0] as SqlType;
  if (known.every((t) => t.k === first.k)) {
    if (first.k === 'timestamp') {
      const stamps = known as Extract<SqlType, { k: 'timestamp' }>[];
      return { ...first, precision: Math.max(...stamps.map((t) => t.precision)) };
    }
    if (first.k === 'varchar') return VARCHAR;
    return first;
  }
  if (known.every((t) => isExactInteger(t))) return known.some((t) => t.k === 'bigint') ? BIGINT : INTEGER;
  if (known.every((t) => isNumeric(t)) && known.some((t) => t.k === 'double' || t.k === 'real'))
    return DOUBLE;
  return undefined;
}
