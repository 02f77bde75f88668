// The persistent catalog in the data directory, shaped like S3 Tables: one JSON file per table bucket,
// namespace and table. Creation uses exclusive create, so two processes cannot both create the same name.
// A table's entry holds its location; the current metadata version is the highest committed vN file there.
import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { readText } from '../io/file-io';
import { decodeName, listNames, namedPath } from '../io/stored-paths';

export interface BucketRecord {
  name: string;
  createdAt: string;
}

export interface NamespaceRecord {
  bucket: string;
  namespace: string;
  createdAt: string;
}

export interface TableRecord {
  bucket: string;
  namespace: string;
  name: string;
  /** Table location URI. */
  location: string;
  createdAt: string;
}

export class CatalogStore {
  constructor(readonly dataDir: string) {}

  // Every path is made by the stored-name mapping (io/stored-paths): a name is one component, never a path.
  private get root(): string {
    return namedPath(this.dataDir, ['catalog', 'buckets']);
  }
  bucketDir(bucket: string): string {
    return namedPath(this.dataDir, ['catalog', 'buckets', bucket]);
  }
  namespaceDir(bucket: string, namespace: string): string {
    return namedPath(this.dataDir, ['catalog', 'buckets', bucket, 'namespaces', namespace]);
  }
  private tablesNames(bucket: string, namespace: string): string[] {
    return ['catalog', 'buckets', bucket, 'namespaces', namespace, 'tables'];
  }
  private tablesDir(bucket: string, namespace: string): string {
    return namedPath(this.dataDir, this.tablesNames(bucket, namespace));
  }
  private tableFile(bucket: string, namespace: string, name: string): string {
    return namedPath(this.dataDir, [...this.tablesNames(bucket, namespace), name], '.json');
  }

  /** Directory for a new table's files: unique, so a dropped and re-created table never shares files. */
  newTableLocation(bucket: string, namespace: string, name: string): string {
    return namedPath(this.dataDir, ['warehouse', bucket, namespace, `${name}-${randomUUID().slice(0, 8)}`]);
  }

  get tempDir(): string {
    return join(this.dataDir, 'tmp');
  }

  private async createJson(path: string, record: object): Promise<boolean> {
    try {
      await fs.writeFile(path, JSON.stringify(record, null, 2), { flag: 'wx' });
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw error;
    }
  }

  private async readJson<T>(path: string): Promise<T | null> {
    const text = await readText(path);
    return text === null ? null : (JSON.parse(text) as T);
  }

  private async listDir(path: string): Promise<string[]> {
    try {
      return (await fs.readdir(path)).sort();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
  }

  async createBucket(record: BucketRecord): Promise<boolean> {
    await fs.mkdir(this.bucketDir(record.name), { recursive: true });
    return this.createJson(join(this.bucketDir(record.name), 'bucket.json'), record);
  }
  getBucket(name: string): Promise<BucketRecord | null> {
    return this.readJson(join(this.bucketDir(name), 'bucket.json'));
  }
  async listBuckets(): Promise<BucketRecord[]> {
    const names = (await this.listDir(this.root)).flatMap((n) => decodeName([n]) ?? []);
    const records = await Promise.all(names.map((n) => this.getBucket(n)));
    return records.filter((r): r is BucketRecord => r !== null);
  }
  async deleteBucket(name: string): Promise<void> {
    await fs.rm(this.bucketDir(name), { recursive: true, force: true });
  }

  async createNamespace(record: NamespaceRecord): Promise<boolean> {
    await fs.mkdir(this.namespaceDir(record.bucket, record.namespace), { recursive: true });
    return this.createJson(
      join(this.namespaceDir(record.bucket, record.namespace), 'namespace.json'),
      record,
    );
  }
  getNamespace(bucket: string, namespace: string): Promise<NamespaceRecord | null> {
    return this.readJson(join(this.namespaceDir(bucket, namespace), 'namespace.json'));
  }
  async listNamespaces(bucket: string): Promise<NamespaceRecord[]> {
    const names = (await this.listDir(join(this.bucketDir(bucket), 'namespaces'))).flatMap(
      (n) => decodeName([n]) ?? [],
    );
    const records = await Promise.all(names.map((n) => this.getNamespace(bucket, n)));
    return records.filter((r): r is NamespaceRecord => r !== null);
  }
  async deleteNamespace(bucket: string, namespace: string): Promise<void> {
    await fs.rm(this.namespaceDir(bucket, namespace), { recursive: true, force: true });
  }

  async createTable(record: TableRecord): Promise<boolean> {
    await fs.mkdir(this.tablesDir(record.bucket, record.namespace), { recursive: true });
    return this.createJson(this.tableFile(record.bucket, record.namespace, record.name), record);
  }
  getTable(bucket: string, namespace: string, name: string): Promise<TableRecord | null> {
    return this.readJson(this.tableFile(bucket, namespace, name));
  }
  async listTables(bucket: string, namespace: string): Promise<TableRecord[]> {
    const names = listNames(this.dataDir, this.tablesNames(bucket, namespace), '.json');
    const records = await Promise.all(names.map((n) => this.getTable(bucket, namespace, n)));
    return records.filter((r): r is TableRecord => r !== null);
  }
  /** Adds the record under its new name (exclusive: false when that name is taken), then drops the old one. */
  async renameTable(from: TableRecord, to: TableRecord): Promise<boolean> {
    if (!(await this.createTable(to))) return false;
    await this.deleteTable(from.bucket, from.namespace, from.name);
    return true;
  }
  async deleteTable(bucket: string, namespace: string, name: string): Promise<boolean> {
    try {
      await fs.unlink(this.tableFile(bucket, namespace, name));
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
  }
}
