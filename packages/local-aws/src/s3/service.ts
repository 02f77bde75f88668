// Amazon S3 (restXml, path-style requests as the SDK sends them to an IP endpoint) for general purpose buckets:
// CreateBucket, HeadBucket, ListBuckets, DeleteBucket, PutObject, GetObject, HeadObject, DeleteObject,
// DeleteObjects, ListObjectsV2. Enough for the snapshot bucket: the CTAS Lambda lists and prunes runs, tests and
// the lab look at the files. Errors are S3's XML <Error> documents.
import { AwsServiceError, notSupported } from '../errors';
import type { LocalReply, LocalRequest, ServiceModule } from '../protocol';
import { firstSegment } from '../routes';
import { decodeContinuationToken, LocalObjectStore, s3Error } from './objects';

export interface S3Options {
  dataDir: string;
  /** First path segments other services own (S3 Tables' `buckets`, `tables`, …): never claimed as bucket names. */
  reservedRoots?: string[];
  objects?: LocalObjectStore;
}

const NS = 'http://s3.amazonaws.com/doc/2006-03-01/';

export function xmlEscape(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

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

function splitPath(path: string): { bucket: string; key: string } {
  const [, bucket = '', ...rest] = path.split('/');
  return { bucket: decodeURIComponent(bucket), key: rest.map((part) => decodeURIComponent(part)).join('/') };
}

/** The keys a DeleteObjects request names. */
export function deleteObjectKeys(body: string): string[] {
  return [...body.matchAll(/<Key>([\s\S]*?)<\/Key>/g)].map((m) => xmlUnescape(m[1] as string));
}

/** The S3 operation a path-style request calls (what handle() dispatches on), for the authorization step. */
export function s3OperationOf(
  request: LocalRequest,
): { operation: string; params: Record<string, string> } | undefined {
  const { bucket, key } = splitPath(request.path);
  const q = request.query;
  const op = (operation: string) => ({ operation, params: { bucket, key } });
  if (!bucket) return request.method === 'GET' ? op('ListBuckets') : undefined;
  if (!key) {
    if (request.method === 'PUT') return op('CreateBucket');
    if (request.method === 'HEAD') return op('HeadBucket');
    if (request.method === 'DELETE') return op('DeleteBucket');
    if (request.method === 'POST' && q.has('delete')) return op('DeleteObjects');
    if (request.method === 'GET' && q.get('list-type') === '2') return op('ListObjectsV2');
    return undefined;
  }
  if (request.method === 'PUT') return request.headers['x-amz-copy-source'] ? undefined : op('PutObject');
  if (request.method === 'GET') return op('GetObject');
  if (request.method === 'HEAD') return op('HeadObject');
  if (request.method === 'DELETE') return op('DeleteObject');
  return undefined;
}

export function createS3Service(options: S3Options): ServiceModule & { objects: LocalObjectStore } {
  const objects = options.objects ?? new LocalObjectStore(options.dataDir);
  const reserved = new Set(options.reservedRoots ?? []);

  const handle = async (request: LocalRequest): Promise<LocalReply> => {
    const { bucket, key } = splitPath(request.path);
    const q = request.query;
    switch (s3OperationOf(request)?.operation) {
      case 'ListBuckets': {
        const buckets = objects
          .listBuckets()
          .map(
            (name) =>
              `<Bucket>${tag('Name', name)}${tag('CreationDate', new Date(0).toISOString())}</Bucket>`,
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
        return listObjectsV2(bucket, q);
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
      case 'DeleteObject':
        objects.delete(bucket, key);
        return empty(204);
    }
    if (!bucket) throw notSupported('S3', `${request.method} /`);
    if (request.headers['x-amz-copy-source']) throw notSupported('S3', 'CopyObject');
    if (!key) throw notSupported('S3', `${request.method} /${bucket}?${[...q.keys()].join('&')}`);
    throw notSupported('S3', `${request.method} /${bucket}/${key}`);
  };

  const listObjectsV2 = (bucket: string, q: URLSearchParams): LocalReply => {
    const maxKeys = q.has('max-keys') ? Number(q.get('max-keys')) : 1000;
    if (!Number.isInteger(maxKeys) || maxKeys < 0)
      throw s3Error.invalidArgument('max-keys must be a non-negative integer.');
    const prefix = q.get('prefix') ?? '';
    const delimiter = q.get('delimiter') ?? undefined;
    const token = q.get('continuation-token');
    const startAfter = decodeContinuationToken(token) ?? q.get('start-after') ?? undefined;
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
    operationOf: s3OperationOf,
    handle,
    objects,
  };
}
