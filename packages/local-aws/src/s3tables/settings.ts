// The S3 Tables settings the engine does not own, kept in the endpoint's store: encryption, storage class, tags,
// metrics and replication configuration and resource policies of table buckets and tables. A bucket's are keyed by its name and removed
// with it; a table's by its UUID (the last part of its ARN), so they follow it through RenameTable.
import type {
  EncryptionConfiguration,
  StorageClass,
  TableBucketReplicationConfiguration,
  TableReplicationConfiguration,
} from '@aws-sdk/client-s3tables';
import type { Wire } from '../model/api';
import type { JsonStore } from '../store';

export type Encryption = Wire<EncryptionConfiguration>;
export type Tags = Record<string, string>;

/** SSE-S3 is every table bucket's and table's encryption unless another is set (user guide, "Protecting S3 table data with encryption"). */
export const DEFAULT_ENCRYPTION: Encryption = { sseAlgorithm: 'AES256' };
/** STANDARD is a table bucket's storage class unless another is set (user guide, "S3 Tables storage classes"). */
export const DEFAULT_STORAGE_CLASS: StorageClass = 'STANDARD';

export interface Replication<C> {
  configuration: Wire<C>;
  versionToken: string;
}

export interface BucketSettings {
  encryption?: Encryption;
  storageClass?: StorageClass;
  tags?: Tags;
  /** Metrics configuration id (set by PutTableBucketMetricsConfiguration). */
  metricsId?: string;
  replication?: Replication<TableBucketReplicationConfiguration>;
  /** The resource policy document (stored, not enforced). */
  policy?: string;
}

export interface TableSettings {
  /** Fixed when the table is created: the request's, or the bucket's at that time. */
  encryption: Encryption;
  storageClass: StorageClass;
  tags?: Tags;
  replication?: Replication<TableReplicationConfiguration>;
  policy?: string;
}

export class S3TablesSettings {
  constructor(private readonly store: JsonStore) {}

  bucket(bucket: string): BucketSettings {
    return this.store.read<BucketSettings>(bucketKey(bucket)) ?? {};
  }

  updateBucket(bucket: string, change: (settings: BucketSettings) => void): BucketSettings {
    const settings = this.bucket(bucket);
    change(settings);
    this.store.write(bucketKey(bucket), settings);
    return settings;
  }

  /** Removes a deleted bucket's settings (a bucket created again with the name starts from the defaults). */
  forgetBucket(bucket: string): void {
    this.store.delete(bucketKey(bucket));
  }

  /** A table's settings; a table created before they were kept has the defaults. */
  table(tableId: string): TableSettings {
    return (
      this.store.read<TableSettings>(tableKey(tableId)) ?? {
        encryption: DEFAULT_ENCRYPTION,
        storageClass: DEFAULT_STORAGE_CLASS,
      }
    );
  }

  updateTable(tableId: string, change: (settings: TableSettings) => void): TableSettings {
    const settings = this.table(tableId);
    change(settings);
    this.store.write(tableKey(tableId), settings);
    return settings;
  }

  forgetTable(tableId: string): void {
    this.store.delete(tableKey(tableId));
  }
}

const bucketKey = (bucket: string) => ['s3tables', 'bucket-settings', bucket];
const tableKey = (tableId: string) => ['s3tables', 'table-settings', tableId];
