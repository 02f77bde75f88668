// Table maintenance on real tables: compaction that rewrites (or honestly does nothing), snapshot expiry
// that deletes only unreachable files and is held back by tags, orphan removal after a crashed writer.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TableHandle } from '../contract';
import { CommitConflictError, NoSuchSnapshotError } from '../errors';
import { toPath } from '../io/file-io';
import { filesTable } from '../metadata-tables/file-tables';
import {
  countRows,
  flowRows,
  flowTable,
  query,
  testWarehouse,
  type TestWarehouse,
} from '../../test/table/testing';
import { CompactionPolicyError } from './compaction-plan';
import { ExpirePolicyError } from './expire-plan';
import './index';
import { OrphanRemovalError } from './remove-orphans';

const CRASH_CHILD = fileURLToPath(new URL('../../test/table/crash-child.ts', import.meta.url));

let env: TestWarehouse;
beforeAll(async () => {
  env = await testWarehouse();
});
afterAll(async () => env.dispose());

async function dump(table: TableHandle, snapshotId?: number): Promise<string[]> {
  const plan = await table.scan(snapshotId === undefined ? {} : { snapshotId });
  const rows = await query(env.warehouse, `SELECT * FROM ${plan.relationSql} AS t`);
  return rows
    .map((r) => JSON.stringify(r, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)))
    .sort();
}

async function liveFiles(table: TableHandle): Promise<{ data: number; deletes: number }> {
  const meta = await table.metadata();
  const files = await filesTable(table.name, meta, meta['current-snapshot-id'] ?? null);
  return {
    data: files.rows.filter((r) => r[0] === 0).length,
    deletes: files.rows.filter((r) => r[0] === 1).length,
  };
}

function metadataVersions(location: string): number {
  return readdirSync(join(toPath(location), 'metadata')).filter((n) => /^v\d+\.metadata\.json$/.test(n))
    .length;
}

describe('compaction', () => {
  test('rewrites small files and applies their deletes into one replace snapshot; rows unchanged', async () => {
    // Prepare: three commits over two hours (6 small files) and a delete (one position-delete file per data file)
    const table = await flowTable(env.warehouse, 'compact_me');
    for (let i = 0; i < 3; i++) await table.append({ rows: flowRows(20, 2, i * 20) });
    const deleted = await table.deleteWhere({ op: 'eq', column: 'action', value: 'REJECT' });
    const before = await dump(table);
    expect(await liveFiles(table)).toEqual({ data: 6, deletes: 6 });
    // Act
    const report = await table.compact();
    // Assess
    expect(report.snapshot?.summary.operation).toBe('replace');
    expect(report).toMatchObject({ rewrittenDataFiles: 6, rewrittenDeleteFiles: 6, addedDataFiles: 2 });
    expect(report.message).toMatch(/^Rewrote 6 data file\(s\) and applied 6 position-delete file\(s\)/);
    expect(await dump(table)).toEqual(before);
    expect(await liveFiles(table)).toEqual({ data: 2, deletes: 0 });
    expect(report.snapshot?.summary['total-records']).toBe(String(60 - deleted.deletedRows));
    expect(report.snapshot?.summary['total-position-deletes']).toBe('0');
  });

  test('a run with nothing to do says why and commits nothing', async () => {
    const table = await flowTable(env.warehouse, 'already_compact');
    await table.append({ rows: flowRows(30, 3) });
    const meta = await table.metadata();
    const versions = metadataVersions(meta.location);
    const report = await table.compact();
    expect(report.snapshot).toBeNull();
    expect(report.rewrittenDataFiles).toBe(0);
    expect(report.message).toMatch(
      /^Nothing to compact: 3 data file\(s\) and 0 delete file\(s\).*3 small file\(s\) alone/,
    );
    expect((await table.metadata()).snapshots).toHaveLength(1);
    expect(metadataVersions(meta.location)).toBe(versions);
  });

  test('the small-file threshold relative to the target decides: files above it are left alone', async () => {
    const table = await flowTable(env.warehouse, 'big_enough');
    for (let i = 0; i < 3; i++) await table.append({ rows: flowRows(10, 1, i * 10) });
    const report = await table.compact({ targetFileSizeBytes: 1000 });
    expect(report.snapshot).toBeNull();
    expect(report.message).toMatch(/small = under 750 B, 75% of the 1000 B target/);
    const rewritten = await table.compact({ targetFileSizeBytes: 64 * 1024 * 1024 });
    expect(rewritten.rewrittenDataFiles).toBe(3);
  });

  test('racing deletes are never lost: compaction either includes them or fails with CommitConflictError', async () => {
    const table = await flowTable(env.warehouse, 'race');
    for (let i = 0; i < 4; i++) await table.append({ rows: flowRows(25, 1, i * 25) });
    const other = await env.warehouse.loadTable('lab', 'network', 'race');
    const outcomes = await Promise.allSettled([
      table.compact(),
      other.deleteWhere({ op: 'eq', column: 'dst_port', value: 22 }),
    ]);
    const [compaction, deletion] = outcomes;
    expect(deletion.status).toBe('fulfilled');
    if (compaction?.status === 'rejected') expect(compaction.reason).toBeInstanceOf(CommitConflictError);
    const plan = await table.scan();
    const [left] = await query(
      env.warehouse,
      `SELECT count(*) FILTER (WHERE dst_port = 22) AS ssh, count(*) AS n FROM ${plan.relationSql} AS t`,
    );
    expect(Number(left?.['ssh'])).toBe(0);
    expect(Number(left?.['n'])).toBe(100 - 34);
  });

  test('maintenance racing writers loses no commit: appends during compaction and expiry all land', async () => {
    const table = await flowTable(env.warehouse, 'busy');
    for (let i = 0; i < 3; i++) await table.append({ rows: flowRows(10, 1, i * 10) });
    const writer = await env.warehouse.loadTable('lab', 'network', 'busy');
    const appends = (async () => {
      for (let i = 3; i < 9; i++) await writer.append({ rows: flowRows(10, 1, i * 10) });
    })();
    const maintenanceRuns = (async () => {
      await table.compact();
      await table.expireSnapshots({ minSnapshotsToKeep: 1, maxSnapshotAgeMs: 0 });
      await table.compact();
    })();
    await Promise.all([appends, maintenanceRuns]);
    expect(await countRows(env.warehouse, table)).toBe(90);
    const head = (await table.metadata()).snapshots.at(-1)!;
    expect(head.summary['total-records']).toBe('90');
  });

  test('bad settings are named errors and change nothing', async () => {
    const table = await flowTable(env.warehouse, 'bad_compaction');
    await table.append({ rows: flowRows(5) });
    await expect(table.compact({ targetFileSizeBytes: -1 })).rejects.toThrow(CompactionPolicyError);
    await expect(table.compact({ targetFileSizeBytes: -1 })).rejects.toThrow(/got -1/);
    expect((await table.metadata()).snapshots).toHaveLength(1);
  });
});

describe('snapshot expiry', () => {
  test('expires old snapshots, deletes only files no retained snapshot reads, keeps the current rows', async () => {
    // Prepare: append, append, delete, compact → the old data files are reachable only from old snapshots
    const table = await flowTable(env.warehouse, 'expire_me');
    await table.append({ rows: flowRows(20, 2) });
    await table.append({ rows: flowRows(20, 2, 20) });
    await table.compact();
    const meta = await table.metadata();
    const oldest = meta.snapshots[0]!['snapshot-id'];
    const current = await dump(table);
    const oldFiles = (await filesTable(table.name, meta, oldest)).rows.map((r) => toPath(String(r[1])));
    // Act
    const report = await table.expireSnapshots({ minSnapshotsToKeep: 1, maxSnapshotAgeMs: 0 });
    // Assess
    expect(report.expiredSnapshotIds).toHaveLength(2);
    expect(report.deletedFiles).toBeGreaterThanOrEqual(4);
    expect(oldFiles.every((f) => !existsSync(f))).toBe(true);
    expect(await dump(table)).toEqual(current);
    await expect(table.scan({ snapshotId: oldest })).rejects.toThrow(NoSuchSnapshotError);
    const after = await table.metadata();
    expect(after.snapshots).toHaveLength(1);
    expect(after['snapshot-log'].map((e) => e['snapshot-id'])).toEqual([after['current-snapshot-id']]);
  });

  test('a tag keeps its snapshot and files alive; a tag past its max-ref-age stops protecting it', async () => {
    const table = await flowTable(env.warehouse, 'tagged');
    await table.append({ rows: flowRows(10, 1) });
    const first = (await table.metadata()).snapshots[0]!['snapshot-id'];
    await table.append({ rows: flowRows(10, 1, 10) });
    await table.compact();
    await table.createTag('audit', first);
    const kept = await table.expireSnapshots({ minSnapshotsToKeep: 1, maxSnapshotAgeMs: 0 });
    expect(kept.expiredSnapshotIds).not.toContain(first);
    expect(await countRows(env.warehouse, table, { ref: 'audit' })).toBe(10);
    // The same tag with a max-ref-age: once older than that, expiry drops the tag and then the snapshot.
    await table.dropRef('audit');
    await table.createTag('audit', first, 1);
    await new Promise((r) => setTimeout(r, 5));
    const dropped = await table.expireSnapshots({ minSnapshotsToKeep: 1, maxSnapshotAgeMs: 0 });
    expect(dropped.expiredSnapshotIds).toContain(first);
    expect((await table.metadata()).refs['audit']).toBeUndefined();
    expect(await countRows(env.warehouse, table)).toBe(20);
  });

  test('a dry run measures what a ref holds back and commits and deletes nothing; a real run never ignores a ref', async () => {
    // Prepare
    const table = await flowTable(env.warehouse, 'dry_run');
    await table.append({ rows: flowRows(10, 1) });
    const first = (await table.metadata()).snapshots[0]!['snapshot-id'];
    await table.append({ rows: flowRows(10, 1, 10) });
    await table.compact();
    await table.createTag('audit', first);
    const policy = { minSnapshotsToKeep: 1, maxSnapshotAgeMs: 0 };
    // Act
    const measured = await table.expireSnapshots({ ...policy, dryRun: true, ignoreRefs: ['audit'] });
    const snapshotsAfterDryRun = (await table.metadata()).snapshots.length;
    const real = await table.expireSnapshots({ ...policy, ignoreRefs: ['audit'] });
    // Assess
    expect(measured.expiredSnapshotIds).toContain(first);
    expect(measured.deletedBytes).toBeGreaterThan(0);
    expect(snapshotsAfterDryRun).toBe(3);
    expect(real.expiredSnapshotIds).not.toContain(first);
    expect(await countRows(env.warehouse, table, { ref: 'audit' })).toBe(10);
  });

  test('a young history is kept whole and nothing is committed', async () => {
    const table = await flowTable(env.warehouse, 'young');
    await table.append({ rows: flowRows(3) });
    await table.append({ rows: flowRows(3, 3, 3) });
    const report = await table.expireSnapshots({ minSnapshotsToKeep: 1, maxSnapshotAgeMs: 3_600_000 });
    expect(report).toMatchObject({ expiredSnapshotIds: [], deletedFiles: 0, deletedBytes: 0 });
    await expect(table.expireSnapshots({ minSnapshotsToKeep: 0, maxSnapshotAgeMs: 0 })).rejects.toThrow(
      ExpirePolicyError,
    );
    expect((await table.metadata()).snapshots).toHaveLength(2);
  });
});

describe('orphan file removal', () => {
  test('files of a writer killed before its commit are removed; referenced files are not', async () => {
    // Prepare: a committed state, then a child that writes data + manifests and dies before publishing
    const table = await flowTable(env.warehouse, 'crashed_writer');
    await table.append({ rows: flowRows(10, 2) });
    const before = await dump(table);
    await new Promise<void>((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', CRASH_CHILD, env.dir, table.name], {
        env: { ...process.env, LOGLAKE_CRASH_AT: 'before-publish' },
        stdio: 'ignore',
      });
      child.on('error', reject);
      child.on('exit', () => resolve());
    });
    // Act + Assess: the default age (3 days) protects young files; age 0 removes the orphans
    expect(await table.removeOrphanFiles()).toEqual({ deletedFiles: 0, deletedBytes: 0 });
    const removed = await table.removeOrphanFiles(0);
    expect(removed.deletedFiles).toBeGreaterThanOrEqual(3); // data files, a manifest, a manifest list
    expect(await dump(table)).toEqual(before);
    expect(await table.removeOrphanFiles(0)).toEqual({ deletedFiles: 0, deletedBytes: 0 });
    await table.append({ rows: flowRows(1) });
    expect(await countRows(env.warehouse, table)).toBe(11);
    await expect(table.removeOrphanFiles(-1)).rejects.toThrow(OrphanRemovalError);
  });
});
