// Part 1: one table fed by Firehose — load, time travel, the snapshot diary, schema change, delete, undo,
// and what compaction really did.
import { GetTableMaintenanceJobStatusCommand } from '@aws-sdk/client-s3tables';
import { runLocalMaintenance } from '@loglake/local-aws';
import { SCANNER_IP } from '@loglake/flowgen';
import { formatBytes, formatCount } from '../report/format';
import { timestampParam } from '@loglake/athena-sql';
import { waitForCompaction, type CompactionWait } from './compaction-wait';
import { cellNumber, type Experiment, type ExperimentContext, type SnapshotRow } from './context';
import { flowTableAddress } from '../iceberg/catalog';

/**
 * Buffer intervals the main load is sent over. The article: "Firehose committed each minute's worth as one Iceberg
 * snapshot", 3 commits for 50,000 records with 1 MB / 60 s hints; its size hint did not cut commits.
 */
const MAIN_LOAD_INTERVALS = 3;

/** `items` in `parts` consecutive slices of nearly equal length (none empty unless there are fewer items). */
function splitInto<T>(items: readonly T[], parts: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < parts; i++) {
    const slice = items.slice(
      Math.round((i * items.length) / parts),
      Math.round(((i + 1) * items.length) / parts),
    );
    if (slice.length > 0) out.push(slice);
  }
  return out;
}

/** The flow table's live data and delete files (network/files: one row per content type). */
async function liveFiles(ctx: ExperimentContext): Promise<{ data: number; deletes: number }> {
  const rows = await ctx.rows('network/files');
  const files = (content: string) => cellNumber(rows.find((r) => r.content === content)?.files);
  return { data: files('0'), deletes: files('1') + files('2') };
}

const sum = (rows: SnapshotRow[], key: string) => rows.reduce((n, r) => n + cellNumber(r[key]), 0);
const latest = (rows: SnapshotRow[]) => rows[rows.length - 1];

export const load: Experiment = {
  name: 'load',
  title: 'Load 50,000 records',
  titleAt: (scale) => `Load ${formatCount(scale.records)} records`,
  part: 1,
  async run(ctx) {
    const { scale } = ctx;
    const windowEnd = new Date(Math.floor(Date.now() / 1000) * 1000);
    ctx.state.windowEnd = windowEnd.toISOString();
    const gen = ctx.generator();
    const before = await ctx.snapshots();

    const smoke = await ctx.send('smoke test', gen.smoke(windowEnd));
    const afterSmoke = await ctx.snapshots();
    ctx.state.smokeSnapshotId = latest(afterSmoke)?.snapshot_id;

    const from = new Date(windowEnd.getTime() - scale.hours * 3600_000);
    const flows = gen.batch({ count: scale.records, from, to: windowEnd });
    // As the article's generator did: its load spanned three of Firehose's intervals, one commit each. Each part is
    // delivered by the stream's own interval before the next is sent.
    const main = { jsonBytes: 0, accepted: 0 };
    for (const [i, part] of splitInto(flows, MAIN_LOAD_INTERVALS).entries()) {
      const sent = await ctx.send(
        `main load ${i + 1}/${MAIN_LOAD_INTERVALS} (${formatCount(part.length)} of ${formatCount(scale.records)})`,
        part,
      );
      main.jsonBytes += sent.jsonBytes;
      main.accepted += sent.accepted;
    }
    const afterMain = await ctx.snapshots();
    const mainCommits = afterMain.slice(afterSmoke.length);
    const parquetBytes = sum(mainCommits, 'added_files_size');
    ctx.state.mainLoad = {
      jsonBytes: main.jsonBytes,
      commits: mainCommits.length,
      parquetBytes,
      records: main.accepted,
    };
    ctx.saveState();
    const smokeCommits = afterSmoke.length - before.length;
    return {
      result:
        `${formatBytes(main.jsonBytes)} of JSON became ${formatBytes(parquetBytes)} of Parquet across ${mainCommits.length} commit${mainCommits.length === 1 ? '' : 's'}` +
        ` (smoke test: ${smokeCommits} commit)`,
      measures: {
        records: scale.records,
        accepted: main.accepted,
        jsonBytes: main.jsonBytes,
        parquetBytes,
        compressionRatio: parquetBytes > 0 ? main.jsonBytes / parquetBytes : 0,
        mainCommits: mainCommits.length,
        sendParts: MAIN_LOAD_INTERVALS,
        smokeCommits,
        rowsLoaded: smoke.accepted + main.accepted,
      },
      checks: {},
    };
  },
};

export const timeTravel: Experiment = {
  name: 'time-travel',
  title: 'Time travel to the smoke test',
  part: 1,
  async run(ctx) {
    const snapshotId = ctx.require('smokeSnapshotId', 'load');
    const result = await ctx.result('network/time_travel_smoke', { snapshot_id: snapshotId });
    const rows = Number(result.rows[0]?.[0]);
    const bytes = result.dataScannedInBytes;
    return {
      result: `${formatCount(rows)} rows back, ${formatCount(bytes)} bytes scanned${bytes === 0 ? ' (answered from metadata)' : ''}`,
      measures: { rows, bytesScanned: bytes, snapshotId },
      checks: {},
    };
  },
};

export const snapshotDiary: Experiment = {
  name: 'snapshots',
  title: '$snapshots grouped by operation',
  part: 1,
  async run(ctx) {
    const rows = await ctx.rows('network/snapshots_by_operation');
    const parts = rows.map((r) => `${r.operation} ×${r.snapshots}`);
    return {
      result: `${rows.length} row${rows.length === 1 ? ' tells' : 's tell'} the story: ${parts.join(', ')}`,
      measures: {
        rows: rows.length,
        operations: rows.map((r) => r.operation ?? '?').join(', '),
        ...Object.fromEntries(rows.map((r) => [r.operation ?? '?', cellNumber(r.snapshots)])),
      },
      checks: {},
    };
  },
};

export const addColumns: Experiment = {
  name: 'add-columns',
  title: 'Add two columns',
  part: 1,
  async run(ctx) {
    const before = await ctx.snapshots();
    const filesBefore = (await ctx.rows('network/data_files')).map((r) => r.file_path);
    await ctx.sql('network/add_columns');
    const after = await ctx.snapshots();
    const filesAfter = (await ctx.rows('network/data_files')).map((r) => r.file_path);
    const rewritten = filesBefore.filter((f) => !filesAfter.includes(f)).length;
    const nulls = (await ctx.rows('network/new_columns_nulls'))[0] ?? {};
    const newSnapshots = after.length - before.length;
    const total = cellNumber(nulls.row_count);
    const nullRows = cellNumber(nulls.rows_with_null_new_columns);
    return {
      result:
        `${newSnapshots === 0 ? 'No new snapshot' : `${newSnapshots} new snapshot${newSnapshots === 1 ? '' : 's'}`} and ` +
        `${rewritten === 0 ? 'no files' : `${rewritten} files`} rewritten; old rows read NULL (${formatCount(nullRows)} of ${formatCount(total)})`,
      measures: {
        snapshotsBefore: before.length,
        snapshotsAfter: after.length,
        newSnapshots,
        filesRewritten: rewritten,
        nullRows,
        rows: total,
      },
      checks: {},
    };
  },
};

export const deleteScanner: Experiment = {
  name: 'delete',
  title: "Delete the scanner's rows",
  part: 1,
  async run(ctx) {
    const scannerRows = await ctx.scalar('network/scanner_rows', { scanner_ip: SCANNER_IP });
    const filesBefore = (await ctx.rows('network/data_files')).map((r) => r.file_path);
    const before = await ctx.snapshots();
    // An instant strictly between the last commit and the DELETE's, for the undo experiment.
    await new Promise((r) => setTimeout(r, 1100));
    ctx.state.beforeDelete = timestampParam(new Date());
    await new Promise((r) => setTimeout(r, 1100));
    await ctx.sql('network/delete_scanner', { scanner_ip: SCANNER_IP });
    const after = await ctx.snapshots();
    const commits = after.slice(before.length);
    const filesAfter = (await ctx.rows('network/data_files')).map((r) => r.file_path);
    const rewritten = filesBefore.filter((f) => !filesAfter.includes(f)).length;
    const positionDeletes = sum(commits, 'added_position_deletes');
    const deleteFiles = sum(commits, 'added_delete_files');
    ctx.state.deletedRows = scannerRows;
    ctx.saveState();
    return {
      result: `${formatCount(positionDeletes)} position deletes in ${deleteFiles} small file${deleteFiles === 1 ? '' : 's'}; ${rewritten} data files rewritten`,
      measures: {
        records: ctx.scale.records,
        scannerRows,
        positionDeletes,
        deleteFiles,
        dataFilesRewritten: rewritten,
        commits: commits.length,
      },
      checks: {},
    };
  },
};

export const topRejected: Experiment = {
  name: 'top-rejected',
  title: 'Top rejected sources, after the delete',
  part: 1,
  async run(ctx) {
    const afterDelete = await ctx.rows('network/top_rejected_sources');
    await ctx.send(
      'one more burst',
      ctx.generator().burst({ at: new Date(), count: ctx.scale.burstSize, seconds: 30 }),
    );
    const later = await ctx.rows('network/top_rejected_sources');
    const scannerAfterDelete = afterDelete.some((r) => r.srcaddr === SCANNER_IP);
    const top = later[0];
    return {
      result:
        `Right after the DELETE the scanner is ${scannerAfterDelete ? 'still listed' : 'gone'}; one burst later it is ` +
        `${top?.srcaddr === SCANNER_IP ? `the top rejected source again (${top.rejected_flows} flows)` : `not on top (${top?.srcaddr})`}`,
      measures: {
        scannerListedAfterDelete: scannerAfterDelete ? 1 : 0,
        scannerTopAfterBurst: top?.srcaddr === SCANNER_IP ? 1 : 0,
        topAfterBurst: top?.srcaddr ?? '',
        scannerRejects: cellNumber(top?.rejected_flows),
      },
      checks: {},
    };
  },
};

export const undo: Experiment = {
  name: 'undo',
  title: 'Undo by timestamp',
  part: 1,
  async run(ctx) {
    const before = ctx.require('beforeDelete', 'delete');
    const deleted = ctx.require('deletedRows', 'delete');
    const rows = await ctx.scalar('network/undo_by_timestamp', { before, scanner_ip: SCANNER_IP });
    return {
      result: `FOR TIMESTAMP AS OF ${before} UTC still holds ${formatCount(rows)} scanner rows (${formatCount(deleted)} were deleted)`,
      measures: { rowsBeforeDelete: rows, deleted },
      checks: {},
    };
  },
};

/** What the compaction experiment reaches outside the context; tests replace them so nothing really waits. */
export interface CompactionDeps {
  readonly runMaintenance?: typeof runLocalMaintenance;
  readonly now?: () => number;
  readonly sleep?: (ms: number) => Promise<void>;
}

/** The AWS result's first words: what the wait saw, never a status it did not see. */
function awsReported(wait: CompactionWait, timeoutMs: number): string {
  if (wait.outcome === 'ran')
    return `a compaction run after the bursts reported ${wait.status} (waited ${Math.round(wait.waitedMs / 1000)} s)`;
  if (wait.outcome === 'disabled') return 'compaction is Disabled for the table: no run to wait for';
  const last = wait.lastRunAt ? `, last run ${wait.lastRunAt.toISOString()}` : '';
  return `no compaction run after the bursts within ${Math.round(timeoutMs / 60_000)} min (job status ${wait.status}${last}; raise --compaction-wait)`;
}

export function compactionExperiment(deps: CompactionDeps = {}): Experiment {
  return {
    name: 'compaction',
    title: 'Wait for compaction',
    part: 1,
    async run(ctx) {
      const { target } = ctx;
      const { resources: r } = target;
      const replaces = (rows: SnapshotRow[]) => rows.filter((s) => s.operation === 'replace').length;
      // "Then I created lots of small files on purpose": the bursts, after the DELETE as in the article (its three
      // delete files were its three main-load files), each its own commit.
      const beforeBursts = await ctx.snapshots();
      const gen = ctx.generator();
      for (let i = 1; i <= ctx.scale.bursts; i++) {
        await ctx.send(
          `burst ${i}/${ctx.scale.bursts}`,
          gen.burst({ at: new Date(), count: ctx.scale.burstSize, seconds: 30 }),
        );
      }
      const before = await ctx.snapshots();
      const burstCommits = before.length - beforeBursts.length;
      const filesBefore = await liveFiles(ctx);
      const table = flowTableAddress(r);
      let reported: string;
      let jobStatus: string;
      let failure: string | undefined;
      let runs: number;
      const awsMeasures: Record<string, number | string> = {};
      if (target.localUrl) {
        // Locally, "waiting" is asking the endpoint to run the jobs S3 Tables runs on its own schedule; twice, as the
        // article saw two runs.
        const runMaintenance = deps.runMaintenance ?? runLocalMaintenance;
        const statuses: string[] = [];
        const failures: string[] = [];
        for (let i = 0; i < 2; i++) {
          const reports = await runMaintenance(target.localUrl, {
            bucket: r.tableBucketName,
            namespace: r.namespace,
            table: r.table,
          });
          const compactions = reports.filter((x) => x.type === 'icebergCompaction');
          statuses.push(...compactions.map((x) => x.status));
          failures.push(...compactions.flatMap((x) => (x.failureMessage ? [x.failureMessage] : [])));
        }
        const status = await target.s3tables.send(new GetTableMaintenanceJobStatusCommand(table));
        jobStatus = status.status?.icebergCompaction?.status ?? 'unknown';
        failure = failures[0] ?? status.status?.icebergCompaction?.failureMessage;
        runs = statuses.length;
        reported =
          runs > 0 ? `${runs} runs reported ${[...new Set(statuses)].join('/')}` : `job status ${jobStatus}`;
      } else {
        // On AWS compaction runs when S3 Tables schedules it: poll until a run after the last burst reports, within
        // --compaction-wait (a run between the DELETE and the bursts never saw their small files).
        const now = deps.now ?? Date.now;
        const since = new Date(now());
        const wait = await waitForCompaction({
          client: target.s3tables,
          table,
          since,
          timeoutMs: ctx.waits.compactionMs,
          now,
          ...(deps.sleep ? { sleep: deps.sleep } : {}),
          onWait: (line) => ctx.log(`  ${line}`),
        });
        jobStatus = wait.outcome === 'timed-out' ? 'timed out' : wait.status;
        failure = wait.outcome === 'ran' ? wait.failureMessage : undefined;
        runs = wait.outcome === 'ran' ? 1 : 0;
        reported = awsReported(wait, ctx.waits.compactionMs);
        awsMeasures.waitedSeconds = Math.round(wait.waitedMs / 1000);
        if (wait.lastRunAt) awsMeasures.lastRunAt = wait.lastRunAt.toISOString();
      }
      const after = await ctx.snapshots();
      const rewrites = replaces(after) - replaces(before);
      const filesAfter = await liveFiles(ctx);
      return {
        result:
          `${ctx.scale.bursts} bursts → ${burstCommits} small commits; ${reported}; $snapshots shows ` +
          `${rewrites === 0 ? 'no rewrite' : `${rewrites} rewrite${rewrites === 1 ? '' : 's'}`}` +
          (failure ? ` (failure: ${failure})` : ''),
        measures: {
          bursts: ctx.scale.bursts,
          burstCommits,
          jobStatus,
          runs,
          replaceSnapshots: rewrites,
          dataFilesBefore: filesBefore.data,
          deleteFilesBefore: filesBefore.deletes,
          dataFilesAfter: filesAfter.data,
          deleteFilesAfter: filesAfter.deletes,
          ...awsMeasures,
          ...(failure ? { failure } : {}),
        },
        checks: {},
      };
    },
  };
}

export const compaction: Experiment = compactionExperiment();

// The diary is read last: by then it tells the whole of Part 1 (appends, the delete, any rewrite).
export const PART1: Experiment[] = [
  load,
  timeTravel,
  addColumns,
  deleteScanner,
  topRejected,
  undo,
  compaction,
  snapshotDiary,
];
