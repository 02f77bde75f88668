// The conformance check of one table state: every snapshot still in the metadata is read by icebird and by
// the engine's own scan and the rows must match as multisets; then the invariants icebird does not check.
import type { DuckDBConnection } from '@duckdb/node-api';
import type { LocalWarehouse } from '../../src/catalog/warehouse';
import type { Schema, TableHandle } from '../../src/contract';
import { currentSchema } from '../../src/metadata/table-metadata';
import { readLatestWithIcebird, readWithIcebird } from './icebird-reader';
import { checkTableInvariants } from './invariants';
import { compareRows, normaliseRows } from './row-compare';

export interface SnapshotCheck {
  snapshotId: number;
  engineRows: number;
  icebirdRows: number;
  equal: boolean;
  detail?: string;
}

export interface TableStateReport {
  snapshots: SnapshotCheck[];
  violations: string[];
}

async function engineRows(
  warehouse: LocalWarehouse,
  table: TableHandle,
  snapshotId: number,
): Promise<{ rows: Record<string, unknown>[]; schema: Schema }> {
  const plan = await table.scan({ snapshotId });
  return { rows: await warehouse.duckdb.all(`SELECT * FROM ${plan.relationSql} AS t`), schema: plan.schema };
}

export async function checkTableState(
  warehouse: LocalWarehouse,
  table: TableHandle,
  ctx: { connection: DuckDBConnection; checkedFiles?: Set<string> },
): Promise<TableStateReport> {
  const metadata = await table.metadata();
  // Rows are compared under the current schema: icebird reads every snapshot with it too.
  const schema = currentSchema(metadata);
  const snapshots: SnapshotCheck[] = [];
  for (const snapshot of metadata.snapshots) {
    const id = snapshot['snapshot-id'];
    const read = await engineRows(warehouse, table, id);
    const engine = normaliseRows(schema, read.rows, read.schema);
    let icebird: Record<string, unknown>[];
    try {
      icebird = await readWithIcebird(metadata, id);
    } catch (error) {
      // icebird refuses a snapshot without data manifests (an emptied table): only an empty engine read agrees.
      const message = (error as Error).message;
      const empty = /No data manifest files/.test(message);
      snapshots.push({
        snapshotId: id,
        engineRows: engine.length,
        icebirdRows: 0,
        equal: empty && engine.length === 0,
        detail: `icebird: ${message}`,
      });
      continue;
    }
    const diff = compareRows(engine, normaliseRows(schema, icebird));
    snapshots.push({
      snapshotId: id,
      engineRows: diff.leftCount,
      icebirdRows: diff.rightCount,
      equal: diff.equal,
      ...(diff.equal
        ? {}
        : {
            detail: `only engine: ${JSON.stringify(diff.onlyLeft)}; only icebird: ${JSON.stringify(diff.onlyRight)}`,
          }),
    });
  }
  const violations = await checkTableInvariants(ctx, metadata);
  // The way an outside reader finds the table: version-hint.text → latest metadata → current snapshot.
  if (metadata['current-snapshot-id'] !== null && metadata['current-snapshot-id'] !== undefined) {
    const latest = await readLatestWithIcebird(metadata.location).catch((e: Error) => e);
    const current = snapshots.find((s) => s.snapshotId === metadata['current-snapshot-id']);
    if (latest instanceof Error) {
      if (!/No data manifest files/.test(latest.message) || current?.engineRows !== 0)
        violations.push(`icebird cannot open the table from version-hint.text: ${latest.message}`);
    } else if (current && latest.length !== current.engineRows) {
      violations.push(
        `icebird via version-hint read ${latest.length} rows, engine's current snapshot has ${current.engineRows}`,
      );
    }
  }
  return { snapshots, violations };
}
