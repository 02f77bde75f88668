// General purpose S3 buckets on local disk: `<dataDir>/s3/<bucket>/<key>`. Used for the snapshot bucket, whose
// objects the SQL engine writes (CTAS external_location) and reads (Glue tables located in it) directly as files;
// `localPath()` is the bridge from an s3:// URI to those files.
import { createHash, randomBytes } from 'node:crypto';
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { AwsServiceError } from '../errors';
import { localDataPath } from '../data-dir';

export interface ObjectInfo {
  key: string;
  size: number;
  lastModified: Date;
  etag: string;
}

/** A multipart upload in progress (CreateMultipartUpload until Complete or Abort). */
export interface UploadInfo {
  uploadId: string;
  bucket: string;
  key: string;
  initiated: Date;
  contentType?: string;
}

export interface PartInfo {
  partNumber: number;
  size: number;
  etag: string;
  lastModified: Date;
}

/** S3's multipart limits (User Guide, "Amazon S3 multipart upload limits"): parts 1-10,000, 5 MiB except the last. */
export const MIN_PART_BYTES = 5 * 1024 * 1024;
export const MAX_PART_NUMBER = 10_000;

/** The upload ids this store hands out: 32 hex digits (anything else names no upload). */
const UPLOAD_ID = /^[0-9a-f]{32}$/;

export interface ListResult {
  objects: ObjectInfo[];
  commonPrefixes: string[];
  isTruncated: boolean;
  nextContinuationToken?: string;
}

const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

export const s3Error = {
  noSuchBucket: (bucket: string) =>
    new AwsServiceError('NoSuchBucket', 404, `The specified bucket does not exist: ${bucket}`, {
      BucketName: bucket,
    }),
  noSuchKey: (key: string) =>
    new AwsServiceError('NoSuchKey', 404, `The specified key does not exist: ${key}`, { Key: key }),
  invalidBucketName: (bucket: string) =>
    new AwsServiceError('InvalidBucketName', 400, `The specified bucket is not valid: ${bucket}`, {
      BucketName: bucket,
    }),
  alreadyOwned: (bucket: string) =>
    new AwsServiceError(
      'BucketAlreadyOwnedByYou',
      409,
      `Your previous request to create the named bucket succeeded and you already own it: ${bucket}`,
    ),
  notEmpty: (bucket: string) =>
    new AwsServiceError('BucketNotEmpty', 409, `The bucket you tried to delete is not empty: ${bucket}`),
  invalidArgument: (message: string) => new AwsServiceError('InvalidArgument', 400, message),
  noSuchUpload: (uploadId: string) =>
    new AwsServiceError(
      'NoSuchUpload',
      404,
      'The specified multipart upload does not exist. The upload ID might be invalid, or the multipart upload might have been aborted or completed.',
      { UploadId: uploadId },
    ),
  invalidPart: (partNumber: number) =>
    new AwsServiceError(
      'InvalidPart',
      400,
      `One or more of the specified parts could not be found (part ${partNumber}). The part may not have been uploaded, or the specified entity tag may not match the part's entity tag.`,
    ),
  invalidPartOrder: () =>
    new AwsServiceError(
      'InvalidPartOrder',
      400,
      'The list of parts was not in ascending order. The parts list must be specified in order by part number.',
    ),
  entityTooSmall: (partNumber: number, size: number) =>
    new AwsServiceError(
      'EntityTooSmall',
      400,
      `Your proposed upload is smaller than the minimum allowed size: part ${partNumber} has ${size} bytes; every part but the last needs at least ${MIN_PART_BYTES}.`,
    ),
};

export class LocalObjectStore {
  readonly root: string;
  /** Multipart uploads in progress, one folder per upload id (never under a bucket: not listed as objects). */
  private readonly uploadsRoot: string;

  constructor(dataDir: string) {
    this.root = resolve(localDataPath(dataDir, 's3'));
    this.uploadsRoot = resolve(localDataPath(dataDir, 'uploads'));
    mkdirSync(this.root, { recursive: true });
  }

  bucketDir(bucket: string): string {
    if (!BUCKET.test(bucket)) throw s3Error.invalidBucketName(bucket);
    return join(this.root, bucket);
  }

  createBucket(bucket: string): void {
    const dir = this.bucketDir(bucket);
    if (existsSync(dir)) throw s3Error.alreadyOwned(bucket);
    mkdirSync(dir, { recursive: true });
  }

  hasBucket(bucket: string): boolean {
    return BUCKET.test(bucket) && existsSync(join(this.root, bucket));
  }

  listBuckets(): string[] {
    return readdirSync(this.root).filter((name) => BUCKET.test(name));
  }

  deleteBucket(bucket: string): void {
    const dir = this.requireBucket(bucket);
    if (this.walk(dir).length > 0) throw s3Error.notEmpty(bucket);
    rmSync(dir, { recursive: true, force: true });
  }

  private requireBucket(bucket: string): string {
    const dir = this.bucketDir(bucket);
    if (!existsSync(dir)) throw s3Error.noSuchBucket(bucket);
    return dir;
  }

  /** The file behind a key; refuses keys that would escape the bucket folder. */
  private fileOf(bucket: string, key: string): string {
    const dir = this.requireBucket(bucket);
    const file = resolve(dir, key);
    if (!key || key.endsWith('/') || !file.startsWith(dir + sep))
      throw s3Error.invalidArgument(`Invalid object key ${JSON.stringify(key)}.`);
    return file;
  }

  put(bucket: string, key: string, body: Buffer): ObjectInfo {
    return this.write(bucket, key, (temp) => writeFileSync(temp, body));
  }

  /** The object's file written aside by `fill`, then renamed into place (readers see the old or the new bytes). */
  private write(bucket: string, key: string, fill: (temp: string) => void): ObjectInfo {
    const file = this.fileOf(bucket, key);
    mkdirSync(dirname(file), { recursive: true });
    const temp = `${file}.${process.pid}.${Date.now()}.${randomBytes(4).toString('hex')}.uploading`;
    try {
      fill(temp);
      renameSync(temp, file);
    } catch (error) {
      rmSync(temp, { force: true });
      throw error;
    }
    return this.head(bucket, key);
  }

  /** A copy of an object under another key (or bucket). */
  copy(from: { bucket: string; key: string }, to: { bucket: string; key: string }): ObjectInfo {
    const { body } = this.get(from.bucket, from.key);
    return this.put(to.bucket, to.key, body);
  }

  // Multipart uploads. An upload's folder holds `upload.json` (bucket, key, when) and one file per part; the
  // object is assembled by `completeUpload` through the same write as `put`.

  createUpload(bucket: string, key: string, contentType?: string): UploadInfo {
    this.fileOf(bucket, key);
    const uploadId = randomBytes(16).toString('hex');
    const dir = join(this.uploadsRoot, uploadId);
    mkdirSync(dir, { recursive: true });
    const info: UploadInfo = {
      uploadId,
      bucket,
      key,
      initiated: new Date(),
      ...(contentType ? { contentType } : {}),
    };
    writeFileSync(join(dir, 'upload.json'), JSON.stringify(info));
    return info;
  }

  /** The upload (NoSuchUpload for an id this store did not hand out, or one completed or aborted). */
  upload(bucket: string, key: string, uploadId: string): UploadInfo {
    this.requireBucket(bucket);
    const file = UPLOAD_ID.test(uploadId) ? join(this.uploadsRoot, uploadId, 'upload.json') : undefined;
    if (!file || !existsSync(file)) throw s3Error.noSuchUpload(uploadId);
    const stored = JSON.parse(readFileSync(file, 'utf8')) as UploadInfo & { initiated: string };
    if (stored.bucket !== bucket || stored.key !== key) throw s3Error.noSuchUpload(uploadId);
    return { ...stored, initiated: new Date(stored.initiated) };
  }

  listUploads(bucket: string): UploadInfo[] {
    this.requireBucket(bucket);
    if (!existsSync(this.uploadsRoot)) return [];
    return readdirSync(this.uploadsRoot)
      .filter((id) => UPLOAD_ID.test(id) && existsSync(join(this.uploadsRoot, id, 'upload.json')))
      .map((id) => JSON.parse(readFileSync(join(this.uploadsRoot, id, 'upload.json'), 'utf8')) as UploadInfo)
      .filter((u) => u.bucket === bucket)
      .map((u) => ({ ...u, initiated: new Date(u.initiated) }))
      .sort((a, b) =>
        a.key === b.key ? a.initiated.getTime() - b.initiated.getTime() : a.key < b.key ? -1 : 1,
      );
  }

  putPart(upload: UploadInfo, partNumber: number, body: Buffer): PartInfo {
    const file = this.partFile(upload.uploadId, partNumber);
    const temp = `${file}.${randomBytes(4).toString('hex')}.uploading`;
    writeFileSync(temp, body);
    renameSync(temp, file);
    return this.part(upload.uploadId, partNumber) as PartInfo;
  }

  listParts(upload: UploadInfo): PartInfo[] {
    const dir = join(this.uploadsRoot, upload.uploadId);
    return readdirSync(dir)
      .flatMap((name) => (/^part-\d{5}$/.test(name) ? [Number(name.slice(5))] : []))
      .sort((a, b) => a - b)
      .flatMap((n) => this.part(upload.uploadId, n) ?? []);
  }

  /**
   * The object made of the named parts, in order (CompleteMultipartUpload): each part must be there with its ETag,
   * in ascending order, and all but the last at least 5 MiB. The upload is gone afterwards.
   */
  completeUpload(upload: UploadInfo, parts: { partNumber: number; etag: string }[]): ObjectInfo {
    const found = parts.map(({ partNumber, etag }, index) => {
      if (index > 0 && partNumber <= (parts[index - 1] as { partNumber: number }).partNumber)
        throw s3Error.invalidPartOrder();
      const part = this.part(upload.uploadId, partNumber);
      if (!part || unquote(part.etag) !== unquote(etag)) throw s3Error.invalidPart(partNumber);
      return part;
    });
    found.slice(0, -1).forEach((part) => {
      if (part.size < MIN_PART_BYTES) throw s3Error.entityTooSmall(part.partNumber, part.size);
    });
    const info = this.write(upload.bucket, upload.key, (temp) => {
      writeFileSync(temp, Buffer.alloc(0));
      for (const part of found)
        appendFileSync(temp, readFileSync(this.partFile(upload.uploadId, part.partNumber)));
    });
    this.abortUpload(upload);
    return info;
  }

  abortUpload(upload: UploadInfo): void {
    rmSync(join(this.uploadsRoot, upload.uploadId), { recursive: true, force: true });
  }

  private partFile(uploadId: string, partNumber: number): string {
    return join(this.uploadsRoot, uploadId, `part-${String(partNumber).padStart(5, '0')}`);
  }

  private part(uploadId: string, partNumber: number): PartInfo | undefined {
    const file = this.partFile(uploadId, partNumber);
    if (!existsSync(file)) return undefined;
    const stat = statSync(file);
    return { partNumber, size: stat.size, etag: etagOf(file), lastModified: stat.mtime };
  }

  get(bucket: string, key: string): { info: ObjectInfo; body: Buffer } {
    const info = this.head(bucket, key);
    return { info, body: readFileSync(this.fileOf(bucket, key)) };
  }

  head(bucket: string, key: string): ObjectInfo {
    const file = this.fileOf(bucket, key);
    if (!existsSync(file) || !statSync(file).isFile()) throw s3Error.noSuchKey(key);
    const stat = statSync(file);
    return { key, size: stat.size, lastModified: stat.mtime, etag: etagOf(file) };
  }

  delete(bucket: string, key: string): void {
    const file = this.fileOf(bucket, key);
    rmSync(file, { force: true });
    this.pruneEmptyDirs(dirname(file), this.bucketDir(bucket));
  }

  list(
    bucket: string,
    options: { prefix?: string; delimiter?: string; startAfter?: string; maxKeys?: number },
  ): ListResult {
    const dir = this.requireBucket(bucket);
    const prefix = options.prefix ?? '';
    const maxKeys = options.maxKeys ?? 1000;
    const keys = this.walk(dir)
      .map((file) => relative(dir, file).split(sep).join('/'))
      .filter((key) => key.startsWith(prefix) && !key.endsWith('.uploading'))
      .sort();
    const entries: { key: string; prefix?: string }[] = [];
    const seen = new Set<string>();
    for (const key of keys) {
      const rest = key.slice(prefix.length);
      const cut = options.delimiter ? rest.indexOf(options.delimiter) : -1;
      if (cut >= 0) {
        const common = prefix + rest.slice(0, cut + (options.delimiter?.length ?? 0));
        if (!seen.has(common)) {
          seen.add(common);
          entries.push({ key: common, prefix: common });
        }
      } else entries.push({ key });
    }
    const after = options.startAfter;
    const remaining = after ? entries.filter((e) => e.key > after) : entries;
    const page = remaining.slice(0, maxKeys);
    const isTruncated = remaining.length > page.length;
    return {
      objects: page.filter((e) => !e.prefix).map((e) => this.head(bucket, e.key)),
      commonPrefixes: page.flatMap((e) => (e.prefix ? [e.prefix] : [])),
      isTruncated,
      nextContinuationToken: isTruncated
        ? Buffer.from(page[page.length - 1]?.key ?? '').toString('base64')
        : undefined,
    };
  }

  /** `s3://bucket/key/prefix/` → the folder or file on disk (for the SQL engine). */
  localPath(uri: string): string {
    const match = /^s3:\/\/([^/]+)\/?(.*)$/.exec(uri);
    if (!match) throw s3Error.invalidArgument(`Not an s3:// URI: ${uri}`);
    const dir = this.bucketDir(match[1] as string);
    const path = resolve(dir, match[2] as string);
    if (path !== dir && !path.startsWith(dir + sep))
      throw s3Error.invalidArgument(`URI escapes its bucket: ${uri}`);
    return path;
  }

  private walk(dir: string): string[] {
    if (!existsSync(dir)) return [];
    return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const path = join(dir, entry.name);
      return entry.isDirectory() ? this.walk(path) : entry.isFile() ? [path] : [];
    });
  }

  private pruneEmptyDirs(dir: string, stop: string): void {
    let current = dir;
    while (current.startsWith(stop + sep) && existsSync(current) && readdirSync(current).length === 0) {
      rmSync(current, { recursive: true, force: true });
      current = dirname(current);
    }
  }
}

const unquote = (etag: string) => etag.replace(/^"|"$/g, '');

function etagOf(file: string): string {
  return `"${createHash('md5').update(readFileSync(file)).digest('hex')}"`;
}

export function decodeContinuationToken(token: string | null): string | undefined {
  return token ? Buffer.from(token, 'base64').toString('utf8') : undefined;
}
