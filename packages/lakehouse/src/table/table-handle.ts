// A table's operations (the contract's TableHandle): each write is one atomic commit through commit.ts,
// rebuilt and re-validated against the latest metadata when another writer wins the race.
import type {
  ColumnChange,
  ColumnDefinition,
  CommitOptions,
  CommitResult,
  CompactionOptions,
  CompactionReport,
  ExpireOptions,
  ExpireReport,
  Expression,
  PendingAppend,
  RowDelta,
  RowSource,
  ScanOptions,
  Schema,
  ScanPlan,
  SortFieldDefinition,
  TableHandle,
  TableMetadata,
} from '../contract';
import type { DuckDbSession } from '../duckdb/duckdb-session';
import { bindExpression } from '../expressions/bind';
import { boundToSql } from '../expressions/to-sql';
import { removeUris } from '../io/file-io';
import { TableLayout } from '../io/table-layout';
import type { DataFile } from '../manifests/data-file';
import { compactTable } from '../maintenance/compact-table';
import { expireTableSnapshots } from '../maintenance/expire-snapshots';
import { removeTableOrphanFiles } from '../maintenance/remove-orphans';
import { snapshotFiles } from '../manifests/live-files';
import { branchHead, currentSchema } from '../metadata/table-metadata';
import { produceSnapshot } from '../snapshots/snapshot-producer';
import { commitWithRetry, loadLatest, NOTHING, type LoadedMetadata } from './commit';
import { writeDataFiles } from './data-writer';
import {
  addColumnsChange,
  changeColumnChange,
  createRefChange,
  dropColumnChange,
  dropRefChange,
  removePropertiesChange,
  renameColumnChange,
  setPropertiesChange,
  setSortOrderChange,
} from './metadata-changes';
import { validateRowDelta } from './row-delta-validation';
import { assertWrittenSchemaStillValid } from './schema-validation';
import { resolveRowSource, type ResolvedSource } from './row-source';
import { writePositionDeletes, type WrittenDeletes } from './position-delete-writer';
import { planScan } from './scan-planner';
import { StagedAppend } from './staged-append';

export interface TableContext {
  session: DuckDbSession;
  bucket: string;
  namespace: string;
  name: string;
  /** Table location URI. */
  location: string;
  /** Scratch directory for staged rows. */
  tempDir: string;
}

export class IcebergTable implements TableHandle {
  readonly layout: TableLayout;

  constructor(readonly context: TableContext) {
    this.layout = new TableLayout(context.location);
  }

  get bucket(): string {
    return this.context.bucket;
  }
  get namespace(): string {
    return this.context.namespace;
  }
  get name(): string {
    return this.context.name;
  }
  get session(): DuckDbSession {
    return this.context.session;
  }
  /** How messages name the table. */
  get label(): string {
    return `table ${this.namespace}.${this.name} (bucket ${this.bucket})`;
  }
  /** Scratch directory for staged rows. */
  get tempDir(): string {
    return this.context.tempDir;
  }

  async metadata(): Promise<TableMetadata> {
    return (await loadLatest(this.layout)).metadata;
  }

  async scan(options: ScanOptions = {}): Promise<ScanPlan> {
    return planScan(await this.metadata(), options, this.label);
  }

  /** Commits a metadata-only change (schema, sort order, properties, refs). */
  async commitMetadata(change: (base: TableMetadata) => TableMetadata | null): Promise<void> {
    await commitWithRetry(this.layout, this.label, async (base) => ({
      metadata: change(base),
      writtenFiles: [],
      result: null,
    }));
  }

  private async withSource<T>(
    source: RowSource,
    use: (resolved: ResolvedSource, base: TableMetadata, loaded: LoadedMetadata) => Promise<T>,
    preloaded?: LoadedMetadata,
  ): Promise<T> {
    const loaded = preloaded ?? (await loadLatest(this.layout));
    const base = loaded.metadata;
    const resolved = await resolveRowSource(source, currentSchema(base), this.context.tempDir, this.label);
    try {
      return await use(resolved, base, loaded);
    } finally {
      await resolved.dispose();
    }
  }

  private async writeData(source: ResolvedSource, base: TableMetadata): Promise<DataFile[]> {
    return writeDataFiles({
      session: this.session,
      layout: this.layout,
      meta: base,
      sourceSql: source.sql,
      ...(source.columns ? { sourceColumns: source.columns } : {}),
      table: this.label,
    });
  }

  private async discard(files: { filePath: string }[]): Promise<void> {
    await removeUris(files.map((f) => f.filePath));
  }

  async append(source: RowSource, options: CommitOptions = {}): Promise<CommitResult> {
    return this.withSource(source, async (resolved, base, loaded) => {
      const files = await this.writeData(resolved, base);
      if (files.length === 0) return NOTHING;
      const specId = base['default-spec-id'];
      try {
        const { result, attempts } = await commitWithRetry(
          this.layout,
          this.label,
          async (latest) => {
            // Appends only conflict with a schema change that invalidates their columns (ids survive renames).
            assertWrittenSchemaStillValid(currentSchema(base), latest, this.label);
            const produced = await produceSnapshot(latest, this.layout, {
              operation: 'append',
              added: files.map((file) => ({ file, specId })),
              removed: [],
              ...(options.summary ? { extraSummary: options.summary } : {}),
            });
            return {
              metadata: produced.metadata,
              writtenFiles: produced.writtenFiles,
              result: produced.snapshot,
            };
            // The metadata read before writing is the first attempt's base: nothing read twice.
          },
          loaded,
          options,
        );
        return {
          ...NOTHING,
          snapshot: result,
          addedRows: sumRows(files),
          addedFiles: files.length,
          attempts,
        };
      } catch (error) {
        await this.discard(files);
        throw error;
      }
    });
  }

  newAppend(schema: Schema): PendingAppend {
    return new StagedAppend(this, schema);
  }

  /** A staged append's commit: its engine-owned table, read by name. */
  appendStaged(sql: string, columns: string[], options?: CommitOptions): Promise<CommitResult> {
    return this.append({ sql, columns }, options);
  }

  async deleteWhere(filter: Expression): Promise<CommitResult> {
    return this.deleteAndAppend(filter, null, 'delete');
  }

  async overwriteWhere(filter: Expression, source: RowSource): Promise<CommitResult> {
    return this.withSource(source, async (resolved, base) => {
      const files = await this.writeData(resolved, base);
      try {
        const written = { files, specId: base['default-spec-id'], schema: currentSchema(base) };
        return await this.deleteAndAppend(filter, written, 'overwrite');
      } catch (error) {
        await this.discard(files);
        throw error;
      }
    });
  }

  /** Position-deletes the rows matching `filter` (re-planned on every attempt) and adds `appended`. */
  private async deleteAndAppend(
    filter: Expression,
    appended: { files: DataFile[]; specId: number; schema: Schema } | null,
    operation: 'delete' | 'overwrite',
  ): Promise<CommitResult> {
    const { result } = await commitWithRetry(this.layout, this.label, async (base) => {
      if (appended) assertWrittenSchemaStillValid(appended.schema, base, this.label);
      const plan = await planScan(base, { filter, withRowIds: true }, this.label);
      const bound = bindExpression(filter, plan.schema, this.label);
      const deletesSql = `SELECT file_path, pos FROM ${plan.relationSql} AS t WHERE ${boundToSql(bound, 't')}`;
      const deletes = await writePositionDeletes(this.session, plan.dataFiles, deletesSql, this.label);
      const added = appended?.files ?? [];
      if (deletes.deletedRows === 0 && added.length === 0)
        return { metadata: null, writtenFiles: [], result: NOTHING };
      const produced = await produceSnapshot(base, this.layout, {
        operation,
        added: [...added.map((file) => ({ file, specId: appended!.specId })), ...deletes.files],
        removed: [],
      }).catch(async (error: unknown) => {
        await this.discard(deletes.files.map((f) => f.file));
        throw error;
      });
      return {
        metadata: produced.metadata,
        writtenFiles: [...produced.writtenFiles, ...deletes.files.map((f) => f.file.filePath)],
        result: commitResult(produced.snapshot, added, deletes),
      };
    });
    return result;
  }

  async rowDelta(delta: RowDelta): Promise<CommitResult> {
    // One read of the metadata: the deletes, the appended files and the first commit attempt share it.
    const loaded = await loadLatest(this.layout);
    const base = loaded.metadata;
    const readSnapshotId =
      delta.readSnapshotId === undefined ? (branchHead(base)?.['snapshot-id'] ?? null) : delta.readSnapshotId;
    const live = await snapshotFiles(base, branchHead(base));
    const deletes: WrittenDeletes = delta.deletesSql
      ? await writePositionDeletes(this.session, live.dataFiles, delta.deletesSql, this.label)
      : { files: [], deletedRows: 0, referencedDataFiles: [] };
    let added: DataFile[] = [];
    try {
      if (delta.appends)
        added = await this.withSource(delta.appends, (resolved) => this.writeData(resolved, base), loaded);
      if (deletes.deletedRows === 0 && added.length === 0) return NOTHING;
      const operation = deletes.deletedRows > 0 ? (added.length > 0 ? 'overwrite' : 'delete') : 'append';
      const { result } = await commitWithRetry(
        this.layout,
        this.label,
        async (latest) => {
          await validateRowDelta(latest, readSnapshotId, deletes, this.label);
          assertWrittenSchemaStillValid(currentSchema(base), latest, this.label);
          const produced = await produceSnapshot(latest, this.layout, {
            operation,
            added: [...added.map((file) => ({ file, specId: base['default-spec-id'] })), ...deletes.files],
            removed: [],
          });
          return {
            metadata: produced.metadata,
            writtenFiles: produced.writtenFiles,
            result: commitResult(produced.snapshot, added, deletes),
          };
        },
        loaded,
      );
      return result;
    } catch (error) {
      await this.discard([...added, ...deletes.files.map((f) => f.file)]);
      throw error;
    }
  }

  async addColumns(columns: ColumnDefinition[]): Promise<void> {
    await this.commitMetadata((base) => addColumnsChange(base, columns));
  }

  async renameColumn(from: string, to: string): Promise<void> {
    await this.commitMetadata((base) => renameColumnChange(base, from, to, this.label));
  }

  async dropColumn(name: string): Promise<void> {
    await this.commitMetadata((base) => dropColumnChange(base, name, this.label));
  }

  async changeColumn(name: string, change: ColumnChange): Promise<void> {
    await this.commitMetadata((base) => changeColumnChange(base, name, change, this.label));
  }

  async removeProperties(keys: string[]): Promise<void> {
    await this.commitMetadata((base) => removePropertiesChange(base, keys));
  }

  async setSortOrder(fields: SortFieldDefinition[]): Promise<void> {
    await this.commitMetadata((base) => setSortOrderChange(base, fields, this.label));
  }

  async setProperties(properties: Record<string, string>): Promise<void> {
    await this.commitMetadata((base) => setPropertiesChange(base, properties));
  }

  async createTag(name: string, snapshotId?: number, maxRefAgeMs?: number): Promise<void> {
    await this.commitMetadata((base) =>
      createRefChange(base, 'tag', name, snapshotId, maxRefAgeMs, this.label),
    );
  }

  async createBranch(name: string, snapshotId?: number, maxRefAgeMs?: number): Promise<void> {
    await this.commitMetadata((base) =>
      createRefChange(base, 'branch', name, snapshotId, maxRefAgeMs, this.label),
    );
  }

  async dropRef(name: string): Promise<void> {
    await this.commitMetadata((base) => dropRefChange(base, name, this.label));
  }

  async expireSnapshots(options: ExpireOptions): Promise<ExpireReport> {
    return expireTableSnapshots(this, options);
  }

  async compact(options: CompactionOptions = {}): Promise<CompactionReport> {
    return compactTable(this, options);
  }

  async removeOrphanFiles(olderThanMs?: number): Promise<{ deletedFiles: number; deletedBytes: number }> {
    const { deletedFiles, deletedBytes } = await removeTableOrphanFiles(this, olderThanMs);
    return { deletedFiles, deletedBytes };
  }
}

function sumRows(files: DataFile[]): number {
  return files.reduce((n, f) => n + f.recordCount, 0);
}

function commitResult(
  snapshot: CommitResult['snapshot'],
  added: DataFile[],
  deletes: WrittenDeletes,
): CommitResult {
  return {
    snapshot,
    addedRows: sumRows(added),
    deletedRows: deletes.deletedRows,
    addedFiles: added.length,
    addedDeleteFiles: deletes.files.length,
    rewrittenFiles: 0,
  };
}
