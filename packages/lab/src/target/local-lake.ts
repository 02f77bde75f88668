// What the lab knows about a local lake (the endpoint's data folder): the lab writes a manifest there listing every
// file it left in the folder, so before it empties the folder (the whole lab starts from an empty lake) it can tell
// its own files from files something else wrote since — a `pnpm load`, a query, an `aws s3 cp` to `pnpm lab local`,
// a file put there by hand.
//
// Every file in the folder is either the lab's (the manifest lists it with that size) or not. Of those that are not,
// data is what a user would lose — the tables' files (Iceberg data, delete and metadata files), the objects in its S3
// buckets, the parts of S3 multipart uploads not yet completed, Firehose's logs of records accepted and not yet
// delivered — and the rest is service state (query history and results, sessions, settings, working files). Both
// are refused unless the user says --discard-data: nothing the lab did not write is removed by accident. Only the
// folder's bookkeeping (the manifest, the endpoint's lock) is neither. Removal (lake-removal.ts) removes exactly the
// files inspected, so what the lab says it removes is what it removes.
import { randomUUID } from 'node:crypto';
import { existsSync, lstatSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { LOCAL_DATA_DIR_ENTRIES } from '@loglake/local-aws';
import { formatBytes, formatCount } from '../report/format';
import { LabError } from '../errors';

/** The manifest's file name in the data folder. */
export const LAKE_MANIFEST = 'loglake-lab.json';

/** 2: the manifest lists every file of the folder the lab left (1, before: its data files only). */
export const LAKE_MANIFEST_VERSION = 2;

export interface LakeManifest {
  lakeId: string;
  writtenBy: 'pnpm lab';
  /** LAKE_MANIFEST_VERSION; absent in a manifest of version 1, which listed data files only. */
  version?: number;
  updatedAt: string;
  /** The files the lab left in the folder: path relative to the folder (with /) → size in bytes. */
  files: Record<string, number>;
  /**
   * Set while a lab runs on the lake (its files are recorded after each experiment and when it ends). A lab that
   * died (killed) leaves it behind: files it wrote in its last experiment are unlisted, and count as not the lab's.
   */
  inProgress?: { pid: number; startedAt: string };
}

/** Files the lab did not write, by where they are (a table, a bucket, a stream's log, a service's state). */
export interface ForeignData {
  /** `network.vpc_flow_logs`, `s3://bucket`, `Firehose stream (records not yet delivered)`, `… (state/athena)`. */
  where: string;
  files: number;
  bytes: number;
}

/** How many files, and their bytes. */
export interface FileCount {
  files: number;
  bytes: number;
}

/** What a lake folder holds: every file but its bookkeeping, and which of them the lab did not write. */
export interface LakeContents {
  /** Every file (path with / → size): what emptying the lake removes. */
  all: ReadonlyMap<string, number>;
  data: FileCount;
  /** Files that are not data: service state and working files. */
  state: FileCount;
  /** The files the lab did not write (not in the manifest with that size): path → size. */
  notTheLabs: ReadonlyMap<string, number>;
  /** Data among them, grouped by table, bucket or stream. */
  foreign: ForeignData[];
  /** The rest of them, grouped by service or folder. */
  foreignState: ForeignData[];
}

export type LakeInspection =
  /** No folder, or one holding no file (empty folders at most) and no manifest. */
  | { kind: 'absent' }
  /** Holds entries the endpoint never writes: not a lake at all. */
  | { kind: 'not-a-lake'; entries: string[] }
  /** An endpoint's folder with no lab manifest (`pnpm lab local`, `pnpm load` or a query made it). */
  | ({ kind: 'unmarked' } & LakeContents)
  /**
   * A lake the lab wrote. `interrupted`: a lab run on it died before recording all it wrote, so some of the files
   * it did not list may be that run's own last writes. `olderManifest`: a version-1 manifest, which listed no
   * service state.
   */
  | ({
      kind: 'lab';
      manifest: LakeManifest;
      interrupted?: boolean;
      olderManifest?: boolean;
    } & LakeContents);

export class LakeManifestError extends LabError {
  override readonly name = 'LakeManifestError';
}

/** The write probe's files (data-folder.ts), which a killed process may leave behind. */
const PROBE = /^\.loglake-write-probe-\d+$/;

/** Top-level entries of a data folder the endpoint writes, and the lab's manifest. */
const KNOWN_ENTRIES = new Set<string>([...Object.values(LOCAL_DATA_DIR_ENTRIES), LAKE_MANIFEST]);

/** The folder's bookkeeping: the manifest, the endpoint's lock (and its aside files), write probes. */
export function isBookkeeping(path: string): boolean {
  return (
    path === LAKE_MANIFEST ||
    path === LOCAL_DATA_DIR_ENTRIES.lock ||
    path.startsWith(`${LOCAL_DATA_DIR_ENTRIES.tmp}/lock/`) ||
    PROBE.test(path.split('/').pop() ?? '')
  );
}

const TABLE_DATA = `${LOCAL_DATA_DIR_ENTRIES.warehouse}/warehouse/`;

/** Whether a file is data a user would lose (see the head of this file). */
export function isDataFile(path: string): boolean {
  if (path.startsWith(TABLE_DATA)) return true;
  if (path.startsWith(`${LOCAL_DATA_DIR_ENTRIES.s3}/`)) return true;
  if (path.startsWith(`${LOCAL_DATA_DIR_ENTRIES.uploads}/`)) return true;
  // A stream's checkpoint is the log's bookkeeping (counters, what was delivered), not records.
  return path.startsWith(`${LOCAL_DATA_DIR_ENTRIES.firehose}/`) && !path.endsWith('/checkpoint.json');
}

/**
 * Every file under the folder but its bookkeeping: relative path (with /) → size. A symbolic link is a file of its
 * own (never followed: emptying the lake removes the link, not what it points at).
 */
export function lakeFiles(dir: string): Map<string, number> {
  const files = new Map<string, number>();
  const walk = (d: string) => {
    let entries: string[];
    try {
      entries = readdirSync(d);
    } catch {
      return; // removed while we looked
    }
    for (const entry of entries) {
      const full = join(d, entry);
      let s;
      try {
        s = lstatSync(full);
      } catch {
        continue;
      }
      if (s.isDirectory()) walk(full);
      else {
        const path = relative(dir, full).split(sep).join('/');
        if (!isBookkeeping(path)) files.set(path, s.size);
      }
    }
  };
  walk(dir);
  return files;
}

/** The lake's data files (tables, bucket objects, multipart upload parts, stream logs): path → size. */
export function lakeDataFiles(dir: string): Map<string, number> {
  return new Map([...lakeFiles(dir)].filter(([path]) => isDataFile(path)));
}

const decode = (segment: string) => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
};

/** What each service keeps in state/<service>, in words. */
const STATE_WORDS: Record<string, string> = {
  athena: 'Athena query history and results',
  cloudwatch: 'CloudWatch metrics and alarms',
  firehose: 'Firehose streams',
  glue: 'Glue databases and tables',
  iam: 'STS sessions',
  lakeformation: 'Lake Formation grants',
  s3: 'S3 bucket settings',
  s3tables: 'S3 Tables settings and maintenance',
};

/** The bucket a multipart upload in progress is for (its upload.json), if it can be read. */
function uploadBucket(dir: string, uploadId: string): string | undefined {
  try {
    const info = JSON.parse(
      readFileSync(join(dir, LOCAL_DATA_DIR_ENTRIES.uploads, uploadId, 'upload.json'), 'utf8'),
    ) as { bucket?: unknown };
    return typeof info.bucket === 'string' ? info.bucket : undefined;
  } catch {
    return undefined;
  }
}

/** Where a file belongs: its table, bucket, stream's log, service or folder. `dir` reads upload records. */
export function dataFileOwner(path: string, dir?: string): string {
  const parts = path.split('/').map(decode);
  const [top, second] = parts;
  if (path.startsWith(TABLE_DATA) && parts.length >= 5) {
    // warehouse/warehouse/<table bucket>/<namespace>/<table>-<uuid>/…
    const table = (parts[4] as string).replace(/-[0-9a-f]{8}$/, '');
    return `${parts[3]}.${table}`;
  }
  if (top === LOCAL_DATA_DIR_ENTRIES.s3 && parts.length >= 3) return `s3://${second}`;
  if (top === LOCAL_DATA_DIR_ENTRIES.uploads && parts.length >= 3) {
    const bucket = dir ? uploadBucket(dir, second as string) : undefined;
    return `multipart uploads to ${bucket ? `s3://${bucket}` : 'S3'} not yet completed`;
  }
  if (top === LOCAL_DATA_DIR_ENTRIES.firehose && parts.length >= 3)
    return path.endsWith('/checkpoint.json')
      ? `Firehose ${second} (its log's checkpoint)`
      : `Firehose ${second} (records not yet delivered)`;
  if (top === LOCAL_DATA_DIR_ENTRIES.state && parts.length >= 3)
    return `${STATE_WORDS[second as string] ?? `${second}'s service state`} (state/${second})`;
  if (top === LOCAL_DATA_DIR_ENTRIES.warehouse && second === 'catalog')
    return 'the table catalog (warehouse/catalog)';
  // Anywhere else (a file put there by hand, a working file): its folder, or itself at the top of one.
  return parts.length > 2 ? `${top}/${second}/` : parts.join('/');
}

/** Files grouped by owner, sorted by where. */
export function groupFiles(files: ReadonlyMap<string, number>, dir?: string): ForeignData[] {
  const byOwner = new Map<string, ForeignData>();
  for (const [path, size] of files) {
    const where = dataFileOwner(path, dir);
    const entry = byOwner.get(where) ?? { where, files: 0, bytes: 0 };
    entry.files++;
    entry.bytes += size;
    byOwner.set(where, entry);
  }
  return [...byOwner.values()].sort((a, b) => a.where.localeCompare(b.where));
}

/** Files of `now` that `known` does not list with the same size, grouped by owner. */
export function foreignData(
  now: ReadonlyMap<string, number>,
  known: Readonly<Record<string, number>>,
): ForeignData[] {
  return groupFiles(new Map([...now].filter(([path, size]) => known[path] !== size)));
}

export function describeForeign(foreign: readonly ForeignData[]): string {
  return foreign
    .map(
      (f) => `${f.where} (${formatCount(f.files)} file${f.files === 1 ? '' : 's'}, ${formatBytes(f.bytes)})`,
    )
    .join(', ');
}

export function readManifest(dir: string): LakeManifest | undefined {
  const path = join(dir, LAKE_MANIFEST);
  if (!existsSync(path)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new LakeManifestError(
      `${path}, the lab's record of what it wrote in this lake, is unreadable (${(error as Error).message}). ` +
        "Without it the lab cannot tell its files from anyone else's: `pnpm lab reset --discard-data` empties the lake (`--dry-run` lists what it would remove).",
      { value: path, cause: error },
    );
  }
  const m = parsed as Partial<LakeManifest>;
  if (typeof m?.lakeId !== 'string' || typeof m.files !== 'object' || m.files === null)
    throw new LakeManifestError(
      `${path} is not a lab manifest (no lakeId or files). \`pnpm lab reset --discard-data\` empties the lake (\`--dry-run\` lists what it would remove).`,
      { value: path },
    );
  return m as LakeManifest;
}

function contentsOf(dir: string, known: Readonly<Record<string, number>>): LakeContents {
  const all = lakeFiles(dir);
  const data = { files: 0, bytes: 0 };
  const state = { files: 0, bytes: 0 };
  const notTheLabs = new Map<string, number>();
  for (const [path, size] of all) {
    const count = isDataFile(path) ? data : state;
    count.files++;
    count.bytes += size;
    if (known[path] !== size) notTheLabs.set(path, size);
  }
  const pick = (isData: boolean) => new Map([...notTheLabs].filter(([path]) => isDataFile(path) === isData));
  return {
    all,
    data,
    state,
    notTheLabs,
    foreign: groupFiles(pick(true), dir),
    foreignState: groupFiles(pick(false), dir),
  };
}

export function inspectLake(dir: string): LakeInspection {
  if (!existsSync(dir)) return { kind: 'absent' };
  const entries = readdirSync(dir);
  const strange = entries.filter((e) => !KNOWN_ENTRIES.has(e) && !PROBE.test(e));
  if (strange.length > 0) return { kind: 'not-a-lake', entries: strange };
  const manifest = readManifest(dir);
  const contents = contentsOf(dir, manifest?.files ?? {});
  if (!manifest) return contents.all.size === 0 ? { kind: 'absent' } : { kind: 'unmarked', ...contents };
  const interrupted = manifest.inProgress !== undefined && !processAlive(manifest.inProgress.pid);
  const older = (manifest.version ?? 1) < LAKE_MANIFEST_VERSION;
  return {
    kind: 'lab',
    manifest,
    ...contents,
    ...(interrupted ? { interrupted } : {}),
    ...(older ? { olderManifest: older } : {}),
  };
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, as another user's.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function writeManifest(dir: string, manifest: LakeManifest): void {
  writeFileSync(join(dir, LAKE_MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
}

/** Marks a lab run as under way on the lake (cleared by recordLabWrites). */
export function markLabRunning(dir: string, manifest: LakeManifest): LakeManifest {
  const marked = { ...manifest, inProgress: { pid: process.pid, startedAt: new Date().toISOString() } };
  writeManifest(dir, marked);
  return marked;
}

/** Starts a new lake's manifest in an (empty or new) folder: nothing written yet. */
export function startLakeManifest(dir: string): LakeManifest {
  const manifest: LakeManifest = {
    lakeId: randomUUID(),
    writtenBy: 'pnpm lab',
    version: LAKE_MANIFEST_VERSION,
    updatedAt: new Date().toISOString(),
    files: {},
  };
  writeManifest(dir, manifest);
  return manifest;
}

/**
 * During and after a lab run on the lake: the files now there are the lab's, except those that were not the lab's
 * when the run started (they stay so, and a later whole lab still refuses to drop them silently). `running` keeps
 * the run's in-progress mark (after an experiment); without it the run is over.
 */
export function recordLabWrites(
  dir: string,
  manifest: LakeManifest,
  foreignAtStart: ReadonlySet<string>,
  running = false,
): void {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return; // removed during the run: nothing to describe
  const files: Record<string, number> = {};
  for (const [path, size] of lakeFiles(dir)) if (!foreignAtStart.has(path)) files[path] = size;
  const { inProgress, ...rest } = manifest;
  writeManifest(dir, {
    ...rest,
    version: LAKE_MANIFEST_VERSION,
    updatedAt: new Date().toISOString(),
    files,
    ...(running && inProgress ? { inProgress } : {}),
  });
}

/** Files that are not the lab's now (by path), to keep them so through a run. */
export function foreignPaths(dir: string, manifest: LakeManifest | undefined): Set<string> {
  return new Set(contentsOf(dir, manifest?.files ?? {}).notTheLabs.keys());
}
