// The local endpoint's data folder as the user gave it (--data-dir): checked before anything starts on it, and looked
// at again after a failure, so a folder that is a file, read-only, removed or on a full disk is named with the fix
// instead of surfacing as an engine error or as throttling. Errors are told apart by their errno code.
import { existsSync, mkdirSync, rmSync, statSync, statfsSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DataFolderNotInPlaceError, LOCAL_DATA_DIR_ENTRIES } from '@loglake/local-aws';
import { LabError } from '../errors';

export class DataFolderError extends LabError {
  override readonly name = 'DataFolderError';
}

const errnoOf = (error: unknown): string | undefined =>
  error && typeof error === 'object' && 'code' in error && typeof error.code === 'string'
    ? error.code
    : undefined;

/** Codes that mean "this process may not write there". */
const NOT_WRITABLE = new Set(['EACCES', 'EPERM', 'EROFS']);
/** Codes that mean "the disk (or the user's quota) is full". */
const FULL = new Set(['ENOSPC', 'EDQUOT']);

/** The nearest existing ancestor of a path that is not a folder (the reason mkdir fails with ENOTDIR), if any. */
function fileInTheWay(dir: string): string | undefined {
  for (let p = dir; ; p = dirname(p)) {
    if (existsSync(p)) return statSync(p).isDirectory() ? undefined : p;
    if (dirname(p) === p) return undefined;
  }
}

/** The message for an errno error met on the data folder, or undefined when the code says nothing about it. */
export function dataFolderProblem(
  error: unknown,
  dir: string,
  flag = '--data-dir',
  purpose = 'The local endpoint keeps its tables, logs and query state there',
): DataFolderError | undefined {
  const code = errnoOf(error);
  const another = `or give another folder with ${flag} <dir>`;
  if (code === 'EEXIST' || code === 'ENOTDIR') {
    const file = fileInTheWay(dir) ?? dir;
    return new DataFolderError(
      `${flag} ${dir}: ${file} is a file, not a folder. Move the file away, ${another} (a new folder is created).`,
      { value: dir, cause: error },
    );
  }
  if (code && NOT_WRITABLE.has(code))
    return new DataFolderError(
      `${flag} ${dir} cannot be written (${code}: ${code === 'EROFS' ? 'a read-only file system' : 'permission denied'}). ` +
        `${purpose}: make it writable (e.g. chmod -R u+w ${dir}), ${another}.`,
      { value: dir, cause: error },
    );
  if (code && FULL.has(code))
    return new DataFolderError(
      `The disk holding ${flag} ${dir} is full (${code}${freeSpace(dir)}). Free some space, ${another} on a disk with room.`,
      { value: dir, cause: error },
    );
  if (code === 'ENOENT')
    return new DataFolderError(
      `${flag} ${dir} disappeared while the command ran (removed by something else?). Run the command again: a new, empty folder is created.`,
      { value: dir, cause: error },
    );
  return undefined;
}

function freeSpace(dir: string): string {
  try {
    for (let p = dir; ; p = dirname(p)) {
      if (existsSync(p)) {
        const s = statfsSync(p);
        return `, ${Math.round((s.bavail * s.bsize) / 1024)} KiB free`;
      }
      if (dirname(p) === p) return '';
    }
  } catch {
    return '';
  }
}

/**
 * The endpoint's refusal of a copied or moved data folder (its tables still live in the original, as Iceberg records
 * absolute locations), in the lab's words: the flag, the folder, the original and the fix. Undefined for other errors.
 */
export function dataFolderNotInPlace(error: unknown, flag = '--data-dir'): DataFolderError | undefined {
  if (!(error instanceof DataFolderNotInPlaceError)) return undefined;
  const { dataDir, original, outside } = error;
  return new DataFolderError(
    `${flag} ${dataDir} was copied or moved from ${original ?? 'another folder'}: its table ${outside.table} still ` +
      `lives at ${outside.location}. Iceberg records absolute locations, so a copy cannot be used as a lake (it would ` +
      `read and write the original's files). Use the original${original ? ` (${flag} ${original})` : ''}, or give ` +
      `an empty folder with ${flag} <dir> (a new folder is created).`,
    { value: dataDir, cause: error },
  );
}

/** Writes and removes a probe file in `dir`: throws the errno error a real write would meet. */
function probeWrite(dir: string): void {
  const probe = join(dir, `.loglake-write-probe-${process.pid}`);
  writeFileSync(probe, 'probe');
  rmSync(probe, { force: true });
}

/**
 * Makes sure `dir` is a folder this process can write, creating it; otherwise throws a DataFolderError naming the
 * folder and the fix. The endpoint's own subfolders are probed too (one may be read-only on its own).
 */
export function ensureWritableDataFolder(dir: string, flag = '--data-dir', purpose?: string): void {
  try {
    mkdirSync(dir, { recursive: true });
    if (!statSync(dir).isDirectory())
      throw Object.assign(new Error(`${dir} is not a folder`), { code: 'EEXIST' });
    probeWrite(dir);
    for (const entry of Object.values(LOCAL_DATA_DIR_ENTRIES)) {
      const sub = join(dir, entry);
      if (existsSync(sub) && statSync(sub).isDirectory()) probeWrite(sub);
    }
  } catch (error) {
    throw dataFolderProblem(error, dir, flag, purpose) ?? error;
  }
}

/**
 * Which folder a path is: device, inode and birth time (a folder removed and made again may get the same inode back,
 * never the same birth time), so one made again at the same path is another folder.
 */
export function folderIdentity(dir: string): string | undefined {
  try {
    const s = statSync(dir, { bigint: true });
    // Without a birth time (some file systems keep none) device and inode are all there is.
    return `${s.dev}:${s.ino}:${s.birthtimeNs}`;
  } catch {
    return undefined;
  }
}

/**
 * After something failed on a local target (or while waiting on it): what is wrong with its data folder now (gone —
 * or gone and made again, empty, by the endpoint's next write: `identity` is the folder's at the start —, a file,
 * read-only, full), or undefined when the folder looks fine (the failure has another cause).
 */
export function diagnoseDataFolder(
  dir: string,
  flag = '--data-dir',
  identity?: string,
): DataFolderError | undefined {
  if (!existsSync(dir) || (identity !== undefined && folderIdentity(dir) !== identity))
    return new DataFolderError(
      `${flag} ${dir} was removed while the command ran, so the local endpoint lost its tables and logs. ` +
        'Run the command again (the whole lab starts a new lake: `pnpm lab`).',
      { value: dir },
    );
  try {
    ensureWritableDataFolder(dir, flag);
  } catch (error) {
    return error instanceof DataFolderError ? error : undefined;
  }
  // A probe of a few bytes can still fit on a disk the endpoint's files no longer fit on.
  const { bavail, bsize } = statfsSync(dir);
  if (bavail * bsize < MIN_FREE_BYTES)
    return dataFolderProblem(Object.assign(new Error('no space'), { code: 'ENOSPC' }), dir, flag);
  return undefined;
}

/** Less free space than this on the folder's disk after a failure: the disk is why. */
const MIN_FREE_BYTES = 4 * 1024 * 1024;
