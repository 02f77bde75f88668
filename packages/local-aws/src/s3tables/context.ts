// What the S3 Tables handlers share: the warehouse and stores, ARN parsing, the engine's errors mapped to S3
// Tables' exceptions, list pages, the version-token check, and the errors S3 Tables answers with
// (BadRequestException, NotFoundException, ConflictException, MethodNotAllowedException: the model's error shapes,
// with their HTTP codes).
import type { TableSummary, Warehouse } from '@loglake/lakehouse';
import { bucketFromArn, tableFromArn } from '../arn';
import { s3TablesErrorFor } from '../engine-errors';
import { serviceApi } from '../model/api';
import type { JsonStore } from '../store';
import type { MaintenanceService } from './maintenance';
import type { S3TablesSettings } from './settings';
import { wireError } from '../model/wire-errors';

export const bad = (message: string) => wireError('s3tables', 'BadRequestException', message);
export const notFound = (message: string) => wireError('s3tables', 'NotFoundException', message);
export const conflict = (message: string) => wireError('s3tables', 'ConflictException', message);
export const methodNotAllowed = (message: string) =>
  wireError('s3tables', 'MethodNotAllowedException', message);

/** AWS's message for a stale version token (UpdateTableMetadataLocation, DeleteTable, RenameTable). */
export const VERSION_TOKEN_MISMATCH = 'Provided version token does not match the table version token.';

/** A write's version token against the table's: a stale one is a ConflictException; none skips the check. */
export const checkToken = (summary: TableSummary, token: string | undefined) => {
  if (token !== undefined && token !== summary.versionToken) throw conflict(VERSION_TOKEN_MISMATCH);
};

export const iso = (date: Date) => date.toISOString();

/** One page of a list: `continuationToken` is the offset of the next entry (opaque to callers). */
export function page<T>(items: T[], token: string | undefined, max: number | undefined) {
  const start = Number(token ?? '0') || 0;
  const size = max ?? 1000;
  return {
    slice: items.slice(start, start + size),
    continuationToken: start + size < items.length ? String(start + size) : undefined,
  };
}

// S3 Tables' model has no ValidationException: "BadRequestException — The request is invalid or malformed"
// (API reference, Errors) is what it answers input that breaks the model with, and a body that is not JSON.
export const S3TABLES_API = serviceApi('s3tables', { invalid: bad, malformed: bad });

export interface S3TablesContext {
  warehouse: Warehouse;
  store: JsonStore;
  maintenance: MaintenanceService;
  settings: S3TablesSettings;
  region: string;
  /** A table bucket ARN's bucket name (BadRequestException when it is not an S3 Tables bucket ARN). */
  bucketOf(arn: string | undefined): string;
  /** Runs engine work, answering the engine's errors as S3 Tables' exceptions. */
  call<T>(work: () => Promise<T>): Promise<T>;
  tableExists(bucket: string, namespace: string, name: string): Promise<TableSummary>;
  /** The table's UUID: the last part of its ARN, and the key of its settings (it survives RenameTable). */
  tableIdOf(summary: TableSummary): Promise<string>;
  /** The table an ARN names (NotFoundException when no table has it). */
  tableByArn(arn: string): Promise<TableSummary>;
}

export function s3TablesContext(options: {
  warehouse: Warehouse;
  store: JsonStore;
  maintenance: MaintenanceService;
  settings: S3TablesSettings;
  region: string;
}): S3TablesContext {
  const { warehouse } = options;
  const call = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      throw s3TablesErrorFor(error);
    }
  };
  const tableIdOf = async (summary: TableSummary): Promise<string> => {
    const handle = await warehouse.loadTable(summary.bucket, summary.namespace, summary.name);
    return (await handle.metadata())['table-uuid'];
  };
  return {
    ...options,
    call,
    tableIdOf,
    bucketOf(arn) {
      const bucket = arn ? bucketFromArn(arn) : undefined;
      if (!bucket)
        throw bad(
          `Invalid table bucket ARN ${JSON.stringify(arn)}: expected arn:aws:s3tables:<region>:<account>:bucket/<name>.`,
        );
      return bucket;
    },
    tableExists: (b, n, t) => call(() => warehouse.getTable(b, n, t)),
    async tableByArn(arn) {
      const table = tableFromArn(arn);
      if (!table) throw bad(`Invalid table ARN ${JSON.stringify(arn)}.`);
      const { bucket, tableId: id } = table;
      for (const summary of await call(() => warehouse.listTables(bucket))) {
        if ((await call(() => tableIdOf(summary))) === id) return summary;
      }
      throw notFound(`The specified table could not be found: ${arn}.`);
    },
  };
}
