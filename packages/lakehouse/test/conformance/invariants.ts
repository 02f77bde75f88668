// Invariants of a table state that icebird does not check (it ignores field ids, bounds, partitions and
// sequence numbers): checked against the files on disk with our own Avro reading and DuckDB over the Parquet.
import type { DuckDBConnection } from '@duckdb/node-api';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Snapshot, TableMetadata } from '../../src/contract';
import { toPath } from '../../src/io/file-io';
import { readSnapshotEntries } from './avro-reader';
import { checkFile } from './file-invariants';

export interface InvariantContext {
  connection: DuckDBConnection;
  /** Files already checked in an earlier state (file checks are per file, not per snapshot). */
  checkedFiles?: Set<string>;
}

function summaryNumber(snapshot: Snapshot, key: string): number | undefined {
  const v = snapshot.summary[key];
  return v === undefined ? undefined : Number(v);
}

/** Metadata-document invariants (no file is read). */
export function checkMetadataDocument(metadata: TableMetadata): string[] {
  const out: string[] = [];
  const current = metadata['current-snapshot-id'] ?? null;
  const mainRef = metadata.refs.main?.['snapshot-id'] ?? null;
  if (current !== null && current !== -1 && mainRef !== current)
    out.push(`refs.main (${mainRef}) != current-snapshot-id (${current})`);
  const ids = new Set<number>();
  for (const s of metadata.snapshots) {
    const id = s['snapshot-id'];
    if (ids.has(id)) out.push(`duplicate snapshot id ${id}`);
    ids.add(id);
    if (!Number.isSafeInteger(id) || id <= 0) out.push(`snapshot id ${id} is not a positive safe integer`);
    if (s['sequence-number'] > metadata['last-sequence-number'])
      out.push(`snapshot ${id} sequence ${s['sequence-number']} > last-sequence-number`);
    const parent = s['parent-snapshot-id'];
    const parentSnap = metadata.snapshots.find((p) => p['snapshot-id'] === parent);
    if (parentSnap && parentSnap['sequence-number'] >= s['sequence-number'])
      out.push(`snapshot ${id} sequence number not above its parent's`);
    for (const [k, v] of Object.entries(s.summary))
      if (typeof v !== 'string') out.push(`snapshot ${id} summary ${k} is not a string`);
    if (!['append', 'overwrite', 'delete', 'replace'].includes(s.summary.operation))
      out.push(`snapshot ${id} has operation ${s.summary.operation}`);
  }
  const log = metadata['snapshot-log'];
  if (current !== null && log.length > 0 && log[log.length - 1]?.['snapshot-id'] !== current)
    out.push('last snapshot-log entry is not the current snapshot');
  for (const schema of metadata.schemas) {
    const fieldIds = schema.fields.map((f) => f.id);
    if (new Set(fieldIds).size !== fieldIds.length)
      out.push(`schema ${schema['schema-id']} reuses a field id`);
    if (fieldIds.some((id) => id > metadata['last-column-id']))
      out.push(`schema ${schema['schema-id']} has an id above last-column-id`);
  }
  for (const spec of metadata['partition-specs']) {
    for (const f of spec.fields) {
      if (f['field-id'] < 1000 || f['field-id'] > metadata['last-partition-id'])
        out.push(`partition field ${f.name} has id ${f['field-id']}`);
    }
  }
  return out;
}

/** Version-hint and metadata-log point at files that exist. */
export function checkMetadataFiles(metadata: TableMetadata): string[] {
  const out: string[] = [];
  const dir = join(toPath(metadata.location), 'metadata');
  const hintPath = join(dir, 'version-hint.text');
  if (!existsSync(hintPath)) out.push('metadata/version-hint.text is missing');
  else {
    const hint = Number(readFileSync(hintPath, 'utf8').trim());
    if (!existsSync(join(dir, `v${hint}.metadata.json`)))
      out.push(`version-hint ${hint} names a missing metadata file`);
  }
  for (const entry of metadata['metadata-log'])
    if (!existsSync(toPath(entry['metadata-file'])))
      out.push(`metadata-log file missing: ${entry['metadata-file']}`);
  return out;
}

/** Sequence numbers, summaries, and (once per file) Parquet-level facts of one snapshot. */
export async function checkSnapshot(
  ctx: InvariantContext,
  metadata: TableMetadata,
  snapshot: Snapshot,
): Promise<string[]> {
  const out: string[] = [];
  const sid = snapshot['snapshot-id'];
  const seq = snapshot['sequence-number'];
  const { manifests, entries } = await readSnapshotEntries(snapshot['manifest-list']);
  for (const m of manifests) {
    if (m.sequenceNumber > seq)
      out.push(`snapshot ${sid}: manifest ${m.manifestPath} has sequence ${m.sequenceNumber} > ${seq}`);
    if (m.addedSnapshotId === sid && m.sequenceNumber !== seq)
      out.push(`snapshot ${sid}: its own manifest has sequence ${m.sequenceNumber}, expected ${seq}`);
    if (!existsSync(toPath(m.manifestPath)))
      out.push(`snapshot ${sid}: manifest missing on disk ${m.manifestPath}`);
    else if (statSync(toPath(m.manifestPath)).size !== m.manifestLength)
      out.push(`snapshot ${sid}: manifest_length of ${m.manifestPath} differs from its size`);
  }
  for (const e of entries) {
    if (e.status !== 1 && (e.raw.sequenceNumber === null || e.raw.fileSequenceNumber === null)) {
      out.push(
        `snapshot ${sid}: ${statusName(e.status)} entry for ${e.dataFile.filePath} lacks explicit sequence numbers`,
      );
    }
    if (e.status === 1 && e.snapshotId !== e.manifest.addedSnapshotId)
      out.push(`snapshot ${sid}: ADDED entry snapshot id differs from its manifest's`);
    if (e.sequenceNumber > seq)
      out.push(
        `snapshot ${sid}: entry ${e.dataFile.filePath} has data sequence ${e.sequenceNumber} > ${seq}`,
      );
    if ((e.dataFile.content === 0) !== (e.manifest.content === 0))
      out.push(`snapshot ${sid}: ${e.dataFile.filePath} is in a manifest of the wrong content`);
  }
  const live = entries.filter((e) => e.status !== 2);
  const data = live.filter((e) => e.dataFile.content === 0);
  const deletes = live.filter((e) => e.dataFile.content === 1);
  const expect = (key: string, actual: number): void => {
    const declared = summaryNumber(snapshot, key);
    if (declared !== undefined && declared !== actual)
      out.push(`snapshot ${sid}: summary ${key}=${declared}, files say ${actual}`);
    if (declared === undefined && ['total-records', 'total-data-files'].includes(key))
      out.push(`snapshot ${sid}: summary lacks ${key}`);
  };
  expect('total-records', sum(data.map((e) => e.dataFile.recordCount)));
  expect('total-data-files', data.length);
  expect('total-delete-files', deletes.length);
  expect('total-position-deletes', sum(deletes.map((e) => e.dataFile.recordCount)));
  expect('total-files-size', sum(live.map((e) => e.dataFile.fileSizeInBytes)));
  const own = entries.filter((e) => e.snapshotId === sid);
  expect('added-data-files', own.filter((e) => e.status === 1 && e.dataFile.content === 0).length);
  expect('deleted-data-files', own.filter((e) => e.status === 2 && e.dataFile.content === 0).length);
  expect('added-delete-files', own.filter((e) => e.status === 1 && e.dataFile.content !== 0).length);
  expect(
    'added-records',
    sum(own.filter((e) => e.status === 1 && e.dataFile.content === 0).map((e) => e.dataFile.recordCount)),
  );
  expect(
    'deleted-records',
    sum(own.filter((e) => e.status === 2 && e.dataFile.content === 0).map((e) => e.dataFile.recordCount)),
  );
  const parent = metadata.snapshots.find((s) => s['snapshot-id'] === snapshot['parent-snapshot-id']);
  if (parent) {
    const delta =
      (summaryNumber(snapshot, 'added-records') ?? 0) - (summaryNumber(snapshot, 'deleted-records') ?? 0);
    const totals =
      (summaryNumber(snapshot, 'total-records') ?? 0) - (summaryNumber(parent, 'total-records') ?? 0);
    if (delta !== totals)
      out.push(
        `snapshot ${sid}: added-records − deleted-records = ${delta} but total-records moved by ${totals}`,
      );
  }
  if (snapshot.summary.operation === 'append' && own.some((e) => e.status === 2 || e.dataFile.content !== 0))
    out.push(`snapshot ${sid}: an append removed files or added deletes`);
  if (snapshot.summary.operation === 'delete' && own.some((e) => e.status === 1 && e.dataFile.content === 0))
    out.push(`snapshot ${sid}: a delete added data files`);

  const dataSeq = new Map(data.map((e) => [e.dataFile.filePath, e]));
  for (const e of live) {
    if (ctx.checkedFiles?.has(e.dataFile.filePath)) continue;
    out.push(...(await checkFile(ctx, metadata, e, dataSeq)).map((v) => `snapshot ${sid}: ${v}`));
    ctx.checkedFiles?.add(e.dataFile.filePath);
  }
  return out;
}

function statusName(status: number): string {
  return ['EXISTING', 'ADDED', 'DELETED'][status] ?? String(status);
}

function sum(values: number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

/** Every invariant of every snapshot still in the metadata. */
export async function checkTableInvariants(
  ctx: InvariantContext,
  metadata: TableMetadata,
): Promise<string[]> {
  const out = [...checkMetadataDocument(metadata), ...checkMetadataFiles(metadata)];
  const checked = ctx.checkedFiles ?? new Set<string>();
  for (const snapshot of metadata.snapshots)
    out.push(...(await checkSnapshot({ ...ctx, checkedFiles: checked }, metadata, snapshot)));
  return out;
}
