// Part 2's "still to come", the Iceberg half (1/2): the S3 Tables Iceberg REST endpoint, and a client on a laptop
// (iceberg-js for the catalog, icebird on hyparquet for the data files) answering the one-hour question without Athena.
import { GetTableMetadataLocationCommand } from '@aws-sdk/client-s3tables';
import { S3Client } from '@aws-sdk/client-s3';
import { IcebergError, type IcebergRestCatalog, type TableIdentifier } from 'iceberg-js';
import { flowTableAddress, icebergCatalog } from '../iceberg/catalog';
import { oneHourAnswer, readCurrentRows } from '../iceberg/read-table';
import { formatCount } from '../report/format';
import { cellNumber, type Experiment, type ExperimentContext } from './context';
import { laptopChecks, restEndpointChecks } from './iceberg-checks';

export function flowTableId(ctx: ExperimentContext): TableIdentifier {
  return { namespace: [ctx.target.resources.namespace], name: ctx.target.resources.table };
}

async function metadataLocation(ctx: ExperimentContext): Promise<string | undefined> {
  const r = ctx.target.resources;
  const answer = await ctx.target.s3tables.send(new GetTableMetadataLocationCommand(flowTableAddress(r)));
  return answer.metadataLocation;
}

/** The HTTP status of a refused REST call (0 when it was not refused, or not refused by the catalog). */
export async function refusedStatus(work: Promise<unknown>): Promise<{ status: number; type: string }> {
  try {
    await work;
    return { status: 0, type: '' };
  } catch (error) {
    if (!(error instanceof IcebergError)) throw error;
    return { status: error.status, type: error.icebergType ?? '' };
  }
}

async function listed(catalog: IcebergRestCatalog, namespace: string) {
  const namespaces = (await catalog.listNamespaces()).namespaces.map((n) => n.namespace.join('.'));
  const tables = (await catalog.listTables({ namespace: [namespace] })).identifiers.map((t) => t.name);
  return { namespaces, tables };
}

/** A schema id no table of the lab has (ids count up from 0). */
const INVALID_SCHEMA_ID = 999_999;

export const restEndpoint: Experiment = {
  name: 'rest-endpoint',
  title: 'The S3 Tables Iceberg REST endpoint',
  part: 2,
  async run(ctx) {
    const r = ctx.target.resources;
    const catalog = icebergCatalog(ctx.target);
    const id = flowTableId(ctx);
    const { namespaces, tables } = await listed(catalog, r.namespace);
    const loaded = await catalog.loadTableResult(id);
    const before = await metadataLocation(ctx);
    const metadata = loaded?.metadata;
    const uuid = metadata?.['table-uuid'] ?? '';
    // A metadata-only commit: a property naming when the lab last probed the endpoint.
    const committed = await catalog.commitTable(id, {
      requirements: [{ type: 'assert-table-uuid', uuid }],
      updates: [
        { action: 'set-properties', updates: { 'loglake.lab.rest-probe': new Date().toISOString() } },
      ],
    });
    const afterCommit = await metadataLocation(ctx);
    // A client that read the table before the smoke test commits on what it saw: refused, nothing changes.
    const staleSnapshot = Number(ctx.state.smokeSnapshotId ?? 0) || null;
    const stale = await refusedStatus(
      catalog.commitTable(id, {
        requirements: [{ type: 'assert-ref-snapshot-id', ref: 'main', 'snapshot-id': staleSnapshot }],
        updates: [{ action: 'set-properties', updates: { 'loglake.lab.stale': 'true' } }],
      }),
    );
    // An update that cannot apply: the current schema set to one the table does not have. Harmless on both targets
    // (an upgrade-format-version probe is not: S3 Tables accepts v3, one-way, and Athena does not read v3 tables).
    const invalid = await refusedStatus(
      catalog.commitTable(id, {
        requirements: [],
        updates: [{ action: 'set-current-schema', 'schema-id': INVALID_SCHEMA_ID }],
      }),
    );
    const afterRefusals = await metadataLocation(ctx);
    const final = await catalog.loadTable(id);
    return {
      result:
        `iceberg-js: ${namespaces.length} namespaces; loadTable ${loaded?.['metadata-location'] === before ? '=' : '≠'} GetTableMetadataLocation; ` +
        `commit → ${committed['metadata-location'] === afterCommit && afterCommit !== before ? 'new' : 'SAME'} location; ` +
        `stale requirement ${stale.status || 'accepted'}, unknown schema ${invalid.status || 'accepted'}, nothing changed`,
      measures: {
        namespaces: namespaces.join(', '),
        tables: tables.length,
        staleStatus: stale.status,
        staleType: stale.type,
        invalidUpdateStatus: invalid.status,
        formatVersion: final['format-version'],
      },
      checks: restEndpointChecks({
        namespace: r.namespace,
        table: r.table,
        namespaces,
        tables,
        loadedLocation: loaded?.['metadata-location'],
        locationBefore: before,
        committedLocation: committed['metadata-location'],
        locationAfterCommit: afterCommit,
        locationAfterRefusals: afterRefusals,
        staleStatus: stale.status,
        invalidUpdateStatus: invalid.status,
        formatVersion: final['format-version'],
      }),
    };
  },
};

/** Athena's `hour_start` (e.g. `2026-11-29 14:00:00.000000`) as an instant. */
export function hourStartInstant(hourStart: string): Date {
  return new Date(`${hourStart.slice(0, 19).replace(' ', 'T')}Z`);
}

export const laptopClient: Experiment = {
  name: 'laptop-client',
  title: 'A client on a laptop',
  part: 2,
  async run(ctx) {
    const r = ctx.target.resources;
    const catalog = icebergCatalog(ctx.target);
    const { namespaces, tables } = await listed(catalog, r.namespace);
    const metadata = await catalog.loadTable(flowTableId(ctx));
    const s3 = ctx.target.localUrl ? undefined : new S3Client({ region: r.region });
    const started = performance.now();
    let rows;
    try {
      rows = await readCurrentRows(metadata, s3);
    } finally {
      s3?.destroy();
    }
    const readMs = Math.round(performance.now() - started);
    const hourStart = (await ctx.rows('network/busiest_hour'))[0]?.hour_start as string;
    const athena = await ctx.result('network/one_hour', { hour_start: hourStart });
    const athenaRows = await ctx.scalar('network/count_rows');
    const mine = oneHourAnswer(rows, hourStartInstant(hourStart)).map((a) => [
      a.action,
      String(a.flows),
      String(a.totalBytes),
    ]);
    const checks = laptopChecks({
      rowsRead: rows.length,
      athenaRows,
      fromFiles: mine,
      fromAthena: athena.rows,
    });
    const same = checks.sameAnswerAsAthena;
    const flows = mine.reduce((n, row) => n + cellNumber(row[1]), 0);
    return {
      result:
        `icebird read ${formatCount(rows.length)} rows from the files (${readMs} ms, no Athena); one-hour question ` +
        `(${hourStart.slice(0, 16)}): ${formatCount(flows)} flows, ${same ? 'same answer as Athena' : 'a DIFFERENT answer from Athena'}`,
      measures: {
        namespaces: namespaces.join(', '),
        tables: tables.join(', '),
        rowsRead: rows.length,
        athenaRows,
        readMs,
        hourStart,
        flows,
      },
      checks,
    };
  },
};
