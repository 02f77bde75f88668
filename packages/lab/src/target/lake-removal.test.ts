import { describe, expect, test } from '@jest/globals';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { keptNote, removeLakeFiles } from './lake-removal';
import { lakeFiles, LAKE_MANIFEST } from './local-lake';

const put = (dir: string, rel: string, text: string) => {
  mkdirSync(dirname(join(dir, rel)), { recursive: true });
  writeFileSync(join(dir, rel), text);
};

describe('emptying a lake removes exactly the files inspected', () => {
  test('all of them, then the manifest, a stale lock and the folders: nothing is left', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lake-removal-'));
    put(dir, 'warehouse/warehouse/b/network/t-0a1b2c3d/data/x.parquet', 'parquet');
    put(dir, 'state/athena/queries/q.json', '{}');
    put(dir, LAKE_MANIFEST, '{}');
    // A lock left by a killed endpoint on this machine: stale, so it does not hold the folder.
    put(
      dir,
      'endpoint.lock',
      JSON.stringify({ pid: 999999999, port: null, startedAt: '2026-12-01', host: hostname() }),
    );
    put(dir, 'tmp/lock/held-1', '{}');
    const removal = removeLakeFiles(dir, lakeFiles(dir));
    expect(removal).toEqual({ files: 2, bytes: 9, kept: new Map() });
    expect(existsSync(dir)).toBe(false);
  });

  test('a file that appeared or changed after the inspection is kept and named, with the manifest', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lake-removal-'));
    try {
      put(dir, 's3/b/lab-object', 'lab');
      put(dir, 's3/b/changes', 'v1');
      put(dir, LAKE_MANIFEST, '{}');
      const planned = lakeFiles(dir);
      put(dir, 's3/b/changes', 'version 2');
      put(dir, 's3/b/appeared', 'new');
      const removal = removeLakeFiles(dir, planned);
      expect([removal.files, removal.bytes]).toEqual([1, 3]);
      expect([...removal.kept.keys()].sort()).toEqual(['s3/b/appeared', 's3/b/changes']);
      expect(keptNote(removal)).toMatch(
        /2 files appeared or changed .* were kept: s3\/b\/(appeared|changes)/,
      );
      expect(existsSync(join(dir, LAKE_MANIFEST))).toBe(true);
      expect(readFileSync(join(dir, 's3/b/changes'), 'utf8')).toBe('version 2');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a symbolic link is removed as a link: what it points at is never followed', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lake-removal-'));
    const elsewhere = mkdtempSync(join(tmpdir(), 'lake-removal-target-'));
    try {
      writeFileSync(join(elsewhere, 'precious'), 'keep me');
      mkdirSync(join(dir, 's3'), { recursive: true });
      symlinkSync(elsewhere, join(dir, 's3', 'bucket'));
      const planned = lakeFiles(dir);
      expect([...planned.keys()]).toEqual(['s3/bucket']);
      removeLakeFiles(dir, planned);
      expect(existsSync(dir)).toBe(false);
      expect(readFileSync(join(elsewhere, 'precious'), 'utf8')).toBe('keep me');
    } finally {
      rmSync(dir, { recursive: true, force: true });
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });
});
