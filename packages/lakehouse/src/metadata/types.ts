// Iceberg primitive types: parsing, validation and the DuckDB type each one is stored as.
import type { IcebergPrimitive } from '../contract';
import { InvalidSchemaError } from '../errors';

/** Primitive types without parameters, as the contract spells them. */
type SimpleKind = Exclude<IcebergPrimitive, `decimal(${number},${number})`>;

export type TypeKind = SimpleKind | 'decimal';

export interface ParsedType {
  kind: TypeKind;
  precision: number;
  scale: number;
}

// A record keyed by SimpleKind, so a type added to the contract fails to compile here until it is listed.
const SIMPLE_KINDS: Record<SimpleKind, true> = {
  boolean: true,
  int: true,
  long: true,
  float: true,
  double: true,
  date: true,
  time: true,
  timestamp: true,
  timestamptz: true,
  string: true,
  uuid: true,
  binary: true,
};
const SIMPLE: ReadonlySet<string> = new Set(Object.keys(SIMPLE_KINDS));

const DECIMAL = /^decimal\(\s*(\d+)\s*,\s*(\d+)\s*\)$/;

export function isIcebergPrimitive(type: string): type is IcebergPrimitive {
  if (SIMPLE.has(type)) return true;
  const match = DECIMAL.exec(type);
  if (!match) return false;
  const precision = Number(match[1]);
  const scale = Number(match[2]);
  return precision >= 1 && precision <= 38 && scale <= precision;
}

const parsedCache = new Map<string, ParsedType>();

export function parseType(type: string): ParsedType {
  const cached = parsedCache.get(type);
  if (cached) return cached;
  const parsed = parseTypeUncached(type);
  if (parsedCache.size < 1000) parsedCache.set(type, parsed);
  return parsed;
}

function parseTypeUncached(type: string): ParsedType {
  if (SIMPLE.has(type)) return { kind: type as TypeKind, precision: 0, scale: 0 };
  const match = DECIMAL.exec(type);
  if (match && isIcebergPrimitive(type)) {
    return { kind: 'decimal', precision: Number(match[1]), scale: Number(match[2]) };
  }
  throw new InvalidSchemaError(
    `Unsupported Iceberg type '${type}'. Use one of boolean, int, long, float, double, date, time, timestamp, ` +
      `timestamptz, string, uuid, binary or decimal(p,s) with 1 <= p <= 38 and s <= p.`,
    { value: type },
  );
}

/** Normalises spellings ("decimal(10, 2)" → "decimal(10,2)"). */
export function normaliseType(type: string): IcebergPrimitive {
  const parsed = parseType(type.trim().toLowerCase());
  return (
    parsed.kind === 'decimal' ? `decimal(${parsed.precision},${parsed.scale})` : parsed.kind
  ) as IcebergPrimitive;
}

export function duckdbType(type: string): string {
  const parsed = parseType(type);
  switch (parsed.kind) {
    case 'boolean':
      return 'BOOLEAN';
    case 'int':
      return 'INTEGER';
    case 'long':
      return 'BIGINT';
    case 'float':
      return 'FLOAT';
    case 'double':
      return 'DOUBLE';
    case 'date':
      return 'DATE';
    case 'time':
      return 'TIME';
    case 'timestamp':
      return 'TIMESTAMP';
    case 'timestamptz':
      return 'TIMESTAMPTZ';
    case 'string':
      return 'VARCHAR';
    case 'uuid':
      return 'UUID';
    case 'binary':
      return 'BLOB';
    case 'decimal':
      return `DECIMAL(${parsed.precision},${parsed.scale})`;
  }
}
