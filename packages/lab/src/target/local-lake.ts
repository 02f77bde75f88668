// What the lab knows about a local lake (the endpoint's data folder): the lab writes a manifest there listing the
// lake's data files it wrote, so before it empties the folder (the whole lab starts from an empty lake) it can tell
// its own data from data something else wrote since — a `pnpm load`, a query's INSERT, a client of `pnpm lab local`.
//
// The lake's data is what a user would lose: the tables' files (Iceberg data, delete and metadata files), the objects
// in its S3 buckets (error output, snapshots) and Firehose's logs of records accepted and not yet delivered. Service
// state (query history, sessions, alarms) and working files are not data. Foreign data is any data file the manifest
// does not list with that size; files the lab wrote and something later removed are not foreign (nothing to lose).
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { assertDataFolderFree, LOCAL_DATA_DIR_ENTRIES } from '@loglake/local-aws';
import { formatBytes, formatCount } from '../report/format';
import { LabError } from '../errors';

/** The manifest's file name in the data folder. */
export const LAKE_MANIFEST = 'loglake-lab.json';

export interface LakeManifest {
  /** A new id each time the lab starts an empty lake: the lab's state file names the lake it belongs to. */
  lakeId: string;
  writtenBy: 'pnpm lab';
  updatedAt: string;
  /** The lake's data files the lab wrote: path relative to the folder (with /) → size in bytes. */
  files: Record<string, number>;
  /**
   * Set while a lab runs on the lake (its files are recorded after each experiment and when it ends). A lab that
   * died (killed) leaves it behind: files it wrote in its last experiment are unlisted, and count as foreign.
   */
  inProgress?: { pid: number; startedAt: string };
}

/** Data some other writer left in the lake, by where it is (a table, a bucket, a stream's log). */
export interface ForeignData {
  /** `network.vpc_flow_logs`, `s3://bucket`, `Firehose stream (undelivered records)`. */
  where: string;
  files: number;
  bytes: number;
}

export type LakeInspection =
  /** No folder, or an empty one. */
  | { kind: 'absent' }
  /** Holds entries the endpoint never writes: not a lake at all. */
  | { kind: 'not-a-lake'; entries: string[] }
  /** An endpoint's folder with no lab manifest (`pnpm lab local`, `pnpm load` or a query made it). */
  | { kind: 'unmarked'; foreign: ForeignData[]; files: number; bytes: number }
  /**
   * A lake the lab wrote; `foreign` lists what was written since by something else. `interrupted`: a lab run on it
   * died before recording all it wrote, so some of `foreign` may be that run's own last writes.
   */
  | {
      kind: 'lab';
      manifest: LakeManifest;
      foreign: ForeignData[];
      files: number;
      bytes: number;
      interrupted?: boolean;
    };

export class LakeManifestError extends LabError {
  override readonly name = 'LakeManifestError';
}

/** Top-level entries of a data folder the endpoint writes, and the lab's manifest. */
const KNOWN_ENTRIES = new Set<string>([...Object.values(LOCAL_DATA_DIR_ENTRIES), LAKE_MANIFEST]);

/** Where the lake's data lives, relative to the folder. */
const DATA_ROOTS = [
  join(LOCAL_DATA_DIR_ENTRIES.warehouse, 'warehouse'),
  LOCAL_DATA_DIR_ENTRIES.s3,
  LOCAL_DATA_DIR_ENTRIES.firehose,
];

/** Every data file of the lake: relative path (with /) → size. */
export function lakeDataFiles(dir: string): Map<string, number> {
  const files = new Map<string, number>();
  const walk = (d: string) => {
    let entries: string[];
    try {
      entries = readdirSync(d);
    } catch {
      return; // removed while we looked, or not there
    }
    for (const entry of entries) {
      const full = join(d, entry);
      let s;
      try {
        s = statSync(full);
      } catch {
        continue;
      }
      if (s.isDirectory()) walk(full);
      else files.set(relative(dir, full).split(sep).join('/'), s.size);
    }
  };
  for (const root of DATA_ROOTS) walk(join(dir, root));
  // A stream's checkpoint is the log's bookkeeping (counters, what was delivered), not records.
  for (const path of [...files.keys()])
    if (path.startsWith(`${LOCAL_DATA_DIR_ENTRIES.firehose}/`) && path.endsWith('/checkpoint.json'))
      files.delete(path);
  return files;
}

const decode = (segment: string) => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
};

/** Where a data file belongs: its table, its bucket, or its stream's log. */
export function dataFileOwner(path: string): string {
  const parts = path.split('/').map(decode);
  if (parts[0] === LOCAL_DATA_DIR_ENTRIES.warehouse && parts.length >= 5) {
    // warehouse/warehouse/<table bucket>/<namespace>/<table>-<uuid>/…
    const table = (parts[4] as string).replace(/-[0-9a-f]{8}$/, '');
    return `${parts[3]}.${table}`;
  }
  if (parts[0] === LOCAL_DATA_DIR_ENTRIES.s3) return `s3://${parts[1]}`;
  if (parts[0] === LOCAL_DATA_DIR_ENTRIES.firehose) return `Firehose ${parts[1]} (records not yet delivered)`;
  return path;
}

/** Files of `now` that `known` does not list with the same size, grouped by owner. */
export function foreignData(
  now: ReadonlyMap<string, number>,
  known: Readonly<Record<string, number>>,
): ForeignData[] {
  const byOwner = new Map<string, ForeignData>();
  for (const [path, size] of now) {
    if (known[path] === size) continue;
    const where = dataFileOwner(path);
    const entry = byOwner.get(where) ?? { where, files: 0, bytes: 0 };
    entry.files++;
    entry.bytes += size;
    byOwner.set(where, entry);
  }
  return [...byOwner.values()].sort((a, b) => a.where.localeCompare(b.where));
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
        "Without it the lab cannot tell its data from anyone else's: `pnpm lab reset` empties the lake (it lists what it removes).",
      { value: path, cause: error },
    );
  }
  const m = parsed as Partial<LakeManifest>;
  if (typeof m?.lakeId !== 'string' || typeof m.files !== 'object' || m.files === null)
    throw new LakeManifestError(
      `${path} is not a lab manifest (no lakeId or files). \`pnpm lab reset\` empties the lake (it lists what it removes).`,
      { value: path },
    );
  return m as LakeManifest;
}

export function inspectLake(dir: string): LakeInspection {
  if (!existsSync(dir)) return { kind: 'absent' };
  const entries = readdirSync(dir);
  if (entries.length === 0) return { kind: 'absent' };
  const strange = entries.filter((e) => !KNOWN_ENTRIES.has(e));
  if (strange.length > 0) return { kind: 'not-a-lake', entries: strange };
  const now = lakeDataFiles(dir);
  let bytes = 0;
  for (const size of now.values()) bytes += size;
  const manifest = readManifest(dir);
  if (!manifest) return { kind: 'unmarked', foreign: foreignData(now, {}), files: now.size, bytes };
  const interrupted = manifest.inProgress !== undefined && !processAlive(manifest.inProgress.pid);
  return {
    kind: 'lab',
    manifest,
    foreign: foreignData(now, manifest.files),
    files: now.size,
    bytes,
    ...(interrupted ? { interrupted } : {}),
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
    updatedAt: new Date().toISOString(),
    files: {},
  };
  writeManifest(dir, manifest);
  return manifest;
}

/**
 * During and after a lab run on the lake: the data files now there are the lab's, except those that were foreign
 * when the run started (they stay foreign, so a later whole lab still refuses to drop them silently). `running`
 * keeps the run's in-progress mark (after an experiment); without it the run is over.
 */
export function recordLabWrites(
  dir: string,
  manifest: LakeManifest,
  foreignAtStart: ReadonlySet<string>,
  running = false,
): void {
  if (!existsSync(dir)) return; // removed during the run: nothing left to describe
  const files: Record<string, number> = {};
  for (const [path, size] of lakeDataFiles(dir)) if (!foreignAtStart.has(path)) files[path] = size;
  const { inProgress, ...rest } = manifest;
  writeManifest(dir, {
    ...rest,
    updatedAt: new Date().toISOString(),
    files,
    ...(running && inProgress ? { inProgress } : {}),
  });
}

/** Data files that are foreign now (by path), to keep them foreign through a run. */
export function foreignPaths(dir: string, manifest: LakeManifest | undefined): Set<string> {
  const known = manifest?.files ?? {};
  const out = new Set<string>();
  for (const [path, size] of lakeDataFiles(dir)) if (known[path] !== size) out.add(path);
  return out;
}

/**
 * Empties a lake folder. Callers have decided it may go (the lab's own data, or the user said so); a folder holding
 * entries the endpoint never writes is refused here whatever they decided.
 */
export function emptyLake(dir: string): void {
  // A folder another process holds (a running `pnpm lab local`: the data-folder lock) is refused before anything
  // is looked at or removed; a lock left by a killed process is stale and does not hold it.
  if (existsSync(dir)) assertDataFolderFree(dir, 'emptying it');
  const lake = inspectLake(dir);
  if (lake.kind === 'absent') {
    rmSync(dir, { recursive: true, force: true });
    return;
  }
  if (lake.kind === 'not-a-lake')
    throw new LakeManifestError(
      `${dir} holds ${lake.entries.slice(0, 3).join(', ')}, which the local endpoint did not write: it is not a lake, ` +
        'so the lab does not empty it. Point --data-dir at a new or lab-only folder.',
      { value: dir },
    );
  rmSync(dir, { recursive: true, force: true });
}
