// S3's multipart uploads: create, upload a part, complete, abort, and the ListParts / ListMultipartUploads pages.
// Its own module beside objects.ts, which keeps the parts and joins them under S3's rules: these are the handlers,
// reading S3's request members and writing S3's reply documents.
import type {
  CompleteMultipartUploadRequest,
  ListMultipartUploadsRequest,
  ListPartsRequest,
  UploadPartRequest,
} from '@aws-sdk/client-s3';
import type { Wire } from '../model/api';
import type { LocalReply } from '../protocol';
import { MAX_PART_NUMBER, s3Error } from './errors';
import type { UploadInfo } from './objects';
import type { S3Call, S3Context, S3Handlers } from './operation';
import { empty, initiatorElement, iso, malformedXml, NS, ownerElement, tag, xml } from './replies';

export function multipartHandlers(context: S3Context): S3Handlers {
  const { objects } = context;
  return {
    CreateMultipartUpload: ({ bucket, key, request }) => {
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
    },
    UploadPart: (call) => uploadPart(context, call),
    CompleteMultipartUpload: (call) => completeUpload(context, call),
    AbortMultipartUpload: ({ bucket, key, input }) => {
      objects.abortUpload(objects.upload(bucket, key, String(input.UploadId)));
      return empty(204);
    },
    ListParts: ({ bucket, key, input }) =>
      listParts(
        context,
        objects.upload(bucket, key, String(input.UploadId)),
        input as Wire<ListPartsRequest>,
      ),
    ListMultipartUploads: ({ bucket, input }) =>
      listUploads(context, bucket, input as Wire<ListMultipartUploadsRequest>),
  };
}

function uploadPart({ objects }: S3Context, { bucket, key, input, body }: S3Call): LocalReply {
  const { PartNumber, UploadId } = input as Wire<UploadPartRequest>;
  if (!Number.isInteger(PartNumber) || (PartNumber as number) < 1 || (PartNumber as number) > MAX_PART_NUMBER)
    throw s3Error.invalidArgument(
      `Part number must be an integer between 1 and ${MAX_PART_NUMBER}, inclusive (got ${PartNumber}).`,
    );
  const upload = objects.upload(bucket, key, UploadId as string);
  const part = objects.putPart(upload, PartNumber as number, body);
  return empty(200, { etag: part.etag });
}

function completeUpload({ objects }: S3Context, { bucket, key, input }: S3Call): LocalReply {
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

function listParts({ objects, accountId }: S3Context, upload: UploadInfo, input: Wire<ListPartsRequest>) {
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
      `${parts.join('')}${initiatorElement(accountId)}${ownerElement(accountId)}${tag('StorageClass', 'STANDARD')}</ListPartsResult>`,
  );
}

function listUploads(
  { objects, accountId }: S3Context,
  bucket: string,
  input: Wire<ListMultipartUploadsRequest>,
) {
  const max = Math.min(input.MaxUploads ?? 1000, 1000);
  const prefix = input.Prefix ?? '';
  const all = objects
    .listUploads(bucket)
    .filter((u) => u.key.startsWith(prefix) && (input.KeyMarker === undefined || u.key > input.KeyMarker));
  const page = all.slice(0, max);
  const truncated = all.length > page.length;
  const initiator = initiatorElement(accountId);
  const owner = ownerElement(accountId);
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
}
