// Amazon S3 (restXml, path-style requests as the SDK sends them to an IP endpoint) for general purpose buckets:
// CreateBucket, HeadBucket, ListBuckets, DeleteBucket, PutObject, GetObject, HeadObject, DeleteObject,
// DeleteObjects, ListObjectsV2. Enough for the snapshot bucket: the CTAS Lambda lists and prunes runs, tests and
// the lab look at the files. Errors are S3's XML <Error> documents.
import type { ListObjectsV2Request } from '@aws-sdk/client-s3';
import { AwsServiceError, notSupported } from '../errors';
import { checkInput, serviceApi, type Wire } from '../model/api';
import { matchRest, restInput, restRoutes } from '../model/rest';
import { SERVED_OPERATIONS_OF_LARGE_MODELS } from '../model/served';
import type { LocalReply, LocalRequest, ServiceModule } from '../protocol';
import { firstSegment } from '../routes';
import { decodeContinuationToken, LocalObjectStore, s3Error } from './objects';
import { xmlEscape } from '../xml';

export interface S3Options {
  dataDir: string;
  /** First path segments other services own (S3 Tables' `buckets`, `tables`, …): never claimed as bucket names. */
  reservedRoots?: string[];
  objects?: LocalObjectStore;
}

const NS = 'http://s3.amazonaws.com/doc/2006-03-01/';

function xmlUnescape(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#(\d+);/g, (_m, n: string) => String.fromCodePoint(Number(n)))
    .replace(/&amp;/g, '&');
}

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

// S3 answers a request argument it cannot accept with InvalidArgument (400) in its XML error document (API
// reference, "Error responses"): both for values that break the model and for text of the wrong type.
export const S3_API = serviceApi('s3', {
  invalid: (message) => new AwsServiceError('InvalidArgument', 400, message),
  malformed: (message) => new AwsServiceError('InvalidArgument', 400, message),
});

/** The keys a DeleteObjects request names. */
export function deleteObjectKeys(body: string): string[] {
  return [...body.matchAll(/<Key>([\s\S]*?)<\/Key>/g)].map((m) => xmlUnescape(m[1] as string));
}

export function createS3Service(options: S3Options): ServiceModule & { objects: LocalObjectStore } {
  const objects = options.objects ?? new LocalObjectStore(options.dataDir);
  const reserved = new Set(options.reservedRoots ?? []);

  const served = new Set<string>(SERVED_OPERATIONS_OF_LARGE_MODELS.s3);
  const routes = restRoutes(S3_API.model, (operation) => served.has(operation));
  const payloads = new Set(['Body', 'Delete', 'CreateBucketConfiguration']);

  /** The served operation a request calls and its bucket and key (for the authorization step), or undefined. */
  const operationOf = (request: LocalRequest) => {
    const found = matchRest(routes, request);
    const operation = found?.route.operation;
    if (!found || !operation || !served.has(operation)) return undefined;
    if (operation === 'PutObject' && request.headers['x-amz-copy-source']) return undefined;
    return { operation, params: { bucket: found.labels.Bucket ?? '', key: found.labels.Key ?? '' } };
  };

  // The operation is found by S3's model (method, path-style labels, literal query); its labels, query and
  // headers are checked against the model before the handler runs (the XML payload is the handler's to parse).
  const handle = async (request: LocalRequest): Promise<LocalReply> => {
    const found = matchRest(routes, request);
    if (!found) throw notSupported('S3', `${request.method} ${request.path}`);
    const operation = found.route.operation;
    if (!served.has(operation) || (operation === 'PutObject' && request.headers['x-amz-copy-source'])) {
      const named = request.headers['x-amz-copy-source'] ? 'CopyObject' : operation;
      throw notSupported(
        'S3',
        named,
        'the local S3 serves the bucket and object operations the snapshots unit uses',
      );
    }
    const input = restInput(S3_API.model, operation, request, found.labels, () => ({}));
    checkInput(S3_API, operation, input, payloads);
    const bucket = found.labels.Bucket ?? '';
    const key = found.labels.Key ?? '';
    switch (operation) {
      case 'ListBuckets': {
        const buckets = objects
          .listBuckets()
          .map(
            (name) =>
              `<Bucket>${tag('Name', name)}${tag('CreationDate', objects.bucketCreatedAt(name).toISOString())}</Bucket>`,
          );
        return xml(
          200,
          `<ListAllMyBucketsResult xmlns="${NS}"><Buckets>${buckets.join('')}</Buckets></ListAllMyBucketsResult>`,
        );
      }
      case 'CreateBucket':
        objects.createBucket(bucket);
        return empty(200, { location: `/${bucket}` });
      case 'HeadBucket':
        if (!objects.hasBucket(bucket)) throw s3Error.noSuchBucket(bucket);
        return empty(200);
      case 'DeleteBucket':
        objects.deleteBucket(bucket);
        return empty(204);
      case 'DeleteObjects':
        return deleteObjects(bucket, request.body.toString('utf8'));
      case 'ListObjectsV2':
        return listObjectsV2(bucket, input as Wire<ListObjectsV2Request>);
      case 'PutObject': {
        const info = objects.put(bucket, key, request.body);
        return empty(200, { etag: info.etag });
      }
      case 'GetObject': {
        const { info, body } = objects.get(bucket, key);
        return {
          status: 200,
          raw: {
            headers: {
              'content-type': 'application/octet-stream',
              'content-length': String(info.size),
              etag: info.etag,
              'last-modified': info.lastModified.toUTCString(),
            },
            body,
          },
        };
      }
      case 'HeadObject': {
        const info = objects.head(bucket, key);
        return empty(200, {
          'content-length': String(info.size),
          etag: info.etag,
          'last-modified': info.lastModified.toUTCString(),
        });
      }
      default:
        objects.delete(bucket, key);
        return empty(204);
    }
  };

  const listObjectsV2 = (bucket: string, input: Wire<ListObjectsV2Request>): LocalReply => {
    const maxKeys = input.MaxKeys ?? 1000;
    if (maxKeys < 0) throw s3Error.invalidArgument('max-keys must be a non-negative integer.');
    const prefix = input.Prefix ?? '';
    const delimiter = input.Delimiter;
    const token = input.ContinuationToken;
    const startAfter = decodeContinuationToken(token ?? null) ?? input.StartAfter;
    const result = objects.list(bucket, { prefix, delimiter, startAfter, maxKeys });
    const contents = result.objects.map(
      (o) =>
        `<Contents>${tag('Key', o.key)}${tag('LastModified', o.lastModified.toISOString())}${tag('ETag', o.etag)}${tag('Size', o.size)}${tag('StorageClass', 'STANDARD')}</Contents>`,
    );
    const prefixes = result.commonPrefixes.map((p) => `<CommonPrefixes>${tag('Prefix', p)}</CommonPrefixes>`);
    return xml(
      200,
      `<ListBucketResult xmlns="${NS}">${tag('Name', bucket)}${tag('Prefix', prefix)}${tag('Delimiter', delimiter)}${tag('MaxKeys', maxKeys)}` +
        `${tag('KeyCount', contents.length + prefixes.length)}${tag('IsTruncated', result.isTruncated)}${token ? tag('ContinuationToken', token) : ''}` +
        `${tag('NextContinuationToken', result.nextContinuationToken)}${contents.join('')}${prefixes.join('')}</ListBucketResult>`,
    );
  };

  const deleteObjects = (bucket: string, body: string): LocalReply => {
    if (!objects.hasBucket(bucket)) throw s3Error.noSuchBucket(bucket);
    const keys = deleteObjectKeys(body);
    if (keys.length > 1000)
      throw new AwsServiceError('MalformedXML', 400, 'At most 1000 keys per DeleteObjects request.');
    const quiet = /<Quiet>\s*true\s*<\/Quiet>/i.test(body);
    for (const key of keys) objects.delete(bucket, key);
    const deleted = quiet ? '' : keys.map((k) => `<Deleted>${tag('Key', k)}</Deleted>`).join('');
    return xml(200, `<DeleteResult xmlns="${NS}">${deleted}</DeleteResult>`);
  };

  return {
    name: 'S3',
    errorStyle: { protocol: 'restXml', messageKey: 'Message' },
    internalErrorCode: 'InternalError',
    // Registered last: every target-less request no other service claimed is a path-style S3 request.
    claims: (request) => !request.headers['x-amz-target'] && !reserved.has(firstSegment(request.path)),
    api: S3_API,
    served: [...served],
    operationOf,
    handle,
    objects,
  };
}
