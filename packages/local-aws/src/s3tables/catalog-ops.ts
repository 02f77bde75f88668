// S3 Tables' catalog operations over the embedded warehouse: table buckets, namespaces and tables, and the
// metadata location's compare-and-swap, one module each (bucket-ops.ts, namespace-ops.ts, table-ops.ts,
// metadata-location-ops.ts), gathered here as the catalog's part of the service.
import { bucketOperations } from './bucket-ops';
import type { S3TablesContext } from './context';
import { metadataLocationOperations } from './metadata-location-ops';
import { namespaceOperations } from './namespace-ops';
import type { S3TablesOperations } from './operations';
import { tableOperations } from './table-ops';

type CatalogOperations = Pick<
  S3TablesOperations,
  | 'CreateTableBucket'
  | 'ListTableBuckets'
  | 'GetTableBucket'
  | 'DeleteTableBucket'
  | 'CreateNamespace'
  | 'ListNamespaces'
  | 'GetNamespace'
  | 'DeleteNamespace'
  | 'CreateTable'
  | 'ListTables'
  | 'GetTable'
  | 'DeleteTable'
  | 'RenameTable'
  | 'GetTableMetadataLocation'
  | 'UpdateTableMetadataLocation'
>;

export function catalogOperations(ctx: S3TablesContext): CatalogOperations {
  return {
    ...bucketOperations(ctx),
    ...namespaceOperations(ctx),
    ...tableOperations(ctx),
    ...metadataLocationOperations(ctx),
  };
}
