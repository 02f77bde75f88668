// Partition transforms with Iceberg semantics: validation per source type, result types, evaluation on
// literals (pruning, bucket/truncate staging), DuckDB SQL forms, and inclusive projection of predicates.
import type { Transform } from '../contract';
import { InvalidTransformError } from '../errors';
import { bucketOf } from './murmur3';
import { parseType, type TypeKind } from './types';
import { daysToDateText, literalToText, type Literal } from './values';

export type TransformKind = 'identity' | 'year' | 'month' | 'day' | 'hour' | 'void' | 'bucket' | 'truncate';

export interface ParsedTransform {
  kind: TransformKind;
  /** Bucket count or truncate width. */
  param: number;
}

const ALLOWED: Record<TransformKind, ReadonlySet<TypeKind> | 'any'> = {
  identity: 'any',
  void: 'any',
  year: new Set(['date', 'timestamp', 'timestamptz']),
  month: new Set(['date', 'timestamp', 'timestamptz']),
  day: new Set(['date', 'timestamp', 'timestamptz']),
  hour: new Set(['timestamp', 'timestamptz']),
  bucket: new Set([
    'int',
    'long',
    'decimal',
    'date',
    'time',
    'timestamp',
    'timestamptz',
    'string',
    'uuid',
    'binary',
  ]),
  truncate: new Set(['int', 'long', 'decimal', 'string', 'binary']),
};

export function parseTransform(transform: string): ParsedTransform {
  const text = transform.trim().toLowerCase();
  const param = /^(bucket|truncate)\[(\d+)\]$/.exec(text);
  if (param) {
    const n = Number(param[2]);
    if (n < 1 || n > 2 ** 31 - 1) {
      throw new InvalidTransformError(
        `Transform '${transform}' needs a positive width/count, e.g. ${param[1]}[16].`,
        {
          value: transform,
        },
      );
    }
    return { kind: param[1] as TransformKind, param: n };
  }
  if (['identity', 'year', 'month', 'day', 'hour', 'void'].includes(text))
    return { kind: text as TransformKind, param: 0 };
  throw new InvalidTransformError(
    `Unknown partition transform '${transform}'. Use identity, year, month, day, hour, bucket[N], truncate[W] or void.`,
    { value: transform },
  );
}

export function transformToString(t: ParsedTransform): Transform {
  return (t.kind === 'bucket' || t.kind === 'truncate' ? `${t.kind}[${t.param}]` : t.kind) as Transform;
}

/** Throws InvalidTransformError when `transform` cannot apply to a column of `sourceType`. */
export function validateTransform(transform: string, sourceType: string, column: string): ParsedTransform {
  const parsed = parseTransform(transform);
  const allowed = ALLOWED[parsed.kind];
  const kind = parseType(sourceType).kind;
  if (allowed !== 'any' && !allowed.has(kind)) {
    const ok = [...allowed].join(', ');
    throw new InvalidTransformError(
      `Transform '${transform}' cannot apply to column '${column}' of type ${sourceType}; it accepts ${ok}.`,
      { value: transform },
    );
  }
  return parsed;
}

export function transformResultType(t: ParsedTransform, sourceType: string): string {
  switch (t.kind) {
    case 'identity':
    case 'truncate':
    case 'void':
      return sourceType;
    case 'day':
      return 'date';
    default:
      return 'int';
  }
}

const MICROS_PER_HOUR = 3_600_000_000n;
const MICROS_PER_DAY = 86_400_000_000n;

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
}

function daysOf(kind: TypeKind, literal: Literal): number {
  return kind === 'date' ? (literal as number) : Number(floorDiv(literal as bigint, MICROS_PER_DAY));
}

function yearMonth(days: number): { year: number; month: number } {
  const d = new Date(days * 86_400_000);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() };
}

/** Applies a transform to a literal of the source type (null stays null). */
export function applyTransform(
  t: ParsedTransform,
  sourceType: string,
  literal: Literal | null,
): Literal | null {
  if (literal === null || t.kind === 'void') return null;
  const kind = parseType(sourceType).kind;
  switch (t.kind) {
    case 'identity':
      return literal;
    case 'year':
      return yearMonth(daysOf(kind, literal)).year - 1970;
    case 'month': {
      const { year, month } = yearMonth(daysOf(kind, literal));
      return (year - 1970) * 12 + month;
    }
    case 'day':
      return daysOf(kind, literal);
    case 'hour':
      return Number(floorDiv(literal as bigint, MICROS_PER_HOUR));
    case 'bucket':
      return bucketOf(sourceType, literal, t.param);
    case 'truncate':
      if (typeof literal === 'number') return literal - (((literal % t.param) + t.param) % t.param);
      if (typeof literal === 'bigint') {
        const w = BigInt(t.param);
        return literal - (((literal % w) + w) % w);
      }
      if (typeof literal === 'string') return Array.from(literal).slice(0, t.param).join('');
      if (literal instanceof Uint8Array) return literal.slice(0, t.param);
      return literal;
  }
}

/** A typed DuckDB expression of the transform's result (orderable like the result type), or null when the
 * transform has no SQL form (bucket, decimal/binary truncate: computed in JS from distinct values). */
export function transformValueSql(t: ParsedTransform, sourceType: string, column: string): string | null {
  const kind = parseType(sourceType).kind;
  switch (t.kind) {
    case 'identity':
      return column;
    case 'void':
      return 'NULL';
    case 'year':
      return `(year(${column}) - 1970)`;
    case 'month':
      return `((year(${column}) - 1970) * 12 + month(${column}) - 1)`;
    case 'day':
      return `CAST(${column} AS DATE)`;
    case 'hour':
      // date_diff counts hour boundaries, i.e. floor division, also before 1970 (epoch_us // n would not).
      return `date_diff('hour', TIMESTAMP '1970-01-01', CAST(${column} AS TIMESTAMP))`;
    case 'truncate':
      if (kind === 'int' || kind === 'long') {
        return `(${column} - (((${column} % ${t.param}) + ${t.param}) % ${t.param}))`;
      }
      if (kind === 'string') return `left(${column}, ${t.param})`;
      return null;
    case 'bucket':
      return null;
  }
}

/** The partition value as text that `coerceValue(resultType)` parses (null: no SQL form, see above). */
export function transformTextSql(t: ParsedTransform, sourceType: string, column: string): string | null {
  if (t.kind === 'identity' && parseType(sourceType).kind === 'binary') return `to_base64(${column})`;
  const value = transformValueSql(t, sourceType, column);
  return value === null ? null : `CAST(${value} AS VARCHAR)`;
}

/** Human-readable partition directory value (`2024-05-01-10` for hour...). */
/** A year as Java's %04d writes it (0999, -001). */
const javaYear = (year: number): string =>
  year < 0 ? `-${String(-year).padStart(3, '0')}` : String(year).padStart(4, '0');

export function partitionPathValue(t: ParsedTransform, resultType: string, value: Literal | null): string {
  if (value === null) return 'null';
  const n = value as number;
  switch (t.kind) {
    case 'hour': {
      const day = Math.floor(n / 24);
      return `${daysToDateText(day)}-${String(n - day * 24).padStart(2, '0')}`;
    }
    // Java's TransformUtil.humanYear / humanMonth: %04d years.
    case 'year':
      return javaYear(1970 + n);
    case 'month': {
      const year = 1970 + Math.floor(n / 12);
      return `${javaYear(year)}-${String(n - (year - 1970) * 12 + 1).padStart(2, '0')}`;
    }
    default:
      return literalToText(resultType, value);
  }
}

export function defaultPartitionName(t: ParsedTransform, source: string): string {
  switch (t.kind) {
    case 'identity':
      return source;
    case 'bucket':
      return `${source}_bucket`;
    case 'truncate':
      return `${source}_trunc`;
    case 'void':
      return `${source}_null`;
    default:
      return `${source}_${t.kind}`;
  }
}

/** True when t(a) <= t(b) whenever a <= b, so range predicates project onto partition values. */
export function preservesOrder(t: ParsedTransform): boolean {
  return t.kind !== 'bucket' && t.kind !== 'void';
}
