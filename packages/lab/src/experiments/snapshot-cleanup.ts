// Part 2's "still to come" (3/3): the undo window (how far back FOR TIMESTAMP AS OF reaches under the unit's
// snapshot retention) and the tag that breaks automatic snapshot cleanup. S3 Tables' rule (user guide,
// "Considerations and limitations for maintenance jobs"): snapshot management "is disabled when you configure a
// branch or tag-based retention policy ... In these cases S3 will not expire or remove snapshots".
// Locally maintenance runs on request and its clock is advanced past the window; on AWS it runs on S3 Tables'
// schedule, so these experiments report the window, the oldest snapshot and the tag, and change nothing lasting.
import { SCANNER_IP } from '@loglake/flowgen';
import { AthenaQueryFailedError } from '@loglake/athena-sql';
import { icebergCatalog } from '../iceberg/catalog';
import { formatBytes, formatCount } from '../report/format';
import { cellNumber, type Experiment, type ExperimentContext, type ExperimentOutcome } from './context';
import { tagCleanupChecks, undoWindowChecks } from './iceberg-checks';
import { flowTableId } from './iceberg-rest';
import {
  advanceMaintenanceClock,
  runMaintenanceNow,
  snapshotManagementRun,
  snapshotWindow,
} from './maintenance-now';

/** The tag's own retention: longer than the unit's window, as an audit tag would be. */
export const TAG_MAX_REF_AGE_MS = 30 * 24 * 3_600_000;
export const TAG_NAME = 'audit';

async function undoQuery(ctx: ExperimentContext, before: string): Promise<{ rows: number; refusal: string }> {
  try {
    return {
      rows: await ctx.scalar('network/undo_by_timestamp', { before, scanner_ip: SCANNER_IP }),
      refusal: '',
    };
  } catch (error) {
    if (!(error instanceof AthenaQueryFailedError)) throw error;
    return { rows: -1, refusal: error.reason };
  }
}

const hoursSince = (committedAt: string | undefined) =>
  committedAt
    ? (Date.now() - Date.parse(`${committedAt.replace(' ', 'T').replace(/ UTC$/, '')}Z`)) / 3_600_000
    : NaN;

export const undoWindow: Experiment = {
  name: 'undo-window',
  expiresSnapshots: true,
  title: 'The undo window',
  part: 2,
  async run(ctx): Promise<ExperimentOutcome> {
    const before = ctx.require('beforeDelete', 'delete');
    const deleted = ctx.require('deletedRows', 'delete');
    const window = await snapshotWindow(ctx);
    const snapshots = await ctx.snapshots();
    const oldestAgeHours = hoursSince(snapshots[0]?.committed_at);
    const inside = await undoQuery(ctx, before);
    const windowText = `window ${window.maxSnapshotAgeHours} h / ${window.minSnapshotsToKeep} snapshot`;
    // Past the window: the maintenance clock moves one hour beyond the maximum age, then snapshot management runs.
    const clock = await advanceMaintenanceClock(ctx, window.maxSnapshotAgeHours + 1);
    const runs = clock ? await runMaintenanceNow(ctx) : null;
    if (!runs) {
      return {
        result:
          `${windowText}; the oldest snapshot is ${oldestAgeHours.toFixed(1)} h old (${formatCount(snapshots.length)} present); ` +
          `inside the window FOR TIMESTAMP AS OF ${before} UTC returns ${formatCount(inside.rows)} scanner rows`,
        measures: { ...window, oldestAgeHours, snapshots: snapshots.length, insideRows: inside.rows },
        checks: undoWindowChecks({ deletedRows: deleted, insideRows: inside.rows, expired: null }),
      };
    }
    const expiry = snapshotManagementRun(runs)?.expiry;
    const after = await undoQuery(ctx, before);
    const remaining = await ctx.snapshots();
    // What the table holds after: the kept snapshots' data and delete files; before: that and what expiry deleted.
    const keptBytes = cellNumber(remaining[remaining.length - 1]?.total_files_size);
    return {
      result:
        `${windowText}: ${formatCount(inside.rows)} rows back inside it; ${window.maxSnapshotAgeHours + 1} h on, ` +
        `${expiry?.expiredSnapshotIds.length ?? 0} snapshots expired (${formatBytes(expiry?.deletedBytes ?? 0)}) and the query ` +
        (after.refusal
          ? `fails (${after.refusal.split(':')[0]})`
          : `still returns ${formatCount(after.rows)} rows`),
      measures: {
        ...window,
        oldestAgeHours,
        snapshotsBefore: snapshots.length,
        snapshotsAfter: remaining.length,
        insideRows: inside.rows,
        expired: expiry?.expiredSnapshotIds.length ?? 0,
        freedBytes: expiry?.deletedBytes ?? 0,
        storedBytesBefore: keptBytes + (expiry?.deletedBytes ?? 0),
        storedBytesAfter: keptBytes,
        refusal: after.refusal,
      },
      checks: undoWindowChecks({
        deletedRows: deleted,
        insideRows: inside.rows,
        expired: {
          snapshots: expiry?.expiredSnapshotIds.length ?? 0,
          remaining: remaining.length,
          minSnapshotsToKeep: window.minSnapshotsToKeep,
          refusal: after.refusal,
        },
      }),
    };
  },
};

async function setTag(ctx: ExperimentContext, snapshotId: number) {
  return icebergCatalog(ctx.target).commitTable(flowTableId(ctx), {
    requirements: [{ type: 'assert-ref-snapshot-id', ref: 'main', 'snapshot-id': snapshotId }],
    updates: [
      {
        action: 'set-snapshot-ref',
        'ref-name': TAG_NAME,
        type: 'tag',
        'snapshot-id': snapshotId,
        'max-ref-age-ms': TAG_MAX_REF_AGE_MS,
      },
    ],
  });
}

async function removeTag(ctx: ExperimentContext) {
  return icebergCatalog(ctx.target).commitTable(flowTableId(ctx), {
    requirements: [],
    updates: [{ action: 'remove-snapshot-ref', 'ref-name': TAG_NAME }],
  });
}

export const tagCleanup: Experiment = {
  name: 'tag-cleanup',
  expiresSnapshots: true,
  title: 'The tag that breaks snapshot cleanup',
  part: 2,
  async run(ctx): Promise<ExperimentOutcome> {
    const catalog = icebergCatalog(ctx.target);
    const window = await snapshotWindow(ctx);
    const head = (await catalog.loadTable(flowTableId(ctx)))['current-snapshot-id'] as number;
    const tagged = await setTag(ctx, head);
    const tagSet = tagged.metadata.refs?.[TAG_NAME]?.['snapshot-id'] === head;
    if (!ctx.target.localUrl) {
      // On AWS the tag would disable the table's snapshot management until removed: show it, then remove it.
      const untagged = await removeTag(ctx);
      return {
        result:
          `tag ${TAG_NAME} (max-ref-age ${TAG_MAX_REF_AGE_MS / 86_400_000} days) set on snapshot ${head} through REST, then removed; ` +
          `while it stood, S3 Tables' snapshot management (${window.status}, ${window.maxSnapshotAgeHours} h / ${window.minSnapshotsToKeep}) is disabled by AWS's rule, and runs on its own schedule`,
        measures: { ...window, taggedSnapshot: head },
        checks: tagCleanupChecks({ tagSet, tagRemoved: untagged.metadata.refs?.[TAG_NAME] === undefined }),
      };
    }
    // History the tag will hold: one more burst, compacted with the tagged snapshot's file into a new one.
    await ctx.send(
      'burst for the tag',
      ctx.generator().burst({ at: new Date(), count: ctx.scale.burstSize, seconds: 30 }),
    );
    await advanceMaintenanceClock(ctx, window.maxSnapshotAgeHours + 1);
    const first = snapshotManagementRun(await runMaintenanceNow(ctx));
    const whileTagged = await catalog.loadTable(flowTableId(ctx));
    const hold = first?.snapshotManagementDisabled;
    await removeTag(ctx);
    const second = snapshotManagementRun(await runMaintenanceNow(ctx));
    const freed = second?.expiry;
    const heldSnapshots = hold?.heldSnapshots ?? 0;
    return {
      result:
        `tag ${TAG_NAME} (${TAG_MAX_REF_AGE_MS / 86_400_000}-day max-ref-age): ${hold ? 'nothing expired' : 'NOT disabled'}, ` +
        `${heldSnapshots} snapshots / ${formatBytes(hold?.heldBytes ?? 0)} held past the window; tag removed: ` +
        `${freed?.expiredSnapshotIds.length ?? 0} expired, ${formatBytes(freed?.deletedBytes ?? 0)} freed`,
      measures: {
        ...window,
        taggedSnapshot: head,
        snapshotsWhileTagged: whileTagged.snapshots?.length ?? 0,
        heldSnapshots,
        heldBytes: hold?.heldBytes ?? 0,
        expiredAfterRemoval: freed?.expiredSnapshotIds.length ?? 0,
        freedBytes: freed?.deletedBytes ?? 0,
        jobStatusWhileTagged: first?.status ?? 'not run',
      },
      checks: tagCleanupChecks({
        tagSet,
        runs: {
          disabled: hold !== undefined,
          expiredWhileTagged: first?.expiry?.expiredSnapshotIds.length ?? 0,
          heldSnapshots,
          heldBytes: hold?.heldBytes ?? 0,
          expiredAfterRemoval: freed?.expiredSnapshotIds.length ?? 0,
          freedBytes: freed?.deletedBytes ?? 0,
        },
      }),
    };
  },
};
