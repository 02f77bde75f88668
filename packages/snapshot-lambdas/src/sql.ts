// Renders the nunjucks templates of sql/snapshots/ through @loglake/athena-sql. Callers pass typed parameters;
// each is validated by pattern here (identifiers are then double-quoted, dates and timestamps only ever appear
// inside typed literals), so no caller can render a statement around an unchecked value.
import { join } from 'node:path';
import { readTemplate, renderSql, sqlDir, sqlIdentifier, SqlFolderNotFoundError } from '@loglake/athena-sql';
import type { SnapshotDefinition, SnapshotFilter } from './definitions';
import { SnapshotConfigError } from './errors';
import { identifier, isoDate, s3TablesCatalog, sqlLiteral } from './params';

/** sql/snapshots/ in the source tree, or beside index.mjs in the Lambda bundle (bundle.ts copies it there). */
function templateDir(): string {
  try {
    return join(sqlDir(), 'snapshots');
  } catch (error) {
    if (!(error instanceof SqlFolderNotFoundError)) throw error;
    throw new SnapshotConfigError(
      'SQL templates not found: expected sql/snapshots beside the handler bundle',
      {
        cause: error,
        value: { candidates: error.value },
      },
    );
  }
}

function render(template: string, context: Record<string, unknown>): string {
  const dir = templateDir();
  return renderSql(readTemplate(join(dir, template), dir).source, context).trim();
}

export function quoteIdentifier(value: string, kind?: string): string {
  return sqlIdentifier(identifier(value, kind));
}

/** `"s3tablescatalog/<bucket>"."<namespace>"."<table>"`: the federated S3 Tables source as Athena names it. */
export function sourceReference(tableBucket: string, def: SnapshotDefinition): string {
  const catalog = s3TablesCatalog(`s3tablescatalog/${tableBucket}`);
  return `${sqlIdentifier(catalog)}.${quoteIdentifier(def.source.namespace)}.${quoteIdentifier(def.source.table)}`;
}

export function tableReference(database: string, table: string): string {
  return `${quoteIdentifier(database, 'database')}.${quoteIdentifier(table, 'table')}`;
}

/** `YYYY-MM-DD HH:MM:SS[.mmm]` in UTC, the literal form Athena's TIMESTAMP '…' takes. */
export function timestampLiteral(instant: Date): string {
  if (Number.isNaN(instant.getTime()))
    throw new SnapshotConfigError('Invalid instant for a timestamp literal');
  return instant.toISOString().replace('T', ' ').replace('Z', '');
}

export function dayBounds(day: string): { start: string; end: string } {
  const start = new Date(`${isoDate(day, 'watermark')}T00:00:00Z`);
  const end = new Date(start.getTime() + 86_400_000);
  return { start: timestampLiteral(start), end: timestampLiteral(end) };
}

function renderFilter(filter: SnapshotFilter): string {
  const column = quoteIdentifier(filter.column, 'filter column');
  if (filter.op === 'in') return `${column} IN (${filter.values.map((v) => sqlLiteral(v)).join(', ')})`;
  const ops = ['=', '<>', '<', '<=', '>', '>='];
  if (!ops.includes(filter.op) || filter.values.length !== 1) {
    throw new SnapshotConfigError(`Filter on ${column} has an unsupported shape`, { value: { filter } });
  }
  return `${column} ${filter.op} ${sqlLiteral(filter.values[0])}`;
}

export function renderHoursPresent(p: {
  tableBucket: string;
  definition: SnapshotDefinition;
  from: Date;
}): string {
  return render('hours_present.sql.njk', {
    source: sourceReference(p.tableBucket, p.definition),
    time_column: quoteIdentifier(p.definition.source.timeColumn, 'time column'),
    from_timestamp: timestampLiteral(p.from),
  });
}

export interface BuildSnapshotSqlParams {
  tableBucket: string;
  definition: SnapshotDefinition;
  database: string;
  stagingTable: string;
  location: string;
  watermark: string;
  builtAt: Date;
}

const LOCATION = /^s3:\/\/[a-z0-9][a-z0-9-]{1,61}[a-z0-9]\/[a-z0-9_]+\/run=\d{4}-\d{2}-\d{2}-[a-z0-9-]+\/$/;

export function renderBuildSnapshot(p: BuildSnapshotSqlParams): string {
  if (!LOCATION.test(p.location)) {
    throw new SnapshotConfigError(`Refused snapshot location ${JSON.stringify(p.location)}`, {
      value: { location: p.location },
    });
  }
  const { start, end } = dayBounds(p.watermark);
  return render('build_snapshot.sql.njk', {
    target: tableReference(p.database, p.stagingTable),
    location: p.location,
    columns: p.definition.columns.map((c) => quoteIdentifier(c.name, 'column')),
    watermark: isoDate(p.watermark, 'watermark'),
    built_at: timestampLiteral(p.builtAt),
    source: sourceReference(p.tableBucket, p.definition),
    time_column: quoteIdentifier(p.definition.source.timeColumn, 'time column'),
    day_start: start,
    day_end: end,
    filters: p.definition.filters.map(renderFilter),
  });
}

export function renderCountRows(p: { database: string; table: string }): string {
  return render('count_rows.sql.njk', { target: tableReference(p.database, p.table) });
}

/** The analysts' query, on a snapshot table (no day filter) or on the source for one day. */
export function renderAnalystsQuery(p: { table: string; timeColumn: string; day?: string }): string {
  const bounds = p.day === undefined ? undefined : dayBounds(p.day);
  return render('analysts_query.sql.njk', {
    table: p.table,
    time_column: quoteIdentifier(p.timeColumn, 'time column'),
    day_start: bounds?.start ?? '',
    day_end: bounds?.end ?? '',
  });
}
