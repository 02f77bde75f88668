// Amazon S3 (restXml, path-style requests as the SDK sends them to an IP endpoint) for general purpose buckets:
// buckets (with their creation date, region and owner), the bucket configurations (bucket-configurations.ts),
// objects (put, copy, get with ranges, head, delete, list v1/v2/versions) and multipart uploads. The operation is
// found by S3's model (method, path-style labels, literal query, the required members that tell operations on one
// URI apart); its labels, query, headers and XML payload are read by the model's bindings and checked against the
// model before the handler runs. Errors are S3's XML <Error> documents.
import type {
  CompleteMultipartUploadRequest,
  CreateBucketConfiguration,
  Delete,
  ListMultipartUploadsRequest,
  ListObjectsRequest,
  ListObjectsV2Request,
  ListObjectVersionsRequest,
  ListPartsRequest,
  UploadPartRequest,
} from '@aws-sdk/client-s3';
import { AwsServiceError } from '../errors';
import { serviceApi, type Wire } from '../model/api';
import { matchRest, restInput, restRoutes } from '../model/rest';
import { SERVED_OPERATIONS_OF_LARGE_MODELS } from '../model/served';
import type { MemberRef } from '../model/types';
import { memberPath, validateInput, type Violation } from '../model/validate';
import { parseXmlDocument, readXml, XmlDocumentError } from '../model/xml';
import {
  readOnce,
  type LocalReply,
  type LocalRequest,
  type OperationReading,
  type ServiceModule,
} from '../protocol';
import { cborTarget } from '../cbor-protocol';
import { queryForm } from '../query-protocol';
import { badPercentEscape } from '../percent-encoding';
import { firstSegment } from '../routes';
import type { JsonStore } from '../store';
import { xmlEscape } from '../xml';
import { decodeAwsChunked, isAwsChunked } from './aws-chunked';
import { bucketConfigurationOf, BucketConfigurations, elementName } from './bucket-configurations';
import { Buckets, canonicalUserId } from './buckets';
import {
  decodeContinuationToken,
  LocalObjectStore,
  MAX_PART_NUMBER,
  s3Error,
  type ObjectInfo,
  type UploadInfo,
} from './objects';
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

const NS = 'http://s3.amazonaws.com/doc/2006-03-01/';

const xml = (status: number, body: string, headers: Record<string, string> = {}): LocalReply => ({
  status,
  raw: {
    headers: { 'content-type': 'application/xml', ...headers },
    body: `<?xml version="1.0" encoding="UTF-8"?>\n${body}`,
  },
});
const empty = (status: number, headers: Record<string, string> = {}): LocalReply => ({
  status,
  raw: { headers, body: '' },
});
const tag = (name: string, value: string | number | boolean | undefined) =>
  value === undefined ? '' : `<${name}>${xmlEscape(String(value))}</${name}>`;
const iso = (date: Date) => date.toISOString();

// S3 answers a request argument it cannot accept with InvalidArgument (400) in its XML error document (API
// reference, "Error responses"): both for values that break the model and for text of the wrong type; an XML body
// that is not well-formed or breaks the schema is MalformedXML.
export const S3_API = serviceApi('s3', {
  invalid: (message) => wireError('s3', 'InvalidArgument', message),
  malformed: (message) => wireError('s3', 'InvalidArgument', message),
});

const malformedXml = (detail: string) =>
  wireError(
    's3',
    'MalformedXML',
    `The XML you provided was not well-formed or did not validate against our published schema: ${detail}`,
  );

/** What S3 reads a request as: the operation, its bucket and key, its input and its body (aws-chunked decoded). */
interface S3Reading extends OperationReading {
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

export function createS3Service(options: S3Options): ServiceModule & { objects: LocalObjectStore } {
  const objects = options.objects ?? new LocalObjectStore(options.dataDir);
  const buckets = new Buckets(options.store, objects, options.region);
  const model = S3_API.model;
  const configurations = new BucketConfigurations(buckets, model, options.accountId);
  const owner = `<Owner>${tag('ID', canonicalUserId(options.accountId))}</Owner>`;
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
      const input = inputOf(operation, request, found.labels, body);
      // A copy source S3 cannot read is refused after the model's own checks (handle()), as S3 orders them.
      let source: { bucket: string; key: string } | AwsServiceError | undefined;
      if (operation === 'CopyObject')
        try {
          source = copySource(String(input.CopySource));
        } catch (error) {
          if (!(error instanceof AwsServiceError)) throw error;
          source = error;
        }
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
    checkS3Input(operation, input);
    if (reading.refused) throw reading.refused;
    const { bucket, key } = reading.params;
    const configuration = bucketConfigurationOf(operation);
    if (configuration) {
      if (configuration.kind === 'get') return configurations.get(bucket, operation);
      if (configuration.kind === 'delete') return configurations.delete(bucket, operation);
      return configurations.put(bucket, operation, configurationDocument(operation, input, request), input);
    }
    switch (operation) {
      case 'ListBuckets':
        return listBuckets(request);
      case 'CreateBucket': {
        const config = input.CreateBucketConfiguration as Wire<CreateBucketConfiguration> | undefined;
        const region = config?.LocationConstraint ?? options.region;
        buckets.create(bucket, region);
        const ownership = request.headers['x-amz-object-ownership'];
        if (typeof ownership === 'string')
          buckets.setConfiguration(bucket, 'ownershipControls', { Rules: [{ ObjectOwnership: ownership }] });
        if (input.ObjectLockEnabledForBucket === true) {
          // Object Lock needs versioning, and S3 turns it on with the lock (User Guide, "Enable Object Lock").
          buckets.setConfiguration(bucket, 'versioning', { Status: 'Enabled' });
          buckets.setConfiguration(bucket, 'objectLock', { ObjectLockEnabled: 'Enabled' });
        }
        return empty(200, { location: `/${bucket}` });
      }
      case 'HeadBucket': {
        const info = buckets.info(bucket);
        return empty(200, { 'x-amz-bucket-region': info.region, 'x-amz-access-point-alias': 'false' });
      }
      case 'GetBucketPolicyStatus': {
        // "IsPublic": a policy that allows anyone ("Principal": "*") without a condition (User Guide, "The meaning
        // of public").
        const policy = configurations.current(bucket, bucketConfigurationOf('GetBucketPolicy')!.spec);
        return xml(
          200,
          `<PolicyStatus xmlns="${NS}">${tag('IsPublic', isPublicPolicy(String(policy)))}</PolicyStatus>`,
        );
      }
      case 'GetBucketLocation': {
        const { region } = buckets.info(bucket);
        // us-east-1 is the empty LocationConstraint (API reference, GetBucketLocation).
        const constraint = region === 'us-east-1' ? '' : xmlEscape(region);
        return xml(200, `<LocationConstraint xmlns="${NS}">${constraint}</LocationConstraint>`);
      }
      case 'DeleteBucket':
        buckets.delete(bucket);
        return empty(204);
      case 'DeleteObjects':
        return deleteObjects(bucket, input.Delete as Wire<Delete>);
      case 'ListObjectsV2':
        return listObjectsV2(bucket, input as Wire<ListObjectsV2Request>);
      case 'ListObjects':
        return listObjectsV1(bucket, input as Wire<ListObjectsRequest>);
      case 'ListObjectVersions':
        return listObjectVersions(bucket, input as Wire<ListObjectVersionsRequest>);
      case 'PutObject':
        return empty(200, { etag: objects.put(bucket, key, body).etag });
      case 'CopyObject': {
        const { sourceBucket = '', sourceKey = '' } = reading.params;
        const info = objects.copy({ bucket: sourceBucket, key: sourceKey }, { bucket, key });
        return xml(
          200,
          `<CopyObjectResult>${tag('LastModified', iso(info.lastModified))}${tag('ETag', info.etag)}</CopyObjectResult>`,
        );
      }
      case 'GetObject':
        return getObject(bucket, key, request.headers.range);
      case 'HeadObject': {
        const info = objects.head(bucket, key);
        return empty(200, objectHeaders(info));
      }
      case 'DeleteObject':
        objects.delete(bucket, key);
        return empty(204);
      case 'CreateMultipartUpload': {
        const contentType = request.headers['content-type'];
        const upload = objects.createUpload(
          bucket,
          key,
          typeof contentType === 'string' ? contentType : undefined,
        );
        return xml(
          200,
          `<InitiateMultipartUploadResult xmlns="${NS}">${tag('Bucket', bucket)}${tag('Key', key)}${tag('UploadId', upload.uploadId)}</InitiateMultipartUploadResult>`,
        );
      }
      case 'UploadPart': {
        const { PartNumber, UploadId } = input as Wire<UploadPartRequest>;
        if (
          !Number.isInteger(PartNumber) ||
          (PartNumber as number) < 1 ||
          (PartNumber as number) > MAX_PART_NUMBER
        )
          throw s3Error.invalidArgument(
            `Part number must be an integer between 1 and ${MAX_PART_NUMBER}, inclusive (got ${PartNumber}).`,
          );
        const upload = objects.upload(bucket, key, UploadId as string);
        const part = objects.putPart(upload, PartNumber as number, body);
        return empty(200, { etag: part.etag });
      }
      case 'CompleteMultipartUpload': {
        const { UploadId, MultipartUpload } = input as Wire<CompleteMultipartUploadRequest>;
        const upload = objects.upload(bucket, key, UploadId as string);
        const parts = (MultipartUpload?.Parts ?? []).map((p) => ({
          partNumber: p.PartNumber ?? 0,
          etag: p.ETag ?? '',
        }));
        if (parts.length === 0) throw malformedXml('CompleteMultipartUpload names no Part.');
        const info = objects.completeUpload(upload, parts);
        return xml(
          200,
          `<CompleteMultipartUploadResult xmlns="${NS}">${tag('Location', `/${bucket}/${key}`)}${tag('Bucket', bucket)}${tag('Key', key)}${tag('ETag', info.etag)}</CompleteMultipartUploadResult>`,
        );
      }
      case 'AbortMultipartUpload':
        objects.abortUpload(objects.upload(bucket, key, String(input.UploadId)));
        return empty(204);
      case 'ListParts':
        return listParts(
          objects.upload(bucket, key, String(input.UploadId)),
          input as Wire<ListPartsRequest>,
        );
      case 'ListMultipartUploads':
        return listUploads(bucket, input as Wire<ListMultipartUploadsRequest>);
      default:
        throw notSupported('S3', operation);
    }
  };

  /** The member of an operation's input its body is (`httpPayload`): [name, model member]. */
  const payloadMember = (spec: (typeof model.operations)[string] | undefined) => {
    const shape = spec?.input ? model.shapes[spec.input] : undefined;
    return shape && shape.type === 'structure'
      ? Object.entries(shape.members).find(([, member]) => member.httpPayload)
      : undefined;
  };

  /**
   * The operation's input as S3's model binds it: labels, query and headers, and the payload member read from the
   * body (an XML document by the member's shape, a policy as its text). A document that is no XML is MalformedXML;
   * one that breaks the model is too (checkS3Input), as S3 validates documents against its schema.
   */
  const inputOf = (
    operation: string,
    request: LocalRequest,
    labels: Record<string, string>,
    body: Buffer,
  ): Record<string, unknown> => {
    const input = restInput(model, operation, request, labels, () => ({}));
    const spec = model.operations[operation];
    const payload = payloadMember(spec);
    if (payload && body.length > 0) {
      const [name, member] = payload;
      const target = model.shapes[member.target];
      if (target?.type === 'structure') input[name] = readDocument(member, name, body);
      else if (target?.type === 'string') input[name] = body.toString('utf8');
    }
    return input;
  };

  /** The model's violations of a reading's input, as S3 answers them (after the authorization step). */
  const checkS3Input = (operation: string, input: Record<string, unknown>): void => {
    const spec = model.operations[operation];
    const payload = payloadMember(spec);
    const violations = validateInput(model, spec?.input, input);
    if (violations.length > 0) throw refusal(violations, payload ? memberPath('', payload[0]) : undefined);
  };

  const readDocument = (member: MemberRef, name: string, body: Buffer): unknown => {
    let root;
    try {
      root = parseXmlDocument(body.toString('utf8'));
    } catch (error) {
      if (error instanceof XmlDocumentError) throw malformedXml(error.message);
      throw error;
    }
    const expected = elementName(model, member, name);
    if (root.localName !== expected)
      throw malformedXml(`the document's root element is ${root.localName}, not ${expected}.`);
    return readXml(model, member, root);
  };

  /** The document a configuration's Put stores (its payload member; a canned ACL header stands for one). */
  const configurationDocument = (
    operation: string,
    input: Record<string, unknown>,
    request: LocalRequest,
  ) => {
    const spec = model.operations[operation];
    const payload = payloadMember(spec);
    const document = payload ? input[payload[0]] : undefined;
    if (operation === 'PutBucketAcl' && document === undefined)
      return cannedAcl(String(input.ACL ?? 'private'));
    if (document === undefined) throw wireError('s3', 'MissingRequestBodyError', 'Request Body is empty');
    if (operation === 'PutBucketPolicy') checkPolicy(String(document));
    if (operation === 'PutBucketAcl') checkAcl(bucketOfRequest(request), document);
    return document;
  };

  const bucketOfRequest = (request: LocalRequest) => operationOf(request)?.params.bucket ?? '';

  const cannedAcl = (acl: string) => {
    const ownerId = canonicalUserId(options.accountId);
    if (acl !== 'private' && acl !== 'bucket-owner-full-control')
      throw wireError(
        's3',
        'AccessControlListNotSupported',
        `The bucket does not allow ACLs: the local S3 keeps only the owner's FULL_CONTROL (canned ACL ${acl} refused).`,
      );
    return {
      Owner: { ID: ownerId },
      Grants: [{ Grantee: { ID: ownerId, Type: 'CanonicalUser' }, Permission: 'FULL_CONTROL' }],
    };
  };

  /** With BucketOwnerEnforced (every new bucket's setting), S3 accepts only ACLs that grant the owner alone. */
  const checkAcl = (bucket: string, document: unknown) => {
    const ownership = configurations.current(
      bucket,
      bucketConfigurationOf('GetBucketOwnershipControls')!.spec,
    ) as {
      Rules?: { ObjectOwnership?: string }[];
    };
    if (ownership.Rules?.[0]?.ObjectOwnership !== 'BucketOwnerEnforced') return;
    const ownerId = canonicalUserId(options.accountId);
    const grants = ((document as { Grants?: { Grantee?: { ID?: string } }[] }).Grants ?? []).filter(
      (g) => g.Grantee?.ID !== ownerId,
    );
    if (grants.length > 0)
      throw wireError('s3', 'AccessControlListNotSupported', 'The bucket does not allow ACLs');
  };

  const listBuckets = (request: LocalRequest): LocalReply => {
    const prefix = request.query.get('prefix') ?? '';
    const max = Number(request.query.get('max-buckets') ?? '10000');
    const after = decodeContinuationToken(request.query.get('continuation-token'));
    const all = buckets
      .list()
      .filter((b) => b.name.startsWith(prefix) && (after === undefined || b.name > after));
    const page = all.slice(0, max);
    const next = all.length > page.length ? page[page.length - 1]?.name : undefined;
    const entries = page.map(
      (b) =>
        `<Bucket>${tag('Name', b.name)}${tag('CreationDate', iso(b.createdAt))}${tag('BucketRegion', b.region)}</Bucket>`,
    );
    return xml(
      200,
      `<ListAllMyBucketsResult xmlns="${NS}"><Buckets>${entries.join('')}</Buckets>${owner}` +
        `${next ? tag('ContinuationToken', Buffer.from(next).toString('base64')) : ''}${prefix ? tag('Prefix', prefix) : ''}</ListAllMyBucketsResult>`,
    );
  };

  const objectHeaders = (info: ObjectInfo): Record<string, string> => ({
    'content-type': 'application/octet-stream',
    'content-length': String(info.size),
    'accept-ranges': 'bytes',
    etag: info.etag,
    'last-modified': info.lastModified.toUTCString(),
  });

  const getObject = (bucket: string, key: string, range: string | undefined): LocalReply => {
    const { info, body } = objects.get(bucket, key);
    const headers = objectHeaders(info);
    if (range === undefined) return { status: 200, raw: { headers, body } };
    const [start, end] = byteRange(range, info.size);
    return {
      status: 206,
      raw: {
        headers: {
          ...headers,
          'content-length': String(end - start + 1),
          'content-range': `bytes ${start}-${end}/${info.size}`,
        },
        body: body.subarray(start, end + 1),
      },
    };
  };

  const contents = (o: ObjectInfo) =>
    `${tag('Key', o.key)}${tag('LastModified', iso(o.lastModified))}${tag('ETag', o.etag)}${tag('Size', o.size)}${tag('StorageClass', 'STANDARD')}`;

  const listObjectsV2 = (bucket: string, input: Wire<ListObjectsV2Request>): LocalReply => {
    const maxKeys = input.MaxKeys ?? 1000;
    if (maxKeys < 0) throw s3Error.invalidArgument('max-keys must be a non-negative integer.');
    const prefix = input.Prefix ?? '';
    const delimiter = input.Delimiter;
    const token = input.ContinuationToken;
    const startAfter = decodeContinuationToken(token ?? null) ?? input.StartAfter;
    const result = objects.list(bucket, { prefix, delimiter, startAfter, maxKeys });
    const items = result.objects.map((o) => `<Contents>${contents(o)}</Contents>`);
    const prefixes = result.commonPrefixes.map((p) => `<CommonPrefixes>${tag('Prefix', p)}</CommonPrefixes>`);
    return xml(
      200,
      `<ListBucketResult xmlns="${NS}">${tag('Name', bucket)}${tag('Prefix', prefix)}${tag('Delimiter', delimiter)}${tag('MaxKeys', maxKeys)}` +
        `${tag('KeyCount', items.length + prefixes.length)}${tag('IsTruncated', result.isTruncated)}${token ? tag('ContinuationToken', token) : ''}` +
        `${tag('NextContinuationToken', result.nextContinuationToken)}${input.StartAfter ? tag('StartAfter', input.StartAfter) : ''}${items.join('')}${prefixes.join('')}</ListBucketResult>`,
    );
  };

  const listObjectsV1 = (bucket: string, input: Wire<ListObjectsRequest>): LocalReply => {
    const maxKeys = input.MaxKeys ?? 1000;
    const prefix = input.Prefix ?? '';
    const delimiter = input.Delimiter;
    const result = objects.list(bucket, { prefix, delimiter, startAfter: input.Marker, maxKeys });
    const items = result.objects.map((o) => `<Contents>${contents(o)}${owner}</Contents>`);
    const prefixes = result.commonPrefixes.map((p) => `<CommonPrefixes>${tag('Prefix', p)}</CommonPrefixes>`);
    // NextMarker is returned only with a delimiter (without one, the last key is the next marker).
    const last = [...result.objects.map((o) => o.key), ...result.commonPrefixes].sort().at(-1);
    return xml(
      200,
      `<ListBucketResult xmlns="${NS}">${tag('Name', bucket)}${tag('Prefix', prefix)}${tag('Marker', input.Marker ?? '')}${tag('MaxKeys', maxKeys)}` +
        `${tag('Delimiter', delimiter)}${tag('IsTruncated', result.isTruncated)}${result.isTruncated && delimiter ? tag('NextMarker', last) : ''}${items.join('')}${prefixes.join('')}</ListBucketResult>`,
    );
  };

  const listObjectVersions = (bucket: string, input: Wire<ListObjectVersionsRequest>): LocalReply => {
    // No versions are kept locally: every object is its one current version, VersionId "null" (what S3 lists for
    // objects stored while versioning was never enabled).
    const maxKeys = input.MaxKeys ?? 1000;
    const prefix = input.Prefix ?? '';
    const result = objects.list(bucket, {
      prefix,
      delimiter: input.Delimiter,
      startAfter: input.KeyMarker,
      maxKeys,
    });
    const versions = result.objects.map(
      (o) =>
        `<Version>${tag('Key', o.key)}${tag('VersionId', 'null')}${tag('IsLatest', true)}${tag('LastModified', iso(o.lastModified))}${tag('ETag', o.etag)}${tag('Size', o.size)}${tag('StorageClass', 'STANDARD')}${owner}</Version>`,
    );
    const prefixes = result.commonPrefixes.map((p) => `<CommonPrefixes>${tag('Prefix', p)}</CommonPrefixes>`);
    const last = [...result.objects.map((o) => o.key), ...result.commonPrefixes].sort().at(-1);
    return xml(
      200,
      `<ListVersionsResult xmlns="${NS}">${tag('Name', bucket)}${tag('Prefix', prefix)}${tag('KeyMarker', input.KeyMarker ?? '')}${tag('VersionIdMarker', input.VersionIdMarker ?? '')}` +
        `${tag('MaxKeys', maxKeys)}${tag('Delimiter', input.Delimiter)}${tag('IsTruncated', result.isTruncated)}` +
        `${result.isTruncated ? `${tag('NextKeyMarker', last)}${tag('NextVersionIdMarker', 'null')}` : ''}${versions.join('')}${prefixes.join('')}</ListVersionsResult>`,
    );
  };

  const deleteObjects = (bucket: string, document: Wire<Delete> | undefined): LocalReply => {
    buckets.info(bucket);
    const keys = (document?.Objects ?? []).map((o) => o.Key as string);
    if (keys.length > 1000) throw malformedXml('at most 1000 keys per DeleteObjects request.');
    for (const key of keys) objects.delete(bucket, key);
    const deleted = document?.Quiet ? '' : keys.map((k) => `<Deleted>${tag('Key', k)}</Deleted>`).join('');
    return xml(200, `<DeleteResult xmlns="${NS}">${deleted}</DeleteResult>`);
  };

  const initiator = `<Initiator>${tag('ID', canonicalUserId(options.accountId))}</Initiator>`;

  const listParts = (upload: UploadInfo, input: Wire<ListPartsRequest>): LocalReply => {
    const max = Math.min(input.MaxParts ?? 1000, 1000);
    const marker = Number(input.PartNumberMarker ?? 0);
    const all = objects.listParts(upload).filter((p) => p.partNumber > marker);
    const page = all.slice(0, max);
    const truncated = all.length > page.length;
    const parts = page.map(
      (p) =>
        `<Part>${tag('PartNumber', p.partNumber)}${tag('LastModified', iso(p.lastModified))}${tag('ETag', p.etag)}${tag('Size', p.size)}</Part>`,
    );
    return xml(
      200,
      `<ListPartsResult xmlns="${NS}">${tag('Bucket', upload.bucket)}${tag('Key', upload.key)}${tag('UploadId', upload.uploadId)}` +
        `${tag('PartNumberMarker', marker)}${tag('NextPartNumberMarker', page.at(-1)?.partNumber ?? marker)}${tag('MaxParts', max)}${tag('IsTruncated', truncated)}` +
        `${parts.join('')}${initiator}${owner}${tag('StorageClass', 'STANDARD')}</ListPartsResult>`,
    );
  };

  const listUploads = (bucket: string, input: Wire<ListMultipartUploadsRequest>): LocalReply => {
    const max = Math.min(input.MaxUploads ?? 1000, 1000);
    const prefix = input.Prefix ?? '';
    const all = objects
      .listUploads(bucket)
      .filter((u) => u.key.startsWith(prefix) && (input.KeyMarker === undefined || u.key > input.KeyMarker));
    const page = all.slice(0, max);
    const truncated = all.length > page.length;
    const uploads = page.map(
      (u) =>
        `<Upload>${tag('Key', u.key)}${tag('UploadId', u.uploadId)}${initiator}${owner}${tag('StorageClass', 'STANDARD')}${tag('Initiated', iso(u.initiated))}</Upload>`,
    );
    return xml(
      200,
      `<ListMultipartUploadsResult xmlns="${NS}">${tag('Bucket', bucket)}${tag('KeyMarker', input.KeyMarker ?? '')}${tag('UploadIdMarker', input.UploadIdMarker ?? '')}` +
        `${truncated ? `${tag('NextKeyMarker', page.at(-1)?.key)}${tag('NextUploadIdMarker', page.at(-1)?.uploadId)}` : ''}` +
        `${tag('MaxUploads', max)}${tag('IsTruncated', truncated)}${prefix ? tag('Prefix', prefix) : ''}${uploads.join('')}</ListMultipartUploadsResult>`,
    );
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

/**
 * The model's violations as S3 answers them: arguments (labels, query, headers) first, InvalidArgument; then a
 * required document that is not there, MissingRequestBodyError; then the document's own, MalformedXML.
 */
function refusal(violations: Violation[], payloadPath: string | undefined): AwsServiceError {
  const inDocument = (v: Violation) =>
    payloadPath !== undefined && (v.path === payloadPath || v.path.startsWith(`${payloadPath}.`));
  const list = (vs: Violation[]) =>
    `${vs.length} validation error${vs.length === 1 ? '' : 's'} detected: ${vs.map((v) => v.message).join('; ')}`;
  const argumentViolations = violations.filter((v) => !inDocument(v));
  if (argumentViolations.length > 0) return wireError('s3', 'InvalidArgument', list(argumentViolations));
  if (violations.some((v) => v.path === payloadPath && v.kind === 'required'))
    return wireError('s3', 'MissingRequestBodyError', 'Request Body is empty');
  return malformedXml(list(violations));
}

function isPublicPolicy(text: string): boolean {
  const statements = ([] as unknown[]).concat((JSON.parse(text) as { Statement?: unknown }).Statement ?? []);
  return statements.some((raw) => {
    const s = raw as { Effect?: string; Principal?: unknown; Condition?: unknown };
    const principal = s.Principal as string | { AWS?: unknown } | undefined;
    const anyone =
      principal === '*' ||
      (typeof principal === 'object' && ([] as unknown[]).concat(principal?.AWS ?? []).includes('*'));
    return s.Effect === 'Allow' && anyone && s.Condition === undefined;
  });
}

/** S3 refuses a bucket policy that is not a JSON object with statements (MalformedPolicy, 400). */
function checkPolicy(text: string): void {
  const refuse = (why: string) => wireError('s3', 'MalformedPolicy', why);
  if (!text.trimStart().startsWith('{'))
    throw refuse("Policies must be valid JSON and the first byte must be '{'");
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw refuse("Policies must be valid JSON and the first byte must be '{'");
  }
  const statement = (parsed as { Statement?: unknown }).Statement;
  if (statement === undefined || statement === null || typeof statement !== 'object')
    throw refuse('Missing required field Statement');
}

/** `x-amz-copy-source`: `/bucket/key` or `bucket/key`, URL-encoded (a `?versionId=` is ignored: no versions). */
function copySource(header: string): { bucket: string; key: string } {
  const [path = ''] = header.split('?');
  const bad = badPercentEscape(path);
  if (bad !== undefined)
    throw s3Error.invalidArgument(
      `Invalid copy source ${JSON.stringify(header)}: ${JSON.stringify(bad)} is no valid percent-encoding (URL-encode the key as UTF-8).`,
    );
  const decoded = decodeURIComponent(path).replace(/^\//, '');
  const slash = decoded.indexOf('/');
  if (slash <= 0 || slash === decoded.length - 1)
    throw s3Error.invalidArgument(`Invalid copy source ${JSON.stringify(header)}: use /<bucket>/<key>.`);
  return { bucket: decoded.slice(0, slash), key: decoded.slice(slash + 1) };
}

/** A `Range: bytes=…` header's first range, as S3 reads it (RFC 9110 §14.1.2); one S3 cannot satisfy is 416. */
function byteRange(header: string, size: number): [number, number] {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.split(',')[0]?.trim() ?? '');
  const invalid = () =>
    wireError('s3', 'InvalidRange', 'The requested range is not satisfiable', {
      fields: {
        RangeRequested: header,
        ActualObjectSize: size,
      },
    });
  if (!match || (match[1] === '' && match[2] === '')) throw invalid();
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0) throw invalid();
    return [Math.max(0, size - suffix), size - 1];
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (start >= size || end < start) throw invalid();
  return [start, end];
}
