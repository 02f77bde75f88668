// S3's errors, as named factories whose messages say what was wrong and what S3 allows (the API reference's "Error
// responses" codes, in S3's XML <Error> document), and the limits those messages cite. Its own module so the object
// store, the bucket records and the operation handlers raise the same errors without importing one another.
import { wireError } from '../model/wire-errors';

/** S3's multipart limits (User Guide, "Amazon S3 multipart upload limits"): parts 1-10,000, 5 MiB except the last. */
export const MIN_PART_BYTES = 5 * 1024 * 1024;
export const MAX_PART_NUMBER = 10_000;

/** S3: "The name for a key is a sequence of Unicode characters whose UTF-8 encoding is at most 1,024 bytes long." */
export const MAX_KEY_BYTES = 1024;

export const s3Error = {
  noSuchBucket: (bucket: string) =>
    wireError('s3', 'NoSuchBucket', `The specified bucket does not exist: ${bucket}`, {
      fields: {
        BucketName: bucket,
      },
    }),
  noSuchKey: (key: string) =>
    wireError('s3', 'NoSuchKey', `The specified key does not exist: ${key}`, { fields: { Key: key } }),
  invalidBucketName: (bucket: string) =>
    wireError('s3', 'InvalidBucketName', `The specified bucket is not valid: ${bucket}`, {
      fields: {
        BucketName: bucket,
      },
    }),
  alreadyOwned: (bucket: string) =>
    wireError(
      's3',
      'BucketAlreadyOwnedByYou',
      `Your previous request to create the named bucket succeeded and you already own it: ${bucket}`,
    ),
  notEmpty: (bucket: string) =>
    wireError('s3', 'BucketNotEmpty', `The bucket you tried to delete is not empty: ${bucket}`),
  invalidArgument: (message: string) => wireError('s3', 'InvalidArgument', message),
  keyTooLong: (key: string) =>
    wireError(
      's3',
      'KeyTooLongError',
      `Your key is too long: ${Buffer.byteLength(key, 'utf8')} bytes (at most ${MAX_KEY_BYTES}).`,
    ),
  noSuchUpload: (uploadId: string) =>
    wireError(
      's3',
      'NoSuchUpload',
      'The specified multipart upload does not exist. The upload ID might be invalid, or the multipart upload might have been aborted or completed.',
      { fields: { UploadId: uploadId } },
    ),
  invalidPart: (partNumber: number) =>
    wireError(
      's3',
      'InvalidPart',
      `One or more of the specified parts could not be found (part ${partNumber}). The part may not have been uploaded, or the specified entity tag may not match the part's entity tag.`,
    ),
  invalidPartOrder: () =>
    wireError(
      's3',
      'InvalidPartOrder',
      'The list of parts was not in ascending order. The parts list must be specified in order by part number.',
    ),
  entityTooSmall: (partNumber: number, size: number) =>
    wireError(
      's3',
      'EntityTooSmall',
      `Your proposed upload is smaller than the minimum allowed size: part ${partNumber} has ${size} bytes; every part but the last needs at least ${MIN_PART_BYTES}.`,
    ),
};
