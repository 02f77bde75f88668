// General purpose S3 buckets on local disk: `<dataDir>/s3/<bucket>/<key>`. Used for the snapshot bucket, whose
// objects the SQL engine writes (CTAS external_location) and reads (Glue tables located in it) directly as files;
// `localPath()` is the bridge from an s3:// URI to those files.
import { createHash } from 'node:crypto';
import {
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
};

export class LocalObjectStore {
  readonly root: string;

  constructor(dataDir: string) {
    this.root = resolve(localDataPath(dataDir, 's3'));
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

  /** When a bucket was created: its folder's birth time (its modification time where the file system keeps none). */
  bucketCreatedAt(bucket: string): Date {
    const s = statSync(this.bucketDir(bucket));
    return s.birthtimeMs > 0 ? s.birthtime : s.mtime;
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
    const file = this.fileOf(bucket, key);
    mkdirSync(dirname(file), { recursive: true });
    const temp = `${file}.${process.pid}.${Date.now()}.uploading`;
    writeFileSync(temp, body);
    renameSync(temp, file);
    return this.head(bucket, key);
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

function etagOf(file: string): string {
  return `"${createHash('md5').update(readFileSync(file)).digest('hex')}"`;
}

export function decodeContinuationToken(token: string | null): string | undefined {
  return token ? Buffer.from(token, 'base64').toString('utf8') : undefined;
}
