// General purpose S3 buckets on local disk: `<dataDir>/s3/<bucket>/<key>`, every key laid out by the one name → path
// mapping (@loglake/lakehouse's stored paths: each segment encoded, the object's file marked). The SQL engine reads
// and writes the same layout through its LocalDirectoryStorage (CTAS external_location, Glue tables located here),
// and Firehose's error output is placed here through placeFile.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import {
  appendFileSync,
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import {
  compareKeys,
  decodeName,
  namedPath,
  objectPath,
  objectsUnder,
  StoredNameError,
} from '@loglake/lakehouse';
import { localDataPath } from '../data-dir';
import { MAX_KEY_BYTES, MIN_PART_BYTES, s3Error } from './errors';

export interface ObjectInfo {
  key: string;
  size: number;
  lastModified: Date;
  etag: string;
}

export interface ListResult {
  objects: ObjectInfo[];
  commonPrefixes: string[];
  isTruncated: boolean;
  nextContinuationToken?: string;
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

/** The upload ids this store hands out: 32 hex digits (anything else names no upload). */
const UPLOAD_ID = /^[0-9a-f]{32}$/;

const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

export class LocalObjectStore {
  readonly root: string;
  /** Multipart uploads in progress, one folder per upload id (never under a bucket: not listed as objects). */
  private readonly uploadsRoot: string;

  constructor(dataDir: string) {
    this.root = resolve(localDataPath(dataDir, 's3'));
    this.uploadsRoot = resolve(localDataPath(dataDir, 'uploads'));
    mkdirSync(this.root, { recursive: true });
  }

  /** The bucket's folder (its name is a valid bucket name, so it is its own path component). */
  bucketDir(bucket: string): string {
    if (!BUCKET.test(bucket)) throw s3Error.invalidBucketName(bucket);
    return namedPath(this.root, [bucket]);
  }

  createBucket(bucket: string): void {
    const dir = this.bucketDir(bucket);
    if (existsSync(dir)) throw s3Error.alreadyOwned(bucket);
    mkdirSync(dir, { recursive: true });
  }

  hasBucket(bucket: string): boolean {
    return BUCKET.test(bucket) && existsSync(this.bucketDir(bucket));
  }

  listBuckets(): string[] {
    return readdirSync(this.root)
      .flatMap((entry) => decodeName([entry]) ?? [])
      .filter((name) => BUCKET.test(name))
      .sort();
  }

  deleteBucket(bucket: string): void {
    const dir = this.requireBucket(bucket);
    if (objectsUnder(dir).length > 0) throw s3Error.notEmpty(bucket);
    rmSync(dir, { recursive: true, force: true });
  }

  private requireBucket(bucket: string): string {
    const dir = this.bucketDir(bucket);
    if (!existsSync(dir)) throw s3Error.noSuchBucket(bucket);
    return dir;
  }

  /**
   * The file behind a key. A key is an opaque string (S3: any UTF-8 up to 1,024 bytes): it is stored encoded, one
   * path component per segment (io/stored-paths), so the object authorized as `prefix/..%2Fx` or `prefix/../x` is
   * exactly the one stored, inside `prefix/`.
   */
  private fileOf(bucket: string, key: string): string {
    const dir = this.requireBucket(bucket);
    if (!key) throw s3Error.invalidArgument('An object key must not be empty.');
    if (Buffer.byteLength(key, 'utf8') > MAX_KEY_BYTES) throw s3Error.keyTooLong(key);
    try {
      return objectPath(dir, key);
    } catch (error) {
      if (error instanceof StoredNameError)
        throw s3Error.invalidArgument(`Invalid object key ${JSON.stringify(key)}: ${error.message}`);
      throw error;
    }
  }

  put(bucket: string, key: string, body: Buffer): ObjectInfo {
    return this.write(bucket, key, (temp) => writeFileSync(temp, body));
  }

  /** The object's file written aside by `fill`, then moved into place (readers see the old or the new bytes). */
  private write(bucket: string, key: string, fill: (temp: string) => void): ObjectInfo {
    const file = this.fileOf(bucket, key);
    const temp = this.tempFile(bucket);
    try {
      fill(temp);
      this.moveInto(temp, file);
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

  /**
   * Moves a prepared file in as the object `key` (written aside, so it appears whole). With `durable`, the folder is
   * synced after the rename. `createBucket`: the bucket's folder is made if it is missing (Firehose's error bucket).
   */
  placeFile(
    bucket: string,
    key: string,
    source: string,
    options: { durable?: boolean; createBucket?: boolean } = {},
  ): void {
    if (options.createBucket) mkdirSync(this.bucketDir(bucket), { recursive: true });
    const file = this.fileOf(bucket, key);
    this.moveInto(source, file);
    if (options.durable) {
      const fd = openSync(dirname(file), 'r');
      try {
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
    }
  }

  /** True when the object exists (a bucket that does not exist holds none). */
  exists(bucket: string, key: string): boolean {
    if (!this.hasBucket(bucket)) return false;
    const file = this.fileOf(bucket, key);
    return existsSync(file) && statSync(file).isFile();
  }

  /** The object's bytes, or undefined when there is none. */
  read(bucket: string, key: string): Buffer | undefined {
    return this.exists(bucket, key) ? readFileSync(this.fileOf(bucket, key)) : undefined;
  }

  private moveInto(source: string, file: string): void {
    mkdirSync(dirname(file), { recursive: true });
    renameSync(source, file);
  }

  /** A temporary file beside the bucket's objects (a folder the key layout never writes: it starts with a dot). */
  private tempFile(bucket: string): string {
    const dir = join(this.requireBucket(bucket), '.uploads');
    mkdirSync(dir, { recursive: true });
    return join(dir, randomUUID());
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
    const objects = objectsUnder(dir, prefix);
    const entries: { key: string; prefix?: string; path?: string }[] = [];
    const seen = new Set<string>();
    for (const object of objects) {
      const rest = object.key.slice(prefix.length);
      const cut = options.delimiter ? rest.indexOf(options.delimiter) : -1;
      if (cut >= 0) {
        const common = prefix + rest.slice(0, cut + (options.delimiter?.length ?? 0));
        if (!seen.has(common)) {
          seen.add(common);
          entries.push({ key: common, prefix: common });
        }
      } else entries.push({ key: object.key, path: object.path });
    }
    const after = options.startAfter;
    const remaining = after ? entries.filter((e) => compareKeys(e.key, after) > 0) : entries;
    const page = remaining.slice(0, maxKeys);
    const isTruncated = remaining.length > page.length;
    return {
      objects: page.flatMap((e) => (e.path ? [infoOf(e.key, e.path)] : [])),
      commonPrefixes: page.flatMap((e) => (e.prefix ? [e.prefix] : [])),
      isTruncated,
      nextContinuationToken: isTruncated
        ? Buffer.from(page[page.length - 1]?.key ?? '').toString('base64')
        : undefined,
    };
  }

  private pruneEmptyDirs(dir: string, stop: string): void {
    let current = dir;
    while (current.startsWith(stop + sep) && existsSync(current) && readdirSync(current).length === 0) {
      rmSync(current, { recursive: true, force: true });
      current = dirname(current);
    }
  }
}

function infoOf(key: string, file: string): ObjectInfo {
  const stat = statSync(file);
  return { key, size: stat.size, lastModified: stat.mtime, etag: etagOf(file) };
}

function etagOf(file: string): string {
  return `"${createHash('md5').update(readFileSync(file)).digest('hex')}"`;
}

export function decodeContinuationToken(token: string | null): string | undefined {
  return token ? Buffer.from(token, 'base64').toString('utf8') : undefined;
}

const unquote = (etag: string) => etag.replace(/^"|"$/g, '');
