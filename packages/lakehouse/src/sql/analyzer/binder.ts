// Binds every table reference of a statement to a scan of the right snapshot (version clause, needed columns,
// pruning filter), through the catalog its name resolves to. The bound relations are what the translation layer
// writes in place of each reference; the binder itself writes no SQL.
import type {
  QueryContext,
  ScanPlan,
  Schema,
  TableHandle,
  TableMetadata,
  VersionSelector,
} from '../../contract';
import { InvalidExpressionError } from '../../errors';
import { currentSchema } from '../../metadata/table-metadata';
import { CoercionError } from '../../metadata/values';
import {
  buildMetadataTable,
  METADATA_TABLE_NAMES,
  toRelationSql,
  type MetadataTableName,
} from '../../metadata-tables';
import type { CatalogServices } from '../catalog/catalog';
import type { CatalogRegistry } from '../catalog/registry';
import { InvalidArgumentsError, TableNotFoundError } from '../errors';
import {
  aliasOf,
  type Expr,
  type Query,
  type Relation,
  type TableRelation,
  type VersionClause,
} from '../tree/ast';
import { walkQuery, walkRelation, type AstVisitor } from '../tree/ast-walk';
import { columnTypes, type TypedColumn } from './column-types';
import { loadResolvedTable, resolveName, type ResolvedName } from './name-resolution';
import { columnMatcher, parseTimestampLiteral, preservedTables, pushdownFilter } from './pushdown';

export interface BindEnvironment {
  catalogs: CatalogRegistry;
  session: QueryContext;
  services: CatalogServices;
  /** Evaluates a constant expression of a version clause: a snapshot id, or an instant (epoch milliseconds). */
  evaluate(expr: Expr, as: 'snapshot-id' | 'epoch-ms'): Promise<number>;
}

export interface BoundScan {
  ref: TableRelation;
  name: ResolvedName;
  table: TableHandle;
  /** The schema the reference reads (the current one; metadata tables have their own). */
  schema: Schema | null;
  /** Null for metadata tables (answered from metadata: nothing scanned). */
  plan: ScanPlan | null;
  relationSql: string;
}

/** What the translation layer needs of a binding: the relation standing for each bound table reference. */
export interface Bindings {
  /** The parenthesised DuckDB relation bound to a table reference; undefined for a WITH query name. */
  relationOf(ref: TableRelation): string | undefined;
}

export interface BindOptions {
  /** Add `file_path`/`pos` to this reference's scan (row-level DML). */
  rowIdsFor?: TableRelation;
  /** Read all columns of this reference (UPDATE/MERGE rewrite whole rows). */
  allColumnsFor?: TableRelation;
  /** An extra WHERE for this reference (DELETE/UPDATE's condition), for pruning. */
  filterFor?: { ref: TableRelation; where?: Expr };
}

export class StatementBinder implements Bindings {
  readonly scans: BoundScan[] = [];
  private readonly relations = new Map<TableRelation['name'], BoundScan>();
  private readonly referenced = new Set<string>();
  private readonly starQualifiers = new Set<string>();
  private starAll = false;
  private readonly filters = new Map<TableRelation, { where: Expr; unqualified: boolean }>();

  constructor(private readonly env: BindEnvironment) {}

  get bytesScanned(): number {
    return this.scans.reduce((sum, s) => sum + (s.plan?.stats.bytesScanned ?? 0), 0);
  }

  /** Binds the table references of `query`. */
  async bindQuery(query: Query, options: BindOptions = {}): Promise<void> {
    const refs: TableRelation[] = [];
    walkQuery(query, this.collector(refs));
    await this.bindRefs(refs, options);
  }

  /** Binds relations (MERGE's source, DML targets) together with expressions that reference them. */
  async bindRelations(relations: Relation[], exprs: Expr[], options: BindOptions = {}): Promise<void> {
    const refs: TableRelation[] = [];
    const visitor = this.collector(refs);
    for (const rel of relations) walkRelation(rel, visitor);
    for (const e of exprs) walkQuery({ body: { k: 'values', rows: [e], pos: e.pos }, pos: e.pos }, visitor);
    await this.bindRefs(refs, options);
  }

  /** The scan bound for `ref` (a DML target's plan names the snapshot its row ids were read from). */
  scanOf(ref: TableRelation): BoundScan | undefined {
    return this.relations.get(ref.name);
  }

  relationOf(ref: TableRelation): string | undefined {
    return this.relations.get(ref.name)?.relationSql;
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
      const scan = await this.bindTable(ref, options);
      this.scans.push(scan);
      this.relations.set(ref.name, scan);
    }
  }

  private async bindTable(ref: TableRelation, options: BindOptions): Promise<BoundScan> {
    const name = resolveName(ref.name, this.env.session, this.env.catalogs);
    const dollar = name.table.lastIndexOf('$');
    const baseName = dollar >= 0 ? { ...name, table: name.table.slice(0, dollar) } : name;
    const table = await loadResolvedTable(baseName, this.env.services, ref.name.pos).catch(
      (error: unknown) => {
        // Name the table as written (`t$snapshots`), as Athena does.
        throw error instanceof TableNotFoundError
          ? new TableNotFoundError(name.display, ref.name.pos, error)
          : error;
      },
    );
    const metadata = await table.metadata();
    const selector = await this.versionSelector(ref.version, metadata, name);

    if (dollar >= 0) {
      const kind = name.table.slice(dollar + 1) as MetadataTableName;
      if (!METADATA_TABLE_NAMES.includes(kind)) throw new TableNotFoundError(name.display, ref.name.pos);
      // Built from the metadata the version clause was checked against (no second read).
      const relationSql = toRelationSql(await buildMetadataTable(table.name, metadata, kind, selector));
      return { ref, name, table, schema: null, plan: null, relationSql };
    }

    const schema = currentSchema(metadata);
    const all = this.starAll || this.starQualifiers.has(aliasOf(ref)) || options.allColumnsFor === ref;
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
      const unbindable = error instanceof InvalidExpressionError || error instanceof CoercionError;
      if (!filter || !unbindable) throw error;
      plan = await table.scan(scanOptions);
    }
    return { ref, name, table, schema, plan, relationSql: plan.relationSql };
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
        e.k === 'number' && /^\d+$/.test(e.text) ? Number(e.text) : await this.env.evaluate(e, 'snapshot-id');
      if (!metadata.snapshots.some((s) => s['snapshot-id'] === value)) {
        throw new InvalidArgumentsError(`Iceberg snapshot ID does not exists: ${value}`, e.pos, value);
      }
      return { snapshotId: value };
    }
    const e = clause.expr;
    let instant: Date | null = null;
    if (e.k === 'typed' && e.type === 'timestamp') instant = parseTimestampLiteral(e.value);
    if (!instant) instant = new Date(await this.env.evaluate(e, 'epoch-ms'));
    const at = instant.getTime();
    if (!metadata['snapshot-log'].some((entry) => entry['timestamp-ms'] <= at)) {
      throw new InvalidArgumentsError(
        `No version history table ${name.schema}.${name.table} at or before ${instant.toISOString().replace('.000Z', 'Z')}`,
        e.pos,
        instant,
      );
    }
    return { asOf: instant };
  }
}

/** The Trino-typed columns of each table reference a binder bound (for the analyzer's expression types). */
export function boundColumns(binder: StatementBinder): {
  columnsOf(ref: TableRelation): TypedColumn[] | undefined;
} {
  return {
    columnsOf: (ref) => {
      const scan = binder.scanOf(ref);
      return scan?.schema ? columnTypes(scan.table, scan.schema) : undefined;
    },
  };
}
