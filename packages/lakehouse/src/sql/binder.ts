// Binds every table reference of a statement to a scan of the right snapshot (version clause, needed columns,
// pruning filter) and writes the statement as DuckDB SQL over those scans' relations.
import type { DuckDBConnection } from '@duckdb/node-api';
import type {
  QueryContext,
  ScanPlan,
  TableHandle,
  TableMetadata,
  VersionSelector,
  Warehouse,
} from '../contract';
import { sqlIdent as ident } from '../duckdb/duckdb-session';
import { currentSchema } from '../metadata/table-metadata';
import {
  buildMetadataTable,
  METADATA_TABLE_NAMES,
  toRelationSql,
  type MetadataTableName,
} from '../metadata-tables';
import type { Expr, QualifiedName, Query, Relation, VersionClause } from './ast';
import { walkQuery, walkRelation, type AstVisitor } from './ast-walk';
import {
  aliasClause,
  aliasOf,
  DuckdbWriter,
  type RelationResolver,
  type TableRelation,
} from './duckdb-writer';
import { InvalidArgumentsError, NotSupportedError, SqlError, TableNotFoundError } from './errors';
import { loadResolvedTable, resolveName, type ResolvedName } from './name-resolution';
import { columnMatcher, parseTimestampLiteral, preservedTables, pushdownFilter } from './pushdown';

export interface BindEnvironment {
  warehouse: Warehouse;
  connection: DuckDBConnection;
  context: QueryContext;
}

export interface BoundScan {
  ref: TableRelation;
  name: ResolvedName;
  table: TableHandle;
  /** Null for metadata tables (answered from metadata: nothing scanned). */
  plan: ScanPlan | null;
  relationSql: string;
}

export interface BindOptions {
  /** Add `file_path`/`pos` to this reference's scan (row-level DML). */
  rowIdsFor?: TableRelation;
  /** Read all columns of this reference (UPDATE/MERGE rewrite whole rows). */
  allColumnsFor?: TableRelation;
  /** An extra WHERE for this reference (DELETE/UPDATE's condition), for pruning. */
  filterFor?: { ref: TableRelation; where?: Expr };
}

export class StatementBinder implements RelationResolver {
  readonly scans: BoundScan[] = [];
  private readonly relations = new Map<QualifiedName, string>();
  private readonly referenced = new Set<string>();
  private readonly starQualifiers = new Set<string>();
  private starAll = false;
  private readonly filters = new Map<TableRelation, { where: Expr; unqualified: boolean }>();

  constructor(private readonly env: BindEnvironment) {}

  get bytesScanned(): number {
    return this.scans.reduce((sum, s) => sum + (s.plan?.stats.bytesScanned ?? 0), 0);
  }

  /** Binds the table references of `query` (and of any extra relations) and returns the DuckDB SQL. */
  async bindQuery(query: Query, options: BindOptions = {}): Promise<string> {
    const refs: TableRelation[] = [];
    walkQuery(query, this.collector(refs));
    await this.bindRefs(refs, options);
    return new DuckdbWriter(this).query(query);
  }

  /** Binds a single relation (MERGE's source, DML targets) together with expressions that reference it. */
  async bindRelations(relations: Relation[], exprs: Expr[], options: BindOptions = {}): Promise<void> {
    const refs: TableRelation[] = [];
    const visitor = this.collector(refs);
    for (const rel of relations) walkRelation(rel, visitor);
    for (const e of exprs) walkQuery({ body: { k: 'values', rows: [e], pos: e.pos }, pos: e.pos }, visitor);
    await this.bindRefs(refs, options);
  }

  /** The scan bound for `ref` (a DML target's plan names the snapshot its row ids were read from). */
  scanOf(ref: TableRelation): BoundScan | undefined {
    return this.scans.find((scan) => scan.ref === ref);
  }

  writer(): DuckdbWriter {
    return new DuckdbWriter(this);
  }

  relation(ref: TableRelation): string {
    const bound = this.relations.get(ref.name);
    if (bound) return bound;
    // A CTE reference: emitted by name. It has no snapshots to travel to.
    if (ref.version) throw new NotSupportedError('A version clause on a WITH query name', ref.version.pos);
    const name = (ref.name.parts[0] as { name: string }).name;
    return `${ident(name)}${aliasClause(ref.alias, ref.columnAliases)}`;
  }

  private collector(refs: TableRelation[]): AstVisitor {
    const ignoredStars = new Set<Expr>();
    return {
      table: (ref, isCte) => {
        if (!isCte) refs.push(ref);
      },
      expr: (e) => {
        if (e.k === 'func') for (const a of e.args) if (a.k === 'star') ignoredStars.add(a);
        if (e.k === 'column') for (const p of e.parts) this.referenced.add(p.name);
        if (e.k === 'dereference') this.referenced.add(e.field.name);
        if (e.k === 'star' && !ignoredStars.has(e)) {
          if (e.qualifier)
            this.starQualifiers.add((e.qualifier[e.qualifier.length - 1] as { name: string }).name);
          else this.starAll = true;
        }
      },
      spec: (spec) => {
        if (!spec.where) return;
        for (const ref of preservedTables(spec.from)) {
          this.filters.set(ref, {
            where: spec.where,
            unqualified: spec.from.length === 1 && spec.from[0] === ref,
          });
        }
      },
    };
  }

  private async bindRefs(refs: TableRelation[], options: BindOptions): Promise<void> {
    if (options.filterFor?.where)
      this.filters.set(options.filterFor.ref, { where: options.filterFor.where, unqualified: true });
    for (const ref of refs) {
      if (this.relations.has(ref.name)) continue;
      const relation = await this.bindTable(ref, options);
      this.relations.set(ref.name, relation);
    }
  }

  private async bindTable(ref: TableRelation, options: BindOptions): Promise<string> {
    const name = resolveName(ref.name, this.env.context);
    const dollar = name.table.lastIndexOf('$');
    const baseName = dollar >= 0 ? { ...name, table: name.table.slice(0, dollar) } : name;
    const table = await loadResolvedTable(this.env.warehouse, baseName, ref.name.pos).catch(
      (error: unknown) => {
        // Name the table as written (`t$snapshots`), as Athena does.
        throw error instanceof TableNotFoundError
          ? new TableNotFoundError(name.display, ref.name.pos, error)
          : error;
      },
    );
    const metadata = await table.metadata();
    const selector = await this.versionSelector(ref.version, metadata, name);
    const alias = aliasOf(ref);
    const aliasText = aliasClause({ name: alias }, ref.columnAliases);

    if (dollar >= 0) {
      const kind = name.table.slice(dollar + 1) as MetadataTableName;
      if (!METADATA_TABLE_NAMES.includes(kind)) throw new TableNotFoundError(name.display, ref.name.pos);
      // Built from the metadata the version clause was checked against (no second read).
      const relationSql = toRelationSql(await buildMetadataTable(table.name, metadata, kind, selector));
      this.scans.push({ ref, name, table, plan: null, relationSql });
      return `${relationSql}${aliasText}`;
    }

    const schema = currentSchema(metadata);
    const all = this.starAll || this.starQualifiers.has(alias) || options.allColumnsFor === ref;
    const columns = all
      ? undefined
      : schema.fields.map((f) => f.name).filter((n) => this.referenced.has(n.toLowerCase()));
    const candidate = this.filters.get(ref);
    const filter = candidate
      ? pushdownFilter(candidate.where, columnMatcher(ref, schema, candidate.unqualified), schema)
      : undefined;
    const scanOptions = { ...selector, columns, withRowIds: options.rowIdsFor === ref };
    let plan: ScanPlan;
    try {
      plan = await table.scan({ ...scanOptions, filter });
    } catch (error) {
      // A constant the engine cannot bind to the column (e.g. out of the int range) only costs pruning: the
      // full WHERE still runs in DuckDB, which decides whether the comparison is an error.
      if (!filter || !(error instanceof Error) || !/Expression|Coercion/.test(error.name)) throw error;
      plan = await table.scan(scanOptions);
    }
    this.scans.push({ ref, name, table, plan, relationSql: plan.relationSql });
    return `${plan.relationSql}${aliasText}`;
  }

  private async versionSelector(
    clause: VersionClause | undefined,
    metadata: TableMetadata,
    name: ResolvedName,
  ): Promise<VersionSelector> {
    if (!clause) return {};
    if (clause.kind === 'version') {
      const e = clause.expr;
      if (e.k === 'string') return { ref: e.value };
      const value =
        e.k === 'number' && /^\d+$/.test(e.text)
          ? Number(e.text)
          : Number(await this.evaluate(`CAST(${this.constantSql(e)} AS BIGINT)`));
      if (!metadata.snapshots.some((s) => s['snapshot-id'] === value)) {
        throw new InvalidArgumentsError(`Iceberg snapshot ID does not exists: ${value}`, e.pos, value);
      }
      return { snapshotId: value };
    }
    const e = clause.expr;
    let instant: Date | null = null;
    if (e.k === 'typed' && e.type === 'timestamp') instant = parseTimestampLiteral(e.value);
    if (!instant)
      instant = new Date(
        Number(await this.evaluate(`epoch_ms(CAST(${this.constantSql(e)} AS TIMESTAMPTZ))`)),
      );
    const at = instant.getTime();
    if (!metadata['snapshot-log'].some((entry) => entry['timestamp-ms'] <= at)) {
      throw new InvalidArgumentsError(
        `No version history table ${name.namespace}.${name.table} at or before ${instant.toISOString().replace('.000Z', 'Z')}`,
        e.pos,
        instant,
      );
    }
    return { asOf: instant };
  }

  private constantSql(e: Expr): string {
    const noTables: RelationResolver = {
      relation: (ref) => {
        throw new NotSupportedError('A table reference inside a version clause', ref.pos);
      },
    };
    return new DuckdbWriter(noTables).expr(e);
  }

  private async evaluate(sql: string): Promise<unknown> {
    try {
      const reader = await this.env.connection.runAndReadAll(`SELECT ${sql}`);
      return reader.getRowsJS()[0]?.[0];
    } catch (error) {
      if (error instanceof SqlError) throw error;
      throw new InvalidArgumentsError(
        `Cannot evaluate version clause: ${(error as Error).message}`,
        undefined,
        sql,
      );
    }
  }
}
