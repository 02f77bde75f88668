// When the lab may empty, continue or reset a local lake, and what it says first. The whole lab starts from an empty
// lake (as the article starts from a fresh deployment): it says so before emptying one, and refuses when the lake
// holds files the lab did not write unless told --discard-data; `pnpm lab reset` likewise. `pnpm lab run` continues a
// lake only with the state written for that very lake. Whatever empties a lake removes exactly the files it counted.
import { existsSync, rmSync, statSync } from 'node:fs';
import { relative } from 'node:path';
import { assertDataFolderFree } from '@loglake/local-aws';
import { LabError } from '../errors';
import { StateFileError, type LabState } from '../experiments/context';
import { formatBytes, formatCount } from '../report/format';
import { dataFolderProblem, ensureWritableDataFolder } from '../target/data-folder';
import { keptNote, removeLakeFiles } from '../target/lake-removal';
import {
  describeForeign,
  foreignPaths,
  inspectLake,
  markLabRunning,
  recordLabWrites,
  startLakeManifest,
  type FileCount,
  type ForeignData,
  type LakeContents,
  type LakeInspection,
  type LakeManifest,
} from '../target/local-lake';

/** A local lake the lab is about to write: what to record in its manifest when the run ends. */
export interface LakeSession {
  readonly dataDir: string;
  manifest: LakeManifest;
  /** Files that were not the lab's when the run started (they stay so). */
  readonly foreignAtStart: ReadonlySet<string>;
  /** The data among them, grouped by table or bucket. */
  readonly foreign: readonly ForeignData[];
}

export class LakeHasForeignDataError extends LabError {
  override readonly name = 'LakeHasForeignDataError';
}

/** Paths as the user would type them (relative to the working folder when inside it). */
const shown = (path: string) => {
  const rel = relative(process.cwd(), path);
  return rel && !rel.startsWith('..') ? rel : path;
};

const files = (n: number) => `${formatCount(n)} file${n === 1 ? '' : 's'}`;
const count = (c: FileCount, what = '') =>
  `${formatCount(c.files)} ${what}file${c.files === 1 ? '' : 's'}, ${formatBytes(c.bytes)}`;

/** "286 files, 1.02 MiB: 106 data files, 727 KiB, and 180 files of service state, 310 KiB". */
function sizeText(lake: LakeContents): string {
  const all = { files: lake.data.files + lake.state.files, bytes: lake.data.bytes + lake.state.bytes };
  return `${count(all)}: ${count(lake.data, 'data ')}, and ${count(lake.state, 'service-state ')}`;
}

/** The files the lab did not write, data first. */
function notTheLabsText(lake: LakeContents): string {
  const parts = [
    ...(lake.foreign.length > 0 ? [`data: ${describeForeign(lake.foreign)}`] : []),
    ...(lake.foreignState.length > 0 ? [`service state: ${describeForeign(lake.foreignState)}`] : []),
  ];
  return parts.join('; ');
}

/** Who may have written them. */
function whoText(lake: Extract<LakeInspection, { kind: 'unmarked' | 'lab' }>): string {
  if (lake.kind === 'unmarked')
    return ' (no lab ever ran on it: `pnpm lab local`, `pnpm load` or a query wrote it, or a lab from before the lab kept a manifest)';
  if (lake.interrupted)
    return ' (a lab run on it was killed before recording its last writes, so some of this may be its own; anything written since, by a `pnpm load` or a query, is in there too)';
  if (lake.olderManifest && lake.foreign.length === 0)
    return " (the lake's manifest is from an earlier version of the lab, which listed its data files only, so its service state cannot be told from anyone else's)";
  return ' (written since the last lab: a `pnpm load`, a query, `pnpm lab snapshot`, a client of `pnpm lab local` such as `aws s3 cp`, or by hand)';
}

function refuseNotALake(dataDir: string, lake: Extract<LakeInspection, { kind: 'not-a-lake' }>): never {
  throw new LabError(
    `--data-dir ${shown(dataDir)} holds ${lake.entries.slice(0, 3).join(', ')}, which the local endpoint did not write: ` +
      'it is not a lake, so the lab neither empties nor continues it. Point --data-dir at a new or lab-only folder.',
    { value: dataDir },
  );
}

/** A folder another process holds (a running lab or `pnpm lab local`) is refused before it is looked at. */
function refuseHeld(dataDir: string, doing: string): void {
  if (existsSync(dataDir) && statSync(dataDir).isDirectory()) assertDataFolderFree(dataDir, doing);
}

/**
 * The whole lab: empties the lake first — saying so — unless it holds files the lab did not write and discardData
 * is not set (then refuses, naming the flag and the alternatives). Starts the new lake's manifest.
 */
export function startWholeLabLake(
  dataDir: string,
  options: { discardData?: boolean; say: (line: string) => void },
): LakeSession {
  ensureWritableDataFolder(dataDir);
  refuseHeld(dataDir, 'emptying it');
  const lake = inspectLake(dataDir);
  if (lake.kind === 'not-a-lake') refuseNotALake(dataDir, lake);
  if (lake.kind === 'unmarked' || lake.kind === 'lab') {
    const foreign = lake.notTheLabs.size > 0;
    if (foreign && !options.discardData)
      throw new LakeHasForeignDataError(
        `${shown(dataDir)} holds files the lab did not write: ${notTheLabsText(lake)}${whoText(lake)}. ` +
          'The whole lab starts from an empty lake, so they would be lost. Keep them and run the lab on another folder: ' +
          '`pnpm lab --data-dir .lab/lab-2`; or empty this one anyway: `pnpm lab --discard-data` (`pnpm lab reset ' +
          '--discard-data` empties it without running the lab, `--dry-run` lists every file).',
        { value: dataDir },
      );
    const whose = foreign
      ? `; including files the lab did not write, as --discard-data asks: ${notTheLabsText(lake)}`
      : lake.kind === 'lab'
        ? '; all written by the last lab'
        : '';
    options.say(
      `The whole lab starts from an empty lake: emptying ${shown(dataDir)} first (${sizeText(lake)}${whose}).`,
    );
  }
  const removal = removeLakeFiles(dataDir, lake.kind === 'absent' ? new Map() : lake.all);
  if (removal.kept.size > 0)
    throw new LakeHasForeignDataError(
      `${shown(dataDir)} was not emptied:${keptNote(removal)} Something else writes there: stop it, or run the lab on another folder (\`--data-dir\`).`,
      { value: dataDir },
    );
  ensureWritableDataFolder(dataDir);
  return session(dataDir, startLakeManifest(dataDir), new Set(), []);
}

const staleHint =
  'Run the whole lab (`pnpm lab`, about a minute), which starts a new lake and a new state file.';

/**
 * `pnpm lab run`: the lake must be the one the state was written for. A new, empty folder with no state starts a
 * lake; a lake with data the lab did not write and no lab state is refused (its figures would measure that data).
 */
export function continueLake(dataDir: string, state: LabState, statePath: string): LakeSession {
  ensureWritableDataFolder(dataDir);
  // Before the manifest is read or marked: a lab running on the lake has not recorded its last writes yet.
  refuseHeld(dataDir, 'running experiments on it');
  const lake = inspectLake(dataDir);
  const hasState = Object.keys(state).length > 0;
  if (lake.kind === 'not-a-lake') refuseNotALake(dataDir, lake);
  if (lake.kind === 'absent' || (lake.kind === 'unmarked' && lake.foreign.length === 0)) {
    if (hasState)
      throw new StateFileError(
        `${shown(statePath)} belongs to an earlier lake: ${shown(dataDir)} ${lake.kind === 'absent' ? 'is empty' : 'holds no lab data'} now, so the snapshot ids and instants it records point at nothing. ${staleHint} Or \`pnpm lab reset\` removes the state file.`,
        { value: statePath },
      );
    // Service state something else left (a query's history) stays not the lab's.
    const notTheLabs = lake.kind === 'unmarked' ? new Set(lake.notTheLabs.keys()) : new Set<string>();
    return session(dataDir, startLakeManifest(dataDir), notTheLabs, []);
  }
  if (lake.kind === 'unmarked')
    throw new LakeHasForeignDataError(
      `${shown(dataDir)} holds data the lab did not write (${describeForeign(lake.foreign)}) and no lab ran on it, so ` +
        "experiments continuing it would measure that data, not the lab's steps. Run the whole lab on it " +
        '(`pnpm lab --discard-data` empties it first) or on another folder (`pnpm lab --data-dir .lab/lab-2`).',
      { value: dataDir },
    );
  if (state.lakeId !== lake.manifest.lakeId)
    throw new StateFileError(
      state.lakeId === undefined
        ? `${shown(statePath)} ${existsSync(statePath) ? 'was written for no lake (an earlier version of the lab, or edited)' : 'is missing'}, but ${shown(dataDir)} holds lake ${lake.manifest.lakeId}: what its experiments left is unknown. ${staleHint}`
        : `${shown(statePath)} belongs to an earlier lake (${state.lakeId}), not to the one in ${shown(dataDir)} (${lake.manifest.lakeId}): the snapshot ids and instants it records are not in this lake. ${staleHint}`,
      { value: statePath },
    );
  return session(dataDir, lake.manifest, foreignPaths(dataDir, lake.manifest), lake.foreign);
}

function session(
  dataDir: string,
  manifest: LakeManifest,
  foreignAtStart: ReadonlySet<string>,
  foreign: readonly ForeignData[],
): LakeSession {
  return { dataDir, manifest, foreignAtStart, foreign };
}

/** The run starts writing: marked in the manifest until finishLake (a run killed before leaves the mark). */
export function beginLakeRun(lake: LakeSession): void {
  lake.manifest = markLabRunning(lake.dataDir, lake.manifest);
}

/** After each experiment: what the lab wrote so far is recorded (a kill loses at most one experiment's record). */
export function recordLakeProgress(lake: LakeSession): void {
  recordLabWrites(lake.dataDir, lake.manifest, lake.foreignAtStart, true);
}

/** After the run (the endpoint stopped): the lake's data files are the lab's, but for those foreign at the start. */
export function finishLake(session: LakeSession): void {
  recordLabWrites(session.dataDir, session.manifest, session.foreignAtStart);
}

/**
 * `pnpm lab reset`: removes the local lake (the data folder) and the lab's state for it, saying what each holds;
 * refuses a folder that is not a lake, and one holding files the lab did not write unless discardData. With dryRun,
 * says what a real run with the same flags would do — the files it would remove, or its refusal — and removes nothing.
 */
export function resetLake(
  dataDir: string,
  statePaths: readonly string[],
  options: { dryRun?: boolean; discardData?: boolean; say: (line: string) => void },
): void {
  if (existsSync(dataDir) && !statSync(dataDir).isDirectory())
    throw (
      dataFolderProblem(Object.assign(new Error(`${dataDir} is a file`), { code: 'ENOTDIR' }), dataDir) ??
      new LabError(`--data-dir ${dataDir} is not a folder.`, { value: dataDir })
    );
  // A running endpoint's folder is refused, dry run or not (it would be emptied under it).
  refuseHeld(dataDir, 'resetting it');
  const lake = inspectLake(dataDir);
  if (lake.kind === 'not-a-lake') refuseNotALake(dataDir, lake);
  const verb = options.dryRun ? 'Would remove' : 'Removing';
  const states = statePaths.filter((p) => existsSync(p) && statSync(p).isFile());
  if (lake.kind === 'absent' && states.length === 0) {
    options.say(
      `Nothing to reset: ${shown(dataDir)} ${existsSync(dataDir) ? 'holds no file' : 'is not there'} and there is no lab state.`,
    );
    if (!options.dryRun) removeLakeFiles(dataDir, new Map());
    return;
  }
  if (lake.kind !== 'absent') {
    const foreign = lake.notTheLabs.size > 0;
    if (foreign && options.dryRun) {
      options.say(`Files in ${shown(dataDir)} the lab did not write (only --discard-data removes them):`);
      for (const [path, size] of [...lake.notTheLabs].sort(([a], [b]) => a.localeCompare(b)))
        options.say(`  ${path} (${formatBytes(size)})`);
    }
    if (foreign && !options.discardData)
      throw new LakeHasForeignDataError(
        `${shown(dataDir)} holds files the lab did not write: ${notTheLabsText(lake)}${whoText(lake)}. ` +
          `\`pnpm lab reset\` ${options.dryRun ? 'would remove' : 'removed'} nothing. Keep them (the lab runs on another folder: ` +
          '`pnpm lab --data-dir .lab/lab-2`), or remove them with the lake: `pnpm lab reset --discard-data`' +
          `${options.dryRun ? '' : ' (`--dry-run` lists every file)'}.`,
        { value: dataDir },
      );
    options.say(
      `${verb} the local lake ${shown(dataDir)} (${sizeText(lake)}` +
        `${foreign ? `; including files the lab did not write, as --discard-data asks: ${notTheLabsText(lake)}` : lake.kind === 'lab' ? '; all written by the lab' : ''}).`,
    );
  }
  for (const path of states) options.say(`${verb} ${shown(path)} (the lab's state for that lake).`);
  if (options.dryRun) return;
  const removal = removeLakeFiles(dataDir, lake.kind === 'absent' ? new Map() : lake.all);
  for (const path of states) rmSync(path, { force: true });
  options.say(
    `Done: removed ${files(removal.files)} (${formatBytes(removal.bytes)}) from ${shown(dataDir)}` +
      `${states.length > 0 ? ` and ${states.map(shown).join(', ')}` : ''}.${keptNote(removal)}` +
      `${removal.kept.size === 0 ? ' The next `pnpm lab` starts from an empty lake.' : ''}`,
  );
}
