// Every operation of the S3 Tables model, typed with the AWS SDK's input and output types as they travel in
// JSON (`Wire<…>`). The service module must give a handler for each (TypeScript checks it): the endpoint serves
// all of S3 Tables' operations, some refusing as AWS documents (record expiration on tables you create).
import type {
  CreateNamespaceRequest,
  CreateNamespaceResponse,
  CreateTableBucketRequest,
  CreateTableBucketResponse,
  CreateTableRequest,
  CreateTableResponse,
  DeleteNamespaceRequest,
  DeleteTableBucketEncryptionRequest,
  DeleteTableBucketMetricsConfigurationRequest,
  DeleteTableBucketPolicyRequest,
  DeleteTableBucketReplicationRequest,
  DeleteTableBucketRequest,
  DeleteTablePolicyRequest,
  DeleteTableReplicationRequest,
  DeleteTableRequest,
  GetNamespaceRequest,
  GetNamespaceResponse,
  GetTableBucketEncryptionRequest,
  GetTableBucketEncryptionResponse,
  GetTableBucketMaintenanceConfigurationRequest,
  GetTableBucketMaintenanceConfigurationResponse,
  GetTableBucketMetricsConfigurationRequest,
  GetTableBucketMetricsConfigurationResponse,
  GetTableBucketPolicyRequest,
  GetTableBucketPolicyResponse,
  GetTableBucketReplicationRequest,
  GetTableBucketReplicationResponse,
  GetTableBucketRequest,
  GetTableBucketResponse,
  GetTableBucketStorageClassRequest,
  GetTableBucketStorageClassResponse,
  GetTableEncryptionRequest,
  GetTableEncryptionResponse,
  GetTableMaintenanceConfigurationRequest,
  GetTableMaintenanceConfigurationResponse,
  GetTableMaintenanceJobStatusRequest,
  GetTableMaintenanceJobStatusResponse,
  GetTableMetadataLocationRequest,
  GetTableMetadataLocationResponse,
  GetTablePolicyRequest,
  GetTablePolicyResponse,
  GetTableRecordExpirationConfigurationRequest,
  GetTableRecordExpirationConfigurationResponse,
  GetTableRecordExpirationJobStatusRequest,
  GetTableRecordExpirationJobStatusResponse,
  GetTableReplicationRequest,
  GetTableReplicationResponse,
  GetTableReplicationStatusRequest,
  GetTableReplicationStatusResponse,
  GetTableRequest,
  GetTableResponse,
  GetTableStorageClassRequest,
  GetTableStorageClassResponse,
  ListNamespacesRequest,
  ListNamespacesResponse,
  ListTableBucketsRequest,
  ListTableBucketsResponse,
  ListTablesRequest,
  ListTablesResponse,
  ListTagsForResourceRequest,
  ListTagsForResourceResponse,
  PutTableBucketEncryptionRequest,
  PutTableBucketMaintenanceConfigurationRequest,
  PutTableBucketMetricsConfigurationRequest,
  PutTableBucketPolicyRequest,
  PutTableBucketReplicationRequest,
  PutTableBucketReplicationResponse,
  PutTableBucketStorageClassRequest,
  PutTableMaintenanceConfigurationRequest,
  PutTablePolicyRequest,
  PutTableRecordExpirationConfigurationRequest,
  PutTableReplicationRequest,
  PutTableReplicationResponse,
  RenameTableRequest,
  TagResourceRequest,
  TagResourceResponse,
  UntagResourceRequest,
  UntagResourceResponse,
  UpdateTableMetadataLocationRequest,
  UpdateTableMetadataLocationResponse,
} from '@aws-sdk/client-s3tables';
import type { WireOperation } from '../protocol';

/** One S3 Tables operation: the input checked against the model, the output the response body (void = empty). */
export type S3TablesOp<I, O> = WireOperation<I, O>;

export interface S3TablesOperations {
  CreateNamespace: S3TablesOp<CreateNamespaceRequest, CreateNamespaceResponse>;
  CreateTable: S3TablesOp<CreateTableRequest, CreateTableResponse>;
  CreateTableBucket: S3TablesOp<CreateTableBucketRequest, CreateTableBucketResponse>;
  DeleteNamespace: S3TablesOp<DeleteNamespaceRequest, void>;
  DeleteTable: S3TablesOp<DeleteTableRequest, void>;
  DeleteTableBucket: S3TablesOp<DeleteTableBucketRequest, void>;
  DeleteTableBucketEncryption: S3TablesOp<DeleteTableBucketEncryptionRequest, void>;
  DeleteTableBucketMetricsConfiguration: S3TablesOp<DeleteTableBucketMetricsConfigurationRequest, void>;
  DeleteTableBucketPolicy: S3TablesOp<DeleteTableBucketPolicyRequest, void>;
  DeleteTableBucketReplication: S3TablesOp<DeleteTableBucketReplicationRequest, void>;
  DeleteTablePolicy: S3TablesOp<DeleteTablePolicyRequest, void>;
  DeleteTableReplication: S3TablesOp<DeleteTableReplicationRequest, void>;
  GetNamespace: S3TablesOp<GetNamespaceRequest, GetNamespaceResponse>;
  GetTable: S3TablesOp<GetTableRequest, GetTableResponse>;
  GetTableBucket: S3TablesOp<GetTableBucketRequest, GetTableBucketResponse>;
  GetTableBucketEncryption: S3TablesOp<GetTableBucketEncryptionRequest, GetTableBucketEncryptionResponse>;
  GetTableBucketMaintenanceConfiguration: S3TablesOp<
    GetTableBucketMaintenanceConfigurationRequest,
    GetTableBucketMaintenanceConfigurationResponse
  >;
  GetTableBucketMetricsConfiguration: S3TablesOp<
    GetTableBucketMetricsConfigurationRequest,
    GetTableBucketMetricsConfigurationResponse
  >;
  GetTableBucketPolicy: S3TablesOp<GetTableBucketPolicyRequest, GetTableBucketPolicyResponse>;
  GetTableBucketReplication: S3TablesOp<GetTableBucketReplicationRequest, GetTableBucketReplicationResponse>;
  GetTableBucketStorageClass: S3TablesOp<
    GetTableBucketStorageClassRequest,
    GetTableBucketStorageClassResponse
  >;
  GetTableEncryption: S3TablesOp<GetTableEncryptionRequest, GetTableEncryptionResponse>;
  GetTableMaintenanceConfiguration: S3TablesOp<
    GetTableMaintenanceConfigurationRequest,
    GetTableMaintenanceConfigurationResponse
  >;
  GetTableMaintenanceJobStatus: S3TablesOp<
    GetTableMaintenanceJobStatusRequest,
    GetTableMaintenanceJobStatusResponse
  >;
  GetTableMetadataLocation: S3TablesOp<GetTableMetadataLocationRequest, GetTableMetadataLocationResponse>;
  GetTablePolicy: S3TablesOp<GetTablePolicyRequest, GetTablePolicyResponse>;
  GetTableRecordExpirationConfiguration: S3TablesOp<
    GetTableRecordExpirationConfigurationRequest,
    GetTableRecordExpirationConfigurationResponse
  >;
  GetTableRecordExpirationJobStatus: S3TablesOp<
    GetTableRecordExpirationJobStatusRequest,
    GetTableRecordExpirationJobStatusResponse
  >;
  GetTableReplication: S3TablesOp<GetTableReplicationRequest, GetTableReplicationResponse>;
  GetTableReplicationStatus: S3TablesOp<GetTableReplicationStatusRequest, GetTableReplicationStatusResponse>;
  GetTableStorageClass: S3TablesOp<GetTableStorageClassRequest, GetTableStorageClassResponse>;
  ListNamespaces: S3TablesOp<ListNamespacesRequest, ListNamespacesResponse>;
  ListTableBuckets: S3TablesOp<ListTableBucketsRequest, ListTableBucketsResponse>;
  ListTables: S3TablesOp<ListTablesRequest, ListTablesResponse>;
  ListTagsForResource: S3TablesOp<ListTagsForResourceRequest, ListTagsForResourceResponse>;
  PutTableBucketEncryption: S3TablesOp<PutTableBucketEncryptionRequest, void>;
  PutTableBucketMaintenanceConfiguration: S3TablesOp<PutTableBucketMaintenanceConfigurationRequest, void>;
  PutTableBucketMetricsConfiguration: S3TablesOp<PutTableBucketMetricsConfigurationRequest, void>;
  PutTableBucketPolicy: S3TablesOp<PutTableBucketPolicyRequest, void>;
  PutTableBucketReplication: S3TablesOp<PutTableBucketReplicationRequest, PutTableBucketReplicationResponse>;
  PutTableBucketStorageClass: S3TablesOp<PutTableBucketStorageClassRequest, void>;
  PutTableMaintenanceConfiguration: S3TablesOp<PutTableMaintenanceConfigurationRequest, void>;
  PutTablePolicy: S3TablesOp<PutTablePolicyRequest, void>;
  PutTableRecordExpirationConfiguration: S3TablesOp<PutTableRecordExpirationConfigurationRequest, void>;
  PutTableReplication: S3TablesOp<PutTableReplicationRequest, PutTableReplicationResponse>;
  RenameTable: S3TablesOp<RenameTableRequest, void>;
  TagResource: S3TablesOp<TagResourceRequest, TagResourceResponse>;
  UntagResource: S3TablesOp<UntagResourceRequest, UntagResourceResponse>;
  UpdateTableMetadataLocation: S3TablesOp<
    UpdateTableMetadataLocationRequest,
    UpdateTableMetadataLocationResponse
  >;
}
