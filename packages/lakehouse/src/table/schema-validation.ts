// Re-validation on retry: files written under one schema may be committed after another writer changed the
// schema. Adds and renames are safe (files carry field ids); a field that vanished or changed type is not.
import type { Schema, TableMetadata } from '../contract';
import { CommitConflictError } from '../errors';
import { currentSchema } from '../metadata/table-metadata';

export function assertWrittenSchemaStillValid(written: Schema, latest: TableMetadata, table: string): void {
  const now = new Map(currentSchema(latest).fields.map((f) => [f.id, f]));
  for (const field of written.fields) {
    const current = now.get(field.id);
    if (!current || current.type !== field.type) {
      throw new CommitConflictError(
        `The schema of ${table} changed while rows were being written (column '${field.name}' ` +
          `${current ? `is now ${current.type}` : 'was dropped'}); re-run the write against the new schema.`,
        { value: field.name },
      );
    }
  }
}
