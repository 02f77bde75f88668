// Part 2: reference data kept current with MERGE, the join that rewrote history, labels at load time with
// time travel on the reference table, a snapshot diff as a change feed, and hour partitioning.
import { DECOMMISSIONED_HOSTNAME, MOVED_HOSTNAME, NEW_HOST, inventoryAfterChanges } from '@loglake/flowgen';
import { AthenaQueryFailedError } from '@loglake/athena-sql';
import { formatBytes, formatCount } from '../report/format';
import { cellNumber, type Experiment } from './context';

export const refTables: Experiment = {
  name: 'ref-tables',
  title: 'Create the two ref tables',
  part: 2,
  async run(ctx) {
    await ctx.sql('ref/create_tables');
    await ctx.sql('ref/load_inventory');
    const snapshots = await ctx.snapshots('ref/inventory_snapshots');
    const hosts = (await ctx.rows('ref/inventory')).length;
    ctx.state.inventoryFirstSnapshot = snapshots[0]?.snapshot_id;
    ctx.saveState();
    return {
      result: `ref.host_inventory (${hosts} hosts) and ref.known_bad_ips created with Athena SQL; inventory has ${snapshots.length} snapshot`,
      measures: { hosts, inventorySnapshots: snapshots.length },
      checks: {},
    };
  },
};

export const merge: Experiment = {
  name: 'merge',
  title: 'MERGE the change batch',
  part: 2,
  async run(ctx) {
    await ctx.sql('ref/merge_inventory');
    await ctx.sql('ref/merge_known_bad');
    const snapshots = await ctx.snapshots('ref/inventory_snapshots');
    const inventory = await ctx.rows('ref/inventory');
    const tierOf = (name: string) => inventory.find((h) => h.hostname === name)?.tier ?? 'gone';
    const last = snapshots[snapshots.length - 1];
    return {
      result:
        `history: ${snapshots.map((s) => s.operation).join(' → ')}; the MERGE added ${cellNumber(last?.added_records)} rows and ` +
        `${cellNumber(last?.added_position_deletes)} position deletes (${MOVED_HOSTNAME} → ${tierOf(MOVED_HOSTNAME)}, ` +
        `${DECOMMISSIONED_HOSTNAME} ${tierOf(DECOMMISSIONED_HOSTNAME)}, ${NEW_HOST.hostname} → ${tierOf(NEW_HOST.hostname)})`,
      measures: {
        inventorySnapshots: snapshots.length,
        addedRows: cellNumber(last?.added_records),
        positionDeletes: cellNumber(last?.added_position_deletes),
        movedTier: tierOf(MOVED_HOSTNAME),
        decommissionedTier: tierOf(DECOMMISSIONED_HOSTNAME),
        newHostTier: tierOf(NEW_HOST.hostname),
      },
      checks: {},
    };
  },
};

export const mergeDuplicate: Experiment = {
  name: 'merge-duplicate',
  title: 'MERGE with a duplicate key',
  part: 2,
  async run(ctx) {
    const before = (await ctx.snapshots('ref/inventory_snapshots')).length;
    let reason = '';
    try {
      await ctx.sql('ref/merge_duplicate_key');
    } catch (error) {
      if (!(error instanceof AthenaQueryFailedError)) throw error;
      reason = error.reason;
    }
    const after = (await ctx.snapshots('ref/inventory_snapshots')).length;
    return {
      result: `${reason ? `refused (${reason.length > 90 ? `${reason.slice(0, 89)}…` : reason})` : 'NOT refused'}; inventory still has ${after} snapshots`,
      measures: { snapshotsBefore: before, snapshotsAfter: after, reason },
      checks: {},
    };
  },
};

export const joinRewritesHistory: Experiment = {
  name: 'join-as-of-now',
  title: 'The join that rewrote history',
  part: 2,
  async run(ctx) {
    const rows = await ctx.rows('enriched/join_as_of_now');
    const web04 = rows.find((r) => r.hostname_now === 'unknown');
    const app08 = rows.find((r) => r.hostname_now === MOVED_HOSTNAME);
    const relabelled = cellNumber(web04?.past_flows) + cellNumber(app08?.past_flows);
    return {
      result:
        `${formatCount(relabelled)} past flows got today's labels: ${DECOMMISSIONED_HOSTNAME} → unknown (${formatCount(cellNumber(web04?.past_flows))}), ` +
        `${MOVED_HOSTNAME} → ${app08?.tier_now ?? '?'} (${formatCount(cellNumber(app08?.past_flows))})`,
      measures: {
        web04ToUnknown: cellNumber(web04?.past_flows),
        app08ToBatch: cellNumber(app08?.past_flows),
        app08TierNow: app08?.tier_now ?? '',
      },
      checks: {},
    };
  },
};

export const labelsAtLoadTime: Experiment = {
  name: 'labels-at-load-time',
  title: 'Labels at load time (backfill)',
  part: 2,
  async run(ctx) {
    const inventoryFirst = ctx.require('inventoryFirstSnapshot', 'ref-tables');
    const flows = await ctx.snapshots();
    const flowsSnapshot = flows[flows.length - 1]?.snapshot_id as string;
    await ctx.sql('enriched/create_labelled');
    const backfill = await ctx.sql('enriched/backfill', {
      flows_snapshot: flowsSnapshot,
      inventory_snapshot: inventoryFirst,
    });
    ctx.state.backfillSnapshot = flowsSnapshot;
    ctx.saveState();
    const labels = await ctx.rows('enriched/labels_by_snapshot');
    const label = (host: string) =>
      labels.find((l) => l.hostname === host && l.inventory_snapshot_id === inventoryFirst);
    const rowsWritten = backfill.statements[0]?.result.rowsAffected;
    return {
      result:
        `backfilled ${rowsWritten !== undefined ? formatCount(rowsWritten) : 'all'} flows with inventory snapshot ${inventoryFirst}: ` +
        `${DECOMMISSIONED_HOSTNAME} → ${label(DECOMMISSIONED_HOSTNAME)?.tier ?? '?'}, ${MOVED_HOSTNAME} → ${label(MOVED_HOSTNAME)?.tier ?? '?'}`,
      measures: {
        backfillSnapshot: flowsSnapshot,
        inventorySnapshot: inventoryFirst,
        rows: rowsWritten ?? -1,
        web04Label: label(DECOMMISSIONED_HOSTNAME)?.tier ?? '',
        app08Label: label(MOVED_HOSTNAME)?.tier ?? '',
        unknownLabels: labels.filter((l) => l.hostname === 'unknown').length,
      },
      checks: {},
    };
  },
};

export const changeFeed: Experiment = {
  name: 'change-feed',
  title: 'Change feed (snapshot diff)',
  part: 2,
  async run(ctx) {
    const backfillSnapshot = ctx.require('backfillSnapshot', 'labels-at-load-time');
    const burst = await ctx.send(
      'fresh burst',
      ctx
        .generator()
        .burst({ at: new Date(), count: ctx.scale.burstSize, seconds: 30, hosts: inventoryAfterChanges() }),
    );
    const inventory = await ctx.snapshots('ref/inventory_snapshots');
    const inventoryNow = inventory[inventory.length - 1]?.snapshot_id as string;
    const newRows = await ctx.scalar('enriched/change_feed_count', { backfill_snapshot: backfillSnapshot });
    await ctx.sql('enriched/change_feed', {
      backfill_snapshot: backfillSnapshot,
      inventory_snapshot: inventoryNow,
    });
    const labels = await ctx.rows('enriched/labels_by_snapshot');
    const newHost = labels.find(
      (l) => l.hostname === NEW_HOST.hostname && l.inventory_snapshot_id === inventoryNow,
    );
    ctx.state.changeFeedBurstRows = burst.accepted;
    ctx.saveState();
    return {
      result:
        `current EXCEPT ALL the backfill snapshot = ${formatCount(newRows)} rows, the burst sent ${formatCount(burst.accepted)}; ` +
        `labelled by inventory snapshot ${inventoryNow} (${NEW_HOST.hostname} → ${newHost?.tier ?? '?'})`,
      measures: {
        changeFeedRows: newRows,
        burstRows: burst.accepted,
        inventorySnapshot: inventoryNow,
        newHostTier: newHost?.tier ?? '',
      },
      checks: {},
    };
  },
};

export const oneHour: Experiment = {
  name: 'one-hour',
  title: 'The one-hour question, both tables',
  part: 2,
  async run(ctx) {
    const busiest = (await ctx.rows('network/busiest_hour'))[0];
    const hourStart = busiest?.hour_start as string;
    const flows = await ctx.result('network/one_hour', { hour_start: hourStart });
    const enriched = await ctx.result('enriched/one_hour', { hour_start: hourStart });
    const same = JSON.stringify(flows.rows) === JSON.stringify(enriched.rows);
    const ratio =
      enriched.dataScannedInBytes > 0 ? flows.dataScannedInBytes / enriched.dataScannedInBytes : Infinity;
    return {
      result:
        `${same ? 'same answer' : 'DIFFERENT answers'} for ${hourStart}; ${formatBytes(flows.dataScannedInBytes)} vs ` +
        `${formatBytes(enriched.dataScannedInBytes)} read: ${ratio.toFixed(1)}× less on the partitioned table`,
      measures: {
        hourStart,
        sameAnswer: same && flows.rows.length > 0 ? 'yes' : 'no',
        unpartitionedBytes: flows.dataScannedInBytes,
        partitionedBytes: enriched.dataScannedInBytes,
        ratio,
      },
      checks: {},
    };
  },
};

export const PART2: Experiment[] = [
  refTables,
  merge,
  mergeDuplicate,
  joinRewritesHistory,
  labelsAtLoadTime,
  changeFeed,
  oneHour,
];
