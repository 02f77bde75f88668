// Snapshot definitions are data (they live in the snapshots unit file and reach the Lambdas as JSON in their
// environment). Everything here is validated once, at the edge, so the rest of the code can trust the types.
import { SnapshotConfigError, InvalidParameterError } from './errors';
import { identifier, positiveInteger, sqlLiteral } from './params';

/** Glue column types the snapshot tables use (Hive DDL names, as Athena reads Parquet by them). */
export const GLUE_COLUMN_TYPES = [
  'string',
  'int',
  'bigint',
  'double',
  'boolean',
  'date',
  'timestamp',
] as const;
export type GlueColumnType = (typeof GLUE_COLUMN_TYPES)[number];

export interface SnapshotColumn {
  name: string;
  type: GlueColumnType;
}

export type FilterOperator = '=' | '<>' | '<' | '<=' | '>' | '>=' | 'in';

export interface SnapshotFilter {
  column: string;
  op: FilterOperator;
  /** One value for comparisons; several for `in`. Strings and finite numbers only. */
  values: (string | number)[];
}

export interface SnapshotDefinition {
  /** Target table in the snapshot Glue database; also the S3 prefix of its runs. */
  name: string;
  source: {
    /** Namespace (Athena database) in the source table bucket. */
    namespace: string;
    table: string;
    /** Event-time column the completeness rule and the day filter use. */
    timeColumn: string;
  };
  /** Source columns copied into the snapshot (snapshot_watermark and snapshot_built_at are added). */
  columns: SnapshotColumn[];
  filters: SnapshotFilter[];
  /** A day counts as landed once a record later than day end + this grace exists. */
  latenessGraceMinutes: number;
  /** Every hour of the day must hold at least this many records. */
  minRecordsPerHour: number;
  /** How far back the completeness query looks for a complete day. */
  lookbackDays: number;
  /** Published run plus previous runs kept for in-flight readers and rollback (at least 2). */
  runsToKeep: number;
}

/** Columns every snapshot row carries in addition to the defined ones. */
export const SNAPSHOT_META_COLUMNS: SnapshotColumn[] = [
  { name: 'snapshot_watermark', type: 'date' },
  { name: 'snapshot_built_at', type: 'timestamp' },
];

const OPERATORS: FilterOperator[] = ['=', '<>', '<', '<=', '>', '>=', 'in'];

function fail(where: string, message: string, value: unknown, cause?: unknown): never {
  throw new SnapshotConfigError(`Snapshot definition ${where}: ${message}`, {
    cause,
    value: { where, value },
  });
}

function checked<T>(where: string, value: unknown, check: () => T): T {
  try {
    return check();
  } catch (error) {
    if (error instanceof InvalidParameterError) fail(where, error.message, value, error);
    throw error;
  }
}

function record(value: unknown, where: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    fail(where, 'expected an object', value);
  return value as Record<string, unknown>;
}

export type SnapshotDefinitionInput = Omit<
  SnapshotDefinition,
  'filters' | 'minRecordsPerHour' | 'lookbackDays'
> &
  Partial<Pick<SnapshotDefinition, 'filters' | 'minRecordsPerHour' | 'lookbackDays'>>;

/** Validates one definition (from a unit file or JSON) and fills defaults. */
export function parseSnapshotDefinition(raw: unknown, index = 0): SnapshotDefinition {
  const where = `#${index}`;
  const def = record(raw, where);
  const name = checked(`${where}.name`, def.name, () => identifier(def.name, 'snapshot name'));
  const at = `"${name}"`;
  const source = record(def.source, `${at}.source`);
  const columnsRaw = def.columns;
  if (!Array.isArray(columnsRaw) || columnsRaw.length === 0)
    fail(`${at}.columns`, 'list at least one column', columnsRaw);
  const columns = columnsRaw.map((c, i) => {
    const col = record(c, `${at}.columns[${i}]`);
    const colName = checked(`${at}.columns[${i}].name`, col.name, () => identifier(col.name, 'column'));
    if (!GLUE_COLUMN_TYPES.includes(col.type as GlueColumnType)) {
      fail(`${at}.columns[${i}].type`, `use one of ${GLUE_COLUMN_TYPES.join(', ')}`, col.type);
    }
    if (SNAPSHOT_META_COLUMNS.some((m) => m.name === colName))
      fail(`${at}.columns[${i}]`, 'name is reserved', colName);
    return { name: colName, type: col.type as GlueColumnType };
  });
  const filters = ((def.filters ?? []) as unknown[]).map((f, i) => {
    const filter = record(f, `${at}.filters[${i}]`);
    const column = checked(`${at}.filters[${i}].column`, filter.column, () =>
      identifier(filter.column, 'column'),
    );
    const op = filter.op as FilterOperator;
    if (!OPERATORS.includes(op))
      fail(`${at}.filters[${i}].op`, `use one of ${OPERATORS.join(' ')}`, filter.op);
    const values = filter.values;
    if (!Array.isArray(values) || values.length === 0 || (op !== 'in' && values.length !== 1)) {
      fail(
        `${at}.filters[${i}].values`,
        op === 'in' ? 'list at least one value' : 'give exactly one value',
        values,
      );
    }
    for (const v of values) checked(`${at}.filters[${i}].values`, v, () => sqlLiteral(v));
    return { column, op, values: values as (string | number)[] };
  });
  const int = (key: string, value: unknown, min: number, max: number) =>
    checked(`${at}.${key}`, value, () => positiveInteger(value, key, min, max));
  return {
    name,
    source: {
      namespace: checked(`${at}.source.namespace`, source.namespace, () =>
        identifier(source.namespace, 'namespace'),
      ),
      table: checked(`${at}.source.table`, source.table, () => identifier(source.table, 'table')),
      timeColumn: checked(`${at}.source.timeColumn`, source.timeColumn, () =>
        identifier(source.timeColumn, 'time column'),
      ),
    },
    columns,
    filters,
    latenessGraceMinutes: int('latenessGraceMinutes', def.latenessGraceMinutes, 0, 7 * 24 * 60),
    minRecordsPerHour: int('minRecordsPerHour', def.minRecordsPerHour ?? 1, 1, 1_000_000_000),
    lookbackDays: int('lookbackDays', def.lookbackDays ?? 7, 1, 90),
    runsToKeep: int('runsToKeep', def.runsToKeep, 2, 100),
  };
}

export function parseSnapshotDefinitions(raw: unknown): SnapshotDefinition[] {
  if (!Array.isArray(raw) || raw.length === 0) fail('list', 'give at least one snapshot definition', raw);
  const defs = raw.map((d, i) => parseSnapshotDefinition(d, i));
  const seen = new Set<string>();
  for (const d of defs) {
    if (seen.has(d.name)) fail(`"${d.name}"`, 'snapshot names must be unique', d.name);
    seen.add(d.name);
  }
  return defs;
}

export function findDefinition(defs: SnapshotDefinition[], name: unknown): SnapshotDefinition {
  const found = defs.find((d) => d.name === name);
  if (!found) {
    throw new InvalidParameterError(
      `Unknown snapshot ${JSON.stringify(name)}: configured snapshots are ${defs.map((d) => d.name).join(', ')}`,
      { value: { snapshot: name } },
    );
  }
  return found;
}
