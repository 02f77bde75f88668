// General purpose buckets as S3 describes them: a creation date, a region and an owner, and the bucket's
// configurations (policy, versioning, lifecycle, encryption…; bucket-configurations.ts). The objects are the object
// store's (objects.ts); what S3 keeps about the bucket itself is a document in the endpoint's store. A bucket whose
// folder was made without one (Firehose's error output creates its bucket's folder) is dated by its folder.
import { statSync } from 'node:fs';
import { createHash } from 'node:crypto';
import type { JsonStore, StoreKey } from '../store';
import { s3Error } from './errors';
import type { LocalObjectStore } from './objects';

export interface BucketInfo {
  name: string;
  createdAt: Date;
  region: string;
}

interface BucketRecord {
  createdAt: string;
  region: string;
  /** A configuration's stored document (the Put's payload as the model reads it); absent = never put or deleted. */
  configurations: Record<string, unknown>;
}

/** S3's canonical user id of the endpoint's one account (64 hex digits, stable). */
export function canonicalUserId(accountId: string): string {
  return createHash('sha256').update(`loglake-local:${accountId}`).digest('hex');
}

export class Buckets {
  constructor(
    private readonly store: JsonStore,
    readonly objects: LocalObjectStore,
    /** The region of a bucket created without a LocationConstraint (the endpoint's region). */
    private readonly defaultRegion: string,
  ) {}

  private key(bucket: string): StoreKey {
    // The object store checks the name (S3's bucket naming rules) before it names anything.
    this.objects.bucketDir(bucket);
    return ['s3', 'buckets', bucket];
  }

  create(bucket: string, region = this.defaultRegion): BucketInfo {
    this.objects.createBucket(bucket);
    const record: BucketRecord = { createdAt: new Date().toISOString(), region, configurations: {} };
    this.store.write(this.key(bucket), record);
    return { name: bucket, createdAt: new Date(record.createdAt), region };
  }

  /** The bucket (NoSuchBucket when there is none). */
  info(bucket: string): BucketInfo {
    const record = this.record(bucket);
    return { name: bucket, createdAt: new Date(record.createdAt), region: record.region };
  }

  list(): BucketInfo[] {
    return this.objects.listBuckets().map((name) => this.info(name));
  }

  delete(bucket: string): void {
    this.objects.deleteBucket(bucket);
    this.store.delete(this.key(bucket));
  }

  configuration(bucket: string, name: string): unknown {
    return this.record(bucket).configurations[name];
  }

  setConfiguration(bucket: string, name: string, value: unknown): void {
    const record = this.record(bucket);
    if (value === undefined) delete record.configurations[name];
    else record.configurations[name] = value;
    this.store.write(this.key(bucket), record);
  }

  private record(bucket: string): BucketRecord {
    if (!this.objects.hasBucket(bucket)) throw s3Error.noSuchBucket(bucket);
    const stored = this.store.read<BucketRecord>(this.key(bucket));
    if (stored) return stored;
    const folder = statSync(this.objects.bucketDir(bucket));
    const born = folder.birthtimeMs > 0 ? folder.birthtime : folder.ctime;
    return { createdAt: born.toISOString(), region: this.defaultRegion, configurations: {} };
  }
}
