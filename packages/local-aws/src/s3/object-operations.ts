// S3's operations on objects: put, copy, get (with a byte range), head, delete, DeleteObjects, and the listings
// (ListObjects v1, ListObjectsV2, ListObjectVersions). Its own module beside objects.ts, which keeps the bytes on
// disk: these are the handlers, reading S3's request members and writing S3's reply documents and headers.
import type {
  Delete,
  ListObjectsRequest,
  ListObjectsV2Request,
  ListObjectVersionsRequest,
} from '@aws-sdk/client-s3';
import type { Wire } from '../model/api';
import { wireError } from '../model/wire-errors';
import type { LocalReply } from '../protocol';
import { s3Error } from './errors';
import { decodeContinuationToken, type LocalObjectStore, type ObjectInfo } from './objects';
import type { S3Context, S3Handlers } from './operation';
import { empty, iso, malformedXml, NS, ownerElement, tag, xml } from './replies';

export function objectHandlers(context: S3Context): S3Handlers {
  const { objects } = context;
  return {
    PutObject: ({ bucket, key, body }) => empty(200, { etag: objects.put(bucket, key, body).etag }),
    CopyObject: ({ bucket, key, reading }) => {
      const { sourceBucket = '', sourceKey = '' } = reading.params;
      const info = objects.copy({ bucket: sourceBucket, key: sourceKey }, { bucket, key });
      return xml(
        200,
        `<CopyObjectResult>${tag('LastModified', iso(info.lastModified))}${tag('ETag', info.etag)}</CopyObjectResult>`,
      );
    },
    GetObject: ({ bucket, key, request }) => getObject(objects, bucket, key, request.headers.range),
    HeadObject: ({ bucket, key }) => empty(200, objectHeaders(objects.head(bucket, key))),
    DeleteObject: ({ bucket, key }) => {
      objects.delete(bucket, key);
      return empty(204);
    },
    DeleteObjects: ({ bucket, input }) => deleteObjects(context, bucket, input.Delete as Wire<Delete>),
    ListObjectsV2: ({ bucket, input }) => listObjectsV2(objects, bucket, input as Wire<ListObjectsV2Request>),
    ListObjects: ({ bucket, input }) => listObjectsV1(context, bucket, input as Wire<ListObjectsRequest>),
    ListObjectVersions: ({ bucket, input }) =>
      listObjectVersions(context, bucket, input as Wire<ListObjectVersionsRequest>),
  };
}

const objectHeaders = (info: ObjectInfo): Record<string, string> => ({
  'content-type': 'application/octet-stream',
  'content-length': String(info.size),
  'accept-ranges': 'bytes',
  etag: info.etag,
  'last-modified': info.lastModified.toUTCString(),
});

function getObject(
  objects: LocalObjectStore,
  bucket: string,
  key: string,
  range: string | undefined,
): LocalReply {
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

function deleteObjects({ buckets, objects }: S3Context, bucket: string, document: Wire<Delete> | undefined) {
  buckets.info(bucket);
  const keys = (document?.Objects ?? []).map((o) => o.Key as string);
  if (keys.length > 1000) throw malformedXml('at most 1000 keys per DeleteObjects request.');
  for (const key of keys) objects.delete(bucket, key);
  const deleted = document?.Quiet ? '' : keys.map((k) => `<Deleted>${tag('Key', k)}</Deleted>`).join('');
  return xml(200, `<DeleteResult xmlns="${NS}">${deleted}</DeleteResult>`);
}

const contents = (o: ObjectInfo) =>
  `${tag('Key', o.key)}${tag('LastModified', iso(o.lastModified))}${tag('ETag', o.etag)}${tag('Size', o.size)}${tag('StorageClass', 'STANDARD')}`;

const commonPrefixes = (prefixes: string[]) =>
  prefixes.map((p) => `<CommonPrefixes>${tag('Prefix', p)}</CommonPrefixes>`);

/** The listing's last key or common prefix: the next marker of a truncated v1 or versions listing. */
const lastListed = (result: { objects: ObjectInfo[]; commonPrefixes: string[] }) =>
  [...result.objects.map((o) => o.key), ...result.commonPrefixes].sort().at(-1);

function listObjectsV2(
  objects: LocalObjectStore,
  bucket: string,
  input: Wire<ListObjectsV2Request>,
): LocalReply {
  const maxKeys = input.MaxKeys ?? 1000;
  if (maxKeys < 0) throw s3Error.invalidArgument('max-keys must be a non-negative integer.');
  const prefix = input.Prefix ?? '';
  const delimiter = input.Delimiter;
  const token = input.ContinuationToken;
  const startAfter = decodeContinuationToken(token ?? null) ?? input.StartAfter;
  const result = objects.list(bucket, { prefix, delimiter, startAfter, maxKeys });
  const items = result.objects.map((o) => `<Contents>${contents(o)}</Contents>`);
  const prefixes = commonPrefixes(result.commonPrefixes);
  return xml(
    200,
    `<ListBucketResult xmlns="${NS}">${tag('Name', bucket)}${tag('Prefix', prefix)}${tag('Delimiter', delimiter)}${tag('MaxKeys', maxKeys)}` +
      `${tag('KeyCount', items.length + prefixes.length)}${tag('IsTruncated', result.isTruncated)}${token ? tag('ContinuationToken', token) : ''}` +
      `${tag('NextContinuationToken', result.nextContinuationToken)}${input.StartAfter ? tag('StartAfter', input.StartAfter) : ''}${items.join('')}${prefixes.join('')}</ListBucketResult>`,
  );
}

function listObjectsV1({ objects, accountId }: S3Context, bucket: string, input: Wire<ListObjectsRequest>) {
  const maxKeys = input.MaxKeys ?? 1000;
  const prefix = input.Prefix ?? '';
  const delimiter = input.Delimiter;
  const result = objects.list(bucket, { prefix, delimiter, startAfter: input.Marker, maxKeys });
  const owner = ownerElement(accountId);
  const items = result.objects.map((o) => `<Contents>${contents(o)}${owner}</Contents>`);
  const prefixes = commonPrefixes(result.commonPrefixes);
  // NextMarker is returned only with a delimiter (without one, the last key is the next marker).
  const last = lastListed(result);
  return xml(
    200,
    `<ListBucketResult xmlns="${NS}">${tag('Name', bucket)}${tag('Prefix', prefix)}${tag('Marker', input.Marker ?? '')}${tag('MaxKeys', maxKeys)}` +
      `${tag('Delimiter', delimiter)}${tag('IsTruncated', result.isTruncated)}${result.isTruncated && delimiter ? tag('NextMarker', last) : ''}${items.join('')}${prefixes.join('')}</ListBucketResult>`,
  );
}

function listObjectVersions(
  { objects, accountId }: S3Context,
  bucket: string,
  input: Wire<ListObjectVersionsRequest>,
): LocalReply {
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
  const owner = ownerElement(accountId);
  const versions = result.objects.map(
    (o) =>
      `<Version>${tag('Key', o.key)}${tag('VersionId', 'null')}${tag('IsLatest', true)}${tag('LastModified', iso(o.lastModified))}${tag('ETag', o.etag)}${tag('Size', o.size)}${tag('StorageClass', 'STANDARD')}${owner}</Version>`,
  );
  const prefixes = commonPrefixes(result.commonPrefixes);
  const last = lastListed(result);
  return xml(
    200,
    `<ListVersionsResult xmlns="${NS}">${tag('Name', bucket)}${tag('Prefix', prefix)}${tag('KeyMarker', input.KeyMarker ?? '')}${tag('VersionIdMarker', input.VersionIdMarker ?? '')}` +
      `${tag('MaxKeys', maxKeys)}${tag('Delimiter', input.Delimiter)}${tag('IsTruncated', result.isTruncated)}` +
      `${result.isTruncated ? `${tag('NextKeyMarker', last)}${tag('NextVersionIdMarker', 'null')}` : ''}${versions.join('')}${prefixes.join('')}</ListVersionsResult>`,
  );
}
