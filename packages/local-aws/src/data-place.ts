// A data folder is usable only where it was made: the engine refuses a warehouse whose tables live elsewhere
// (Iceberg records absolute locations, so a copied or moved folder would read and write the original's files).
// This names the refusal in the endpoint's terms: the data folder the user gave, and the one it came from.
import { basename, dirname } from 'node:path';
import { WarehouseNotInPlaceError, type OutsideTable } from '@loglake/lakehouse';
import { LOCAL_DATA_DIR_ENTRIES } from './data-dir';
import { LocalEndpointConfigError } from './errors';

/** The data folder was copied or moved from another place: the endpoint does not start on it. */
export class DataFolderNotInPlaceError extends LocalEndpointConfigError {
  override name = 'DataFolderNotInPlaceError';
  constructor(
    message: string,
    /** The data folder the endpoint was given. */
    readonly dataDir: string,
    /** The table found outside it, and where. */
    readonly outside: OutsideTable,
    /** The data folder it was copied or moved from, when the location shows it. */
    readonly original: string | undefined,
    cause: WarehouseNotInPlaceError,
  ) {
    super(message, { value: dataDir, cause });
  }
}

/** Opens the warehouse of `dataDir` with `open`, turning the engine's refusal into the data folder's. */
export async function openInPlace<W>(dataDir: string, open: () => Promise<W>): Promise<W> {
  try {
    return await open();
  } catch (error) {
    if (!(error instanceof WarehouseNotInPlaceError)) throw error;
    const { origin } = error.outside;
    const original =
      origin !== undefined && basename(origin) === LOCAL_DATA_DIR_ENTRIES.warehouse
        ? dirname(origin)
        : undefined;
    throw new DataFolderNotInPlaceError(
      `The data folder ${dataDir} was copied or moved from ${original ?? 'another folder'}: its table ` +
        `${error.outside.table} still lives at ${error.outside.location}. Iceberg records absolute locations, so ` +
        "a copy cannot be used as a lake (it would read and write the original's files). Use the original folder" +
        `${original ? ` (--data-dir ${original})` : ''}, or start on an empty folder.`,
      dataDir,
      error.outside,
      original,
      error,
    );
  }
}
