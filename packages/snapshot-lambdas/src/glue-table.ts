// The published state of a snapshot lives in its Glue table: the storage location points at the published run
// and the table parameters record that run's watermark. Both change in ONE UpdateTable call, guarded by the
// table's VersionId (compare-and-swap), so a reader resolving the table sees the old run or the new one, never
// a location without its watermark, and two concurrent publishes cannot both win. Terraform creates the table
// and ignores drift on exactly these two fields.
import {
  ConcurrentModificationException,
  ConflictException,
  EntityNotFoundException,
  type GlueClient,
  GetTableCommand,
  UpdateTableCommand,
  DeleteTableCommand,
  type Table,
  type TableInput,
} from '@aws-sdk/client-glue';
import { PublishError } from './errors';

export const PARAM_WATERMARK = 'loglake.snapshot.watermark';
export const PARAM_RUN = 'loglake.snapshot.run';
export const PARAM_PUBLISHED_AT = 'loglake.snapshot.published_at';
export const PARAM_ROWS = 'loglake.snapshot.rows';

export interface PublishedState {
  table: Table;
  versionId: string | undefined;
  location: string | null;
  watermark: string | null;
  run: string | null;
}

function notFound(error: unknown): boolean {
  return error instanceof EntityNotFoundException;
}

export async function readPublishedState(
  glue: GlueClient,
  database: string,
  name: string,
): Promise<PublishedState> {
  let table: Table | undefined;
  try {
    table = (await glue.send(new GetTableCommand({ DatabaseName: database, Name: name }))).Table;
  } catch (error) {
    if (notFound(error)) {
      throw new PublishError(
        `Glue table ${database}.${name} does not exist: the snapshots stack catalogues it; deploy the snapshots unit (or add the snapshot to its definitions) first`,
        { cause: error, value: { database, table: name } },
      );
    }
    throw error;
  }
  if (!table)
    throw new PublishError(`Glue returned no table for ${database}.${name}`, {
      value: { database, table: name },
    });
  const params = table.Parameters ?? {};
  return {
    table,
    versionId: table.VersionId,
    location: table.StorageDescriptor?.Location ?? null,
    watermark: params[PARAM_WATERMARK] ?? null,
    run: params[PARAM_RUN] ?? null,
  };
}

/** TableInput is the writable subset of Table: copy it field by field, since UpdateTable replaces the table. */
function toTableInput(table: Table): TableInput {
  return {
    Name: table.Name,
    Description: table.Description,
    Owner: table.Owner,
    Retention: table.Retention,
    StorageDescriptor: table.StorageDescriptor,
    PartitionKeys: table.PartitionKeys,
    TableType: table.TableType,
    Parameters: table.Parameters,
    ViewOriginalText: table.ViewOriginalText,
    ViewExpandedText: table.ViewExpandedText,
    TargetTable: table.TargetTable,
  };
}

export interface PublishInput {
  database: string;
  current: PublishedState;
  location: string;
  watermark: string;
  run: string;
  rows: number;
  publishedAt: Date;
}

export async function publishRun(glue: GlueClient, input: PublishInput): Promise<void> {
  const base = toTableInput(input.current.table);
  const tableInput: TableInput = {
    ...base,
    StorageDescriptor: { ...base.StorageDescriptor, Location: input.location },
    Parameters: {
      ...base.Parameters,
      [PARAM_WATERMARK]: input.watermark,
      [PARAM_RUN]: input.run,
      [PARAM_PUBLISHED_AT]: input.publishedAt.toISOString(),
      [PARAM_ROWS]: String(input.rows),
    },
  };
  try {
    await glue.send(
      new UpdateTableCommand({
        DatabaseName: input.database,
        TableInput: tableInput,
        VersionId: input.current.versionId,
        SkipArchive: false,
      }),
    );
  } catch (error) {
    if (error instanceof ConcurrentModificationException || error instanceof ConflictException) {
      throw new PublishError(
        `Publishing ${input.database}.${base.Name} lost a race: the table changed since it was read (version ${input.current.versionId}). Nothing was published by this run; re-run it.`,
        { cause: error, value: { versionId: input.current.versionId, location: input.location } },
      );
    }
    throw error;
  }
}

/** Drops the staging entry the CTAS created; the data stays (it is the published run). */
export async function dropStagingTable(glue: GlueClient, database: string, name: string): Promise<void> {
  try {
    await glue.send(new DeleteTableCommand({ DatabaseName: database, Name: name }));
  } catch (error) {
    if (!notFound(error)) throw error;
  }
}
