// The Iceberg REST catalog's commit shapes (apache/iceberg open-api/rest-catalog-open-api.yaml: CommitTableRequest,
// TableRequirement, TableUpdate), as the engine applies them to table metadata. Only the members the engine reads
// are typed; an update or requirement of another kind is refused by name.
import type { Schema, Snapshot, SnapshotRef, TableMetadata } from '../contract';

export type PartitionSpecInput = {
  'spec-id'?: number;
  fields: { 'source-id': number; 'field-id'?: number; name: string; transform: string }[];
};

export type SortOrderInput = {
  'order-id'?: number;
  fields: { 'source-id': number; transform: string; direction: string; 'null-order': string }[];
};

export type TableRequirement =
  | { type: 'assert-create' }
  | { type: 'assert-table-uuid'; uuid: string }
  | { type: 'assert-ref-snapshot-id'; ref: string; 'snapshot-id': number | null }
  | { type: 'assert-last-assigned-field-id'; 'last-assigned-field-id': number }
  | { type: 'assert-current-schema-id'; 'current-schema-id': number }
  | { type: 'assert-last-assigned-partition-id'; 'last-assigned-partition-id': number }
  | { type: 'assert-default-spec-id'; 'default-spec-id': number }
  | { type: 'assert-default-sort-order-id'; 'default-sort-order-id': number };

export type TableUpdate =
  | { action: 'assign-uuid'; uuid: string }
  | { action: 'upgrade-format-version'; 'format-version': number }
  | {
      action: 'add-schema';
      schema: Omit<Schema, 'schema-id'> & { 'schema-id'?: number };
      'last-column-id'?: number;
    }
  | { action: 'set-current-schema'; 'schema-id': number }
  | { action: 'add-spec'; spec: PartitionSpecInput }
  | { action: 'set-default-spec'; 'spec-id': number }
  | { action: 'add-sort-order'; 'sort-order': SortOrderInput }
  | { action: 'set-default-sort-order'; 'sort-order-id': number }
  | { action: 'add-snapshot'; snapshot: Snapshot }
  | ({ action: 'set-snapshot-ref'; 'ref-name': string } & SnapshotRef)
  | { action: 'remove-snapshot-ref'; 'ref-name': string }
  | { action: 'remove-snapshots'; 'snapshot-ids': number[] }
  | { action: 'set-properties'; updates: Record<string, string> }
  | { action: 'remove-properties'; removals: string[] };

export interface TableCommit {
  requirements: readonly TableRequirement[];
  updates: readonly TableUpdate[];
}

export interface CommittedTable {
  metadata: TableMetadata;
  /** The metadata file this commit published (the table's new metadata location). */
  metadataLocation: string;
}
