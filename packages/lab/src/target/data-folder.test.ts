// The data folder's problems, told apart by errno code and by looking at the folder: each message names the folder
// and the fix. (The commands meeting them are in cli.test.ts and load-cli.test.ts.)
import { describe, test, expect } from '@jest/globals';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  dataFolderProblem,
  diagnoseDataFolder,
  ensureWritableDataFolder,
  folderIdentity,
} from './data-folder';

const errno = (code: string) => Object.assign(new Error(code), { code });

describe('the data folder', () => {
  test('each errno code a folder meets has its message and fix; others are left to the caller', () => {
    const dir = '/somewhere/lake';
    expect(dataFolderProblem(errno('ENOSPC'), dir)?.message).toMatch(
      /^The disk holding --data-dir \/somewhere\/lake is full \(ENOSPC[^)]*\)\. Free some space, or give another folder with --data-dir <dir> on a disk with room\.$/,
    );
    expect(dataFolderProblem(errno('EROFS'), dir)?.message).toMatch(
      /--data-dir \/somewhere\/lake cannot be written \(EROFS: a read-only file system\)\. .*make it writable/,
    );
    expect(dataFolderProblem(errno('EACCES'), dir)?.message).toContain('(EACCES: permission denied)');
    expect(dataFolderProblem(errno('ENOENT'), dir)?.message).toContain('disappeared while the command ran');
    expect(dataFolderProblem(errno('ECONNRESET'), dir)).toBeUndefined();
    expect(dataFolderProblem(new Error('no code'), dir)).toBeUndefined();
  });

  test('a file where the folder (or a parent) should be is named, and left alone', () => {
    const base = mkdtempSync(join(tmpdir(), 'data-folder-'));
    const file = join(base, 'file');
    writeFileSync(file, 'mine');
    try {
      expect(() => ensureWritableDataFolder(file)).toThrow(
        `--data-dir ${file}: ${file} is a file, not a folder.`,
      );
      expect(() => ensureWritableDataFolder(join(file, 'lake'))).toThrow(
        `: ${file} is a file, not a folder.`,
      );
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });

  test('after a failure: a folder removed, or removed and made again, is told; a healthy one is not', () => {
    const base = mkdtempSync(join(tmpdir(), 'data-folder-'));
    const dir = join(base, 'lake');
    try {
      ensureWritableDataFolder(dir);
      const identity = folderIdentity(dir);
      expect(diagnoseDataFolder(dir, '--data-dir', identity)).toBeUndefined();
      rmSync(dir, { recursive: true });
      expect(diagnoseDataFolder(dir, '--data-dir', identity)?.message).toMatch(
        /was removed while the command ran/,
      );
      mkdirSync(dir);
      expect(diagnoseDataFolder(dir, '--data-dir', identity)?.message).toMatch(
        /was removed while the command ran/,
      );
      expect(diagnoseDataFolder(dir, '--data-dir', folderIdentity(dir))).toBeUndefined();
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });
});
