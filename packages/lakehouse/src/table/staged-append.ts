// The contract's PendingAppend: NDJSON parts read, one at a time and in order, into a DuckDB table the engine
// stages (named by the engine, dropped by it), while the caller keeps accepting work; the commit then writes
// its Parquet from that table instead of parsing every part's JSON on the commit path. A part DuckDB cannot
// read fails the commit, naming it: nothing is half staged.
import { randomUUID } from 'node:crypto';
import type { CommitOptions, CommitResult, NdjsonSource, PendingAppend, Schema } from '../contract';
import { sqlIdent, type DuckDbSession } from '../duckdb/duckdb-session';
import { LakehouseError, UnreadableRowsError } from '../errors';
import { removeUris } from '../io/file-io';
import { duckdbType } from '../metadata/types';
import { NOTHING } from './commit';
import { ndjsonReaderSql, writeNdjsonFile } from './ndjson-source';

/** What a staged append needs from its table: where to write scratch files, and the append itself. */
export interface StagedAppendTarget {
  readonly session: DuckDbSession;
  readonly tempDir: string;
  readonly label: string;
  appendStaged(sql: string, columns: string[], options?: CommitOptions): Promise<CommitResult>;
}

export class StagedAppend implements PendingAppend {
  private readonly stage = `__ll_append_${randomUUID().replaceAll('-', '')}`;
  private loads: Promise<void> = Promise.resolve();
  private created = false;
  private parts = 0;
  private failure: UnreadableRowsError | undefined;
  private closed = false;

  constructor(
    private readonly target: StagedAppendTarget,
    readonly schema: Schema,
  ) {}

  add(part: NdjsonSource): void {
    if (this.closed)
      throw new LakehouseError(`This append to ${this.target.label} was already committed or discarded.`);
    if (part.ndjson.length === 0) return;
    const index = ++this.parts;
    const file = writeNdjsonFile(this.target.tempDir, part.ndjson);
    const insert = `INSERT INTO ${sqlIdent(this.stage)} ${ndjsonReaderSql(this.schema, [file], part.microsColumns)}`;
    this.loads = this.loads.then(async () => {
      try {
        if (this.failure) return;
        if (!this.created) {
          const columns = this.schema.fields.map((f) => `${sqlIdent(f.name)} ${duckdbType(f.type)}`);
          await this.target.session.run(`CREATE TABLE ${sqlIdent(this.stage)} (${columns.join(', ')})`);
          this.created = true;
        }
        await this.target.session.run(insert);
      } catch (error) {
        this.failure = new UnreadableRowsError(
          `Part ${index} of an append to ${this.target.label} cannot be read as its rows (nothing was written): ${(error as Error).message}`,
          { cause: error, value: file },
        );
      } finally {
        await removeUris([file]);
      }
    });
  }

  async commit(options: CommitOptions = {}): Promise<CommitResult> {
    this.closed = true;
    await this.loads;
    try {
      if (this.failure) throw this.failure;
      if (!this.created) return NOTHING;
      const columns = this.schema.fields.map((f) => f.name);
      const result = await this.target.appendStaged(
        `SELECT * FROM ${sqlIdent(this.stage)}`,
        columns,
        options,
      );
      // The snapshot has landed: a failure to drop the staging table must not turn a commit into a reported failure
      // (the caller would send delivered records to the error output as well); a leftover staging table harms nothing.
      await this.drop().catch(() => undefined);
      return result;
    } finally {
      if (this.created) await this.drop();
    }
  }

  async discard(): Promise<void> {
    this.closed = true;
    await this.loads;
    await this.drop();
  }

  private async drop(): Promise<void> {
    if (!this.created) return;
    this.created = false;
    await this.target.session.run(`DROP TABLE IF EXISTS ${sqlIdent(this.stage)}`);
  }
}
