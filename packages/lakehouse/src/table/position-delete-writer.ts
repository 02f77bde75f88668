// Writes merge-on-read position deletes: one Parquet file per data file it deletes from, as Athena (Trino's
// Iceberg merge sink) writes them — so a DELETE touching 3 data files makes 3 small delete files, as the article
// saw — with (file_path, pos) sorted, the spec's reserved field ids, and the data file's path byte-identical.
// No data file is rewritten.
import { randomUUID } from 'node:crypto';
import type { Schema } from '../contract';
import { sqlString, type DuckDbSession } from '../duckdb/duckdb-session';
import { CommitConflictError } from '../errors';
import { toPath, toUri } from '../io/file-io';
import { CONTENT_POSITION_DELETES, type DataFile, type LiveFile } from '../manifests/data-file';
import { completeBounds, parseCopyStats, type CopiedFile } from './copy-stats';
import { promises as fs } from 'node:fs';
import { dirname } from 'node:path';

export const DELETE_FILE_PATH_ID = 2147483546;
export const DELETE_POS_ID = 2147483545;

const DELETE_SCHEMA: Schema = {
  'schema-id': 0,
  type: 'struct',
  fields: [
    { id: DELETE_FILE_PATH_ID, name: 'file_path', type: 'string', required: true },
    { id: DELETE_POS_ID, name: 'pos', type: 'long', required: true },
  ],
};

export interface WrittenDeletes {
  files: { file: DataFile; specId: number }[];
  /** Distinct rows the delete files mark deleted. */
  deletedRows: number;
  /** Data files the deletes reference. */
  referencedDataFiles: string[];
}

/**
 * Stages `deletesSql` (file_path, pos) and writes the delete files. Row ids must reference `liveDataFiles`;
 * ids of files that are gone raise CommitConflictError (they were rewritten or removed concurrently).
 */
export async function writePositionDeletes(
  session: DuckDbSession,
  liveDataFiles: LiveFile[],
  deletesSql: string,
  table: string,
): Promise<WrittenDeletes> {
  const stage = `__ll_deletes_${randomUUID().replaceAll('-', '')}`;
  await session.run(
    `CREATE TEMP TABLE ${stage} AS SELECT DISTINCT CAST(file_path AS VARCHAR) AS file_path, CAST(pos AS BIGINT) AS pos FROM (${deletesSql}) AS src WHERE file_path IS NOT NULL AND pos IS NOT NULL`,
  );
  try {
    const counts = await session.all(`SELECT file_path, count(*) AS n FROM ${stage} GROUP BY file_path`);
    if (counts.length === 0) return { files: [], deletedRows: 0, referencedDataFiles: [] };
    const byPath = new Map(liveDataFiles.map((f) => [f.file.filePath, f]));
    const missing = counts.map((r) => String(r['file_path'])).filter((p) => !byPath.has(p));
    if (missing.length > 0) {
      throw new CommitConflictError(
        `Cannot delete rows of ${table}: data file ${missing[0]} is no longer live (compacted or removed by another ` +
          `commit since the rows were read). Re-run the statement.`,
        { value: missing },
      );
    }
    const groups = new Map<string, { live: LiveFile; paths: string[] }>();
    for (const row of counts) {
      const live = byPath.get(String(row['file_path']))!;
      groups.set(live.file.filePath, { live, paths: [live.file.filePath] });
    }
    const written: { copied: CopiedFile; live: LiveFile }[] = [];
    for (const group of groups.values()) {
      const dataDir = dirname(toPath(group.live.file.filePath));
      const path = `${dataDir}/${randomUUID()}-deletes.parquet`;
      await fs.mkdir(dataDir, { recursive: true });
      const inList = group.paths.map(sqlString).join(', ');
      const copied = parseCopyStats(
        await session.all(
          `COPY (SELECT file_path, pos FROM ${stage} WHERE file_path IN (${inList}) ORDER BY file_path, pos) TO ${sqlString(path)} ` +
            `(FORMAT parquet, COMPRESSION zstd, FIELD_IDS {'file_path': ${DELETE_FILE_PATH_ID}, 'pos': ${DELETE_POS_ID}}, RETURN_STATS true)`,
        ),
        DELETE_SCHEMA,
      );
      for (const c of copied) written.push({ copied: { ...c, path }, live: group.live });
    }
    await completeBounds(
      session,
      DELETE_SCHEMA,
      written.map((w) => w.copied),
    );
    const files = written.map((w) => {
      const s = w.copied.stats;
      const path = w.copied.path;
      return {
        specId: w.live.specId,
        file: {
          content: CONTENT_POSITION_DELETES,
          filePath: toUri(path),
          fileFormat: 'PARQUET' as const,
          partition: w.live.file.partition,
          ...s,
          keyMetadata: null,
          splitOffsets: null,
          equalityIds: null,
          sortOrderId: null,
          referencedDataFile: null,
        },
      };
    });
    return {
      files,
      deletedRows: counts.reduce((n, r) => n + Number(r['n']), 0),
      referencedDataFiles: counts.map((r) => String(r['file_path'])),
    };
  } finally {
    await session.run(`DROP TABLE IF EXISTS ${stage}`);
  }
}
