// Amazon S3 (restXml, path-style requests as the SDK sends them to an IP endpoint) for general purpose buckets:
// buckets (bucket-operations.ts), the bucket configurations (bucket-configurations.ts, configuration-documents.ts),
// objects (object-operations.ts: put, copy, get with ranges, head, delete, list v1/v2/versions) and multipart uploads
// (multipart-operations.ts). The operation is found by S3's model (method, path-style labels, literal query, the
// required members that tell operations on one URI apart); its labels, query, headers and XML payload are read by
// the model's bindings (request-input.ts) and checked against the model before the handler runs. Errors are S3's
// XML <Error> documents. This module reads each request once and routes it to its handler.
import { AwsServiceError } from '../errors';
import { serviceApi } from '../model/api';
import { matchRest, restRoutes } from '../model/rest';
import { SERVED_OPERATIONS_OF_LARGE_MODELS } from '../model/served';
import { readOnce, type LocalReply, type LocalRequest, type ServiceModule } from '../protocol';
import { cborTarget } from '../cbor-protocol';
import { queryForm } from '../query-protocol';
import { firstSegment } from '../routes';
import type { JsonStore } from '../store';
import { decodeAwsChunked, isAwsChunked } from './aws-chunked';
import { bucketConfigurationOf, BucketConfigurations } from './bucket-configurations';
import { bucketHandlers } from './bucket-operations';
import { Buckets } from './buckets';
import { configurationDocument } from './configuration-documents';
import { multipartHandlers } from './multipart-operations';
import { objectHandlers } from './object-operations';
import { LocalObjectStore } from './objects';
import type { S3Call, S3Context, S3Handlers, S3Reading } from './operation';
import { checkS3Input, copySourceOf, inputOf } from './request-input';
import { notSupported, wireError } from '../model/wire-errors';

export interface S3Options {
  dataDir: string;
  /** Where bucket records and configurations are kept. */
  store: JsonStore;
  /** The endpoint's region: buckets created without a LocationConstraint are in it. */
  region: string;
  accountId: string;
  /** First path segments other services own (S3 Tables' `buckets`, `tables`, …): never claimed as bucket names. */
  reservedRoots?: string[];
  objects?: LocalObjectStore;
}

// S3 answers a request argument it cannot accept with InvalidArgument (400) in its XML error document (API
// reference, "Error responses"): both for values that break the model and for text of the wrong type; an XML body
// that is not well-formed or breaks the schema is MalformedXML.
export const S3_API = serviceApi('s3', {
  invalid: (message) => wireError('s3', 'InvalidArgument', message),
  malformed: (message) => wireError('s3', 'InvalidArgument', message),
});

export function createS3Service(options: S3Options): ServiceModule & { objects: LocalObjectStore } {
  const objects = options.objects ?? new LocalObjectStore(options.dataDir);
  const buckets = new Buckets(options.store, objects, options.region);
  const model = S3_API.model;
  const configurations = new BucketConfigurations(buckets, model, options.accountId);
  const context: S3Context = {
    model,
    objects,
    buckets,
    configurations,
    region: options.region,
    accountId: options.accountId,
  };
  const handlers: S3Handlers = {
    ...bucketHandlers(context),
    ...objectHandlers(context),
    ...multipartHandlers(context),
  };
  const reserved = new Set(options.reservedRoots ?? []);

  const served = new Set<string>(SERVED_OPERATIONS_OF_LARGE_MODELS.s3);
  const routes = restRoutes(model, (operation) => served.has(operation));

  /**
   * The served operation a request calls, read once — bucket, key, input, the body decoded from aws-chunked, the copy
   * source — for the authorization step (which authorizes DeleteObjects' keys as this reads them) and the handler
   * alike; undefined for one the local S3 does not serve.
   */
  const readings = new WeakMap<object, { value: S3Reading } | { error: unknown }>();
  const operationOf = (request: LocalRequest): S3Reading | undefined => {
    const found = matchRest(routes, request);
    const operation = found?.route.operation;
    if (!found || !operation || !served.has(operation)) return undefined;
    if (operation === 'UploadPart' && request.headers['x-amz-copy-source']) return undefined;
    return readOnce(readings, request, () => {
      const body = isAwsChunked(request) ? decodeAwsChunked(request.body) : request.body;
      const input = inputOf(model, operation, request, found.labels, body);
      // A copy source S3 cannot read is refused after the model's own checks (handle()), as S3 orders them.
      const source = operation === 'CopyObject' ? copySourceOf(String(input.CopySource)) : undefined;
      const params = {
        bucket: found.labels.Bucket ?? '',
        key: found.labels.Key ?? '',
        ...(source && !(source instanceof AwsServiceError)
          ? { sourceBucket: source.bucket, sourceKey: source.key }
          : {}),
      };
      return {
        operation,
        params,
        input,
        body,
        ...(source instanceof AwsServiceError ? { refused: source } : {}),
      };
    });
  };

  const handle = async (request: LocalRequest): Promise<LocalReply> => {
    const found = matchRest(routes, request);
    if (!found) throw notSupported('S3', `${request.method} ${request.path}`);
    const operation = found.route.operation;
    if (!served.has(operation) || (operation === 'UploadPart' && request.headers['x-amz-copy-source'])) {
      throw notSupported(
        'S3',
        operation === 'UploadPart' ? 'UploadPartCopy' : operation,
        'the local S3 serves buckets, their configurations, objects and multipart uploads',
      );
    }
    const reading = operationOf(request) as S3Reading;
    const { input, body } = reading;
    checkS3Input(model, operation, input);
    if (reading.refused) throw reading.refused;
    const { bucket, key } = reading.params;
    const call: S3Call = { bucket, key, input, body, request, reading };
    const configuration = bucketConfigurationOf(operation);
    if (configuration) {
      if (configuration.kind === 'get') return configurations.get(bucket, operation);
      if (configuration.kind === 'delete') return configurations.delete(bucket, operation);
      return configurations.put(bucket, operation, configurationDocument(context, operation, call), input);
    }
    const handler = Object.hasOwn(handlers, operation) ? handlers[operation] : undefined;
    if (!handler) throw notSupported('S3', operation);
    return handler(call);
  };

  return {
    name: 'S3',
    errorStyle: { protocol: 'restXml', messageKey: 'Message' },
    internalErrorCode: 'InternalError',
    // Registered last: every REST request no other service claimed is a path-style S3 request (not one that
    // speaks an RPC protocol: a target, a CBOR path, an awsQuery form).
    claims: (request) =>
      !request.headers['x-amz-target'] &&
      !cborTarget(request) &&
      !queryForm(request) &&
      !reserved.has(firstSegment(request.path)),
    api: S3_API,
    served: [...served],
    operationOf,
    handle,
    objects,
  };
}
