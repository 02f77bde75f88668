// Data files written ahead of their commit (TableHandle.writeFiles → appendFiles / discardFiles). The caller
// holds only a small description; what the commit needs (the files' manifest entries and the metadata they
// were written against) stays here, and each prepared set can be committed or discarded once.
import type { PreparedDataFiles, TableMetadata } from '../contract';
import { InvalidArgumentError } from '../errors';
import type { DataFile } from '../manifests/data-file';

export interface PreparedContent {
  files: DataFile[];
  /** The metadata the files were written against (schema, spec). */
  base: TableMetadata;
}

export class PreparedFilesRegistry {
  private readonly contents = new WeakMap<PreparedDataFiles, PreparedContent>();

  register(table: string, content: PreparedContent): PreparedDataFiles {
    const handle: PreparedDataFiles = Object.freeze({
      table,
      files: content.files.length,
      rows: content.files.reduce((n, f) => n + f.recordCount, 0),
    });
    this.contents.set(handle, content);
    return handle;
  }

  /** Takes the content out (so it is committed or discarded once); refuses another table's files. */
  take(handle: PreparedDataFiles, table: string): PreparedContent {
    const content = this.contents.get(handle);
    if (!content) {
      throw new InvalidArgumentError(
        `These prepared files of ${handle.table} were already committed or discarded, or were not written by ` +
          `writeFiles: write them again with writeFiles.`,
        { value: handle },
      );
    }
    if (handle.table !== table) {
      throw new InvalidArgumentError(
        `Prepared files of ${handle.table} cannot be committed to ${table}: use the table they were written for.`,
        { value: handle.table },
      );
    }
    this.contents.delete(handle);
    return content;
  }

  /** Puts content back after a failed commit, so the caller can retry or discard. */
  giveBack(handle: PreparedDataFiles, content: PreparedContent): void {
    this.contents.set(handle, content);
  }
}
