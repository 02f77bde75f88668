// When the lab may empty, continue or reset a local lake, and what it says first. The whole lab starts from an empty
// lake (as the article starts from a fresh deployment): it says so before emptying one, and refuses when the lake
// holds data the lab did not write unless told --discard-data. `pnpm lab run` continues a lake only with the state
// written for that very lake. `pnpm lab reset` removes the lake and its state, listing both.
import { existsSync, rmSync, statSync } from 'node:fs';
import { relative } from 'node:path';
import { assertDataFolderFree } from '@loglake/local-aws';
import { LabError } from '../errors';
import { StateFileError, type LabState } from '../experiments/context';
import { formatBytes, formatCount } from '../report/format';
import { ensureWritableDataFolder } from '../target/data-folder';
import {
  describeForeign,
  emptyLake,
  foreignPaths,
  inspectLake,
  markLabRunning,
  recordLabWrites,
  startLakeManifest,
  type ForeignData,
  type LakeInspection,
  type LakeManifest,
} from '../target/local-lake';

/** A local lake the lab is about to write: what to record in its manifest when the run ends. */
export interface LakeSession {
  readonly dataDir: string;
  manifest: LakeManifest;
  /** Data files that were not the lab's when the run started (they stay foreign). */
  readonly foreignAtStart: ReadonlySet<string>;
  /** The same, grouped by table or bucket. */
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

const size = (lake: { files: number; bytes: number }) =>
  `${formatCount(lake.files)} data file${lake.files === 1 ? '' : 's'}, ${formatBytes(lake.bytes)}`;

function refuseNotALake(dataDir: string, lake: Extract<LakeInspection, { kind: 'not-a-lake' }>): never {
  throw new LabError(
    `--data-dir ${shown(dataDir)} holds ${lake.entries.slice(0, 3).join(', ')}, which the local endpoint did not write: ` +
      'it is not a lake, so the lab neither empties nor continues it. Point --data-dir at a new or lab-only folder.',
    { value: dataDir },
  );
}

/**
 * The whole lab: empties the lake first — saying so — unless it holds data the lab did not write and discardData is
 * not set (then refuses, naming the flag and the alternatives). Starts the new lake's manifest.
 */
export function startWholeLabLake(
  dataDir: string,
  options: { discardData?: boolean; say: (line: string) => void },
): LakeSession {
  ensureWritableDataFolder(dataDir);
  const lake = inspectLake(dataDir);
  if (lake.kind === 'not-a-lake') refuseNotALake(dataDir, lake);
  if (lake.kind === 'unmarked' || lake.kind === 'lab') {
    const foreign = lake.foreign;
    const who =
      lake.kind === 'unmarked'
        ? ' (no lab ever ran on it: `pnpm lab local`, `pnpm load` or a query wrote it, or a lab from before the lab kept a manifest)'
        : lake.interrupted
          ? ' (a lab run on it was killed before recording its last writes, so some of this may be its own; anything written since, by a `pnpm load` or a query, is in there too)'
          : ' (written since the last lab: a `pnpm load`, a query, a client of `pnpm lab local`)';
    if (foreign.length > 0 && !options.discardData)
      throw new LakeHasForeignDataError(
        `${shown(dataDir)} holds data the lab did not write: ${describeForeign(foreign)}${who}. ` +
          'The whole lab starts from an empty lake, so it would be lost. Keep it and run the lab on another folder: ' +
          '`pnpm lab --data-dir .lab/lab-2`; or empty this one anyway: `pnpm lab --discard-data` (`pnpm lab reset` ' +
          'empties it without running the lab).',
        { value: dataDir },
      );
    const whose =
      foreign.length > 0
        ? `, including data the lab did not write, as --discard-data asks: ${describeForeign(foreign)}`
        : lake.kind === 'lab'
          ? ', all written by the last lab'
          : '';
    options.say(
      `The whole lab starts from an empty lake: emptying ${shown(dataDir)} first (${size(lake)}${whose}).`,
    );
    emptyLake(dataDir);
    ensureWritableDataFolder(dataDir);
  }
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
  const lake = inspectLake(dataDir);
  const hasState = Object.keys(state).length > 0;
  if (lake.kind === 'not-a-lake') refuseNotALake(dataDir, lake);
  if (lake.kind === 'absent' || (lake.kind === 'unmarked' && lake.foreign.length === 0)) {
    if (hasState)
      throw new StateFileError(
        `${shown(statePath)} belongs to an earlier lake: ${shown(dataDir)} ${lake.kind === 'absent' ? 'is empty' : 'holds no lab data'} now, so the snapshot ids and instants it records point at nothing. ${staleHint} Or \`pnpm lab reset\` removes the state file.`,
        { value: statePath },
      );
    return session(dataDir, startLakeManifest(dataDir), new Set(), []);
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
 * refuses a folder that is not a lake. With dryRun, says what it would remove and removes nothing.
 */
export function resetLake(
  dataDir: string,
  statePaths: readonly string[],
  options: { dryRun?: boolean; say: (line: string) => void },
): void {
  // A running endpoint's folder is refused, dry run or not (it would be emptied under it).
  if (existsSync(dataDir)) assertDataFolderFree(dataDir, 'resetting it');
  const lake = inspectLake(dataDir);
  if (lake.kind === 'not-a-lake') refuseNotALake(dataDir, lake);
  const verb = options.dryRun ? 'Would remove' : 'Removing';
  const states = statePaths.filter((p) => existsSync(p) && statSync(p).isFile());
  if (lake.kind === 'absent' && states.length === 0) {
    options.say(
      `Nothing to reset: ${shown(dataDir)} is ${existsSync(dataDir) ? 'empty' : 'not there'} and there is no lab state.`,
    );
    if (!options.dryRun) rmSync(dataDir, { recursive: true, force: true });
    return;
  }
  if (lake.kind !== 'absent')
    options.say(
      `${verb} the local lake ${shown(dataDir)} (${size(lake)}` +
        `${lake.foreign.length > 0 ? `; data the lab did not write: ${describeForeign(lake.foreign)}` : lake.kind === 'lab' ? '; all written by the lab' : ''}).`,
    );
  for (const path of states) options.say(`${verb} ${shown(path)} (the lab's state for that lake).`);
  if (options.dryRun) return;
  emptyLake(dataDir);
  for (const path of states) rmSync(path, { force: true });
  options.say('Done: the next `pnpm lab` starts from an empty lake.');
}
