// The DuckDB relation of a planned scan: read_parquet over the explicit file list, columns mapped by Iceberg
// field id (so renamed columns and columns added after a file was written resolve correctly: the latter
// read as typed NULLs), with position deletes applied by an anti-join on (file, row number).
import type { Schema } from '../contract';
import { sqlIdent, sqlString } from '../duckdb/duckdb-session';
import type { LiveFile } from '../manifests/data-file';
import { duckdbType } from '../metadata/types';
import { toPath, toUri } from '../io/file-io';

export interface RelationInput {
  schema: Schema;
  dataFiles: LiveFile[];
  deleteFiles: LiveFile[];
  withRowIds: boolean;
}

/** DuckDB reads local paths; its filename column reports the path, turned back into the stored URI. */
function pathList(files: LiveFile[]): string {
  return `[${files.map((f) => sqlString(toPath(f.file.filePath))).join(', ')}]`;
}

export function buildRelationSql(input: RelationInput): string {
  const { schema } = input;
  if (input.dataFiles.length === 0) {
    const columns = schema.fields.map((f) => `CAST(NULL AS ${duckdbType(f.type)}) AS ${sqlIdent(f.name)}`);
    if (input.withRowIds) columns.push('CAST(NULL AS VARCHAR) AS file_path', 'CAST(NULL AS BIGINT) AS pos');
    return `(SELECT ${columns.join(', ')} WHERE FALSE)`;
  }
  const mapping = schema.fields
    .map(
      (f) =>
        `${f.id}: {name: ${sqlString(f.name)}, type: ${sqlString(duckdbType(f.type))}, default_value: NULL}`,
    )
    .join(', ');
  // Stored URIs are `file://` + the verbatim path (see io/file-io), so the row id is a plain concatenation.
  const prefix = toUri('');
  const needsRowIds = input.withRowIds || input.deleteFiles.length > 0;
  const rowIdOptions = needsRowIds ? `, filename='__ll_file', file_row_number=true` : '';
  const read = `read_parquet(${pathList(input.dataFiles)}, schema=MAP{${mapping}}${rowIdOptions})`;
  const columns = schema.fields.map((f) => `d.${sqlIdent(f.name)}`);
  if (input.withRowIds)
    columns.push(`(${sqlString(prefix)} || d.__ll_file) AS file_path`, 'd.file_row_number AS pos');
  if (input.deleteFiles.length === 0) return `(SELECT ${columns.join(', ')} FROM ${read} AS d)`;
  // Strip the prefix on the (small) delete side rather than building a URI for every data row.
  const deletes =
    `(SELECT substr(file_path, ${prefix.length + 1}) AS path, pos FROM read_parquet(${pathList(input.deleteFiles)}) ` +
    `WHERE starts_with(file_path, ${sqlString(prefix)}))`;
  return `(SELECT ${columns.join(', ')} FROM ${read} AS d ANTI JOIN ${deletes} AS del ON d.__ll_file = del.path AND d.file_row_number = del.pos)`;
}
