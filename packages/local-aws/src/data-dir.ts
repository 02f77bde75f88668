// The folders the local endpoint keeps in its data directory: the one list, so tools that empty or check that
// directory (the lab's reset) know exactly what the endpoint writes there.
import { join } from 'node:path';

export const LOCAL_DATA_DIR_ENTRIES = {
  /** The engine's Iceberg warehouse (table buckets, namespaces, tables). */
  warehouse: 'warehouse',
  /** Service state: streams, workgroups, queries. */
  state: 'state',
  /** Firehose's record logs, one folder per stream: records accepted and not yet delivered. */
  firehose: 'firehose',
  /** Buckets of the local S3 (error output, query results, snapshots). */
  s3: 's3',
  /** The local S3's multipart uploads in progress: each upload's parts until it is completed or aborted. */
  uploads: 's3-uploads',
  /** Working files, e.g. Firehose's staged NDJSON. */
  tmp: 'tmp',
  /** Who holds the folder (data-lock.ts): one endpoint at a time. */
  lock: 'endpoint.lock',
} as const;

export function localDataPath(
  dataDir: string,
  entry: keyof typeof LOCAL_DATA_DIR_ENTRIES,
  ...rest: string[]
) {
  return join(dataDir, LOCAL_DATA_DIR_ENTRIES[entry], ...rest);
}
