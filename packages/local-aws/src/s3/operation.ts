// What S3's operation handlers share: the reading of a request (operationOf reads it once, for the authorizer and
// the handler alike), the call a handler gets once the model's checks passed, and the endpoint's S3 parts they
// work on. Its own module so the bucket, object and multipart handlers (bucket-operations.ts, object-operations.ts,
// multipart-operations.ts) and service.ts, which routes to them by operation name, agree on one shape.
import type { AwsServiceError } from '../errors';
import type { CompactModel } from '../model/types';
import type { LocalReply, LocalRequest, OperationReading } from '../protocol';
import type { BucketConfigurations } from './bucket-configurations';
import type { Buckets } from './buckets';
import type { LocalObjectStore } from './objects';

/** What S3 reads a request as: the operation, its bucket and key, its input and its body (aws-chunked decoded). */
export interface S3Reading extends OperationReading {
  /** CopyObject's also its source (`x-amz-copy-source`, read once): `sourceBucket`, `sourceKey`. */
  readonly params: {
    readonly bucket: string;
    readonly key: string;
    readonly sourceBucket?: string;
    readonly sourceKey?: string;
  };
  readonly input: Record<string, unknown>;
  readonly body: Buffer;
  /** Why the request cannot be served though its input fits the model (CopyObject's unreadable copy source). */
  readonly refused?: AwsServiceError;
}

/** A served request as its handler gets it: read once, its input checked against the model. */
export interface S3Call {
  readonly bucket: string;
  readonly key: string;
  readonly input: Record<string, unknown>;
  readonly body: Buffer;
  readonly request: LocalRequest;
  readonly reading: S3Reading;
}

/** The local S3's parts, made once per endpoint (createS3Service). */
export interface S3Context {
  readonly model: CompactModel;
  readonly objects: LocalObjectStore;
  readonly buckets: Buckets;
  readonly configurations: BucketConfigurations;
  /** The endpoint's region: buckets created without a LocationConstraint are in it. */
  readonly region: string;
  readonly accountId: string;
}

/** Handlers by operation name. */
export type S3Handlers = Readonly<Record<string, (call: S3Call) => LocalReply>>;
