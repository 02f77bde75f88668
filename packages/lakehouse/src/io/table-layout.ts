// Where a table's files live (the file-system catalog layout): metadata/vN.metadata.json + version-hint.text,
// UUID-named manifests and manifest lists, data and delete files under data/.
import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { exists, readText, replaceAtomically, toPath, toUri } from './file-io';

export class TableLayout {
  /** @param location the table location URI (file://...) */
  constructor(readonly location: string) {}

  get root(): string {
    return toPath(this.location);
  }

  get metadataDir(): string {
    return join(this.root, 'metadata');
  }

  get dataDir(): string {
    return join(this.root, 'data');
  }

  metadataFile(version: number): string {
    return join(this.metadataDir, `v${version}.metadata.json`);
  }

  get versionHintFile(): string {
    return join(this.metadataDir, 'version-hint.text');
  }

  newManifestPath(): string {
    return join(this.metadataDir, `${randomUUID()}-m0.avro`);
  }

  newManifestListPath(snapshotId: number): string {
    return join(this.metadataDir, `snap-${snapshotId}-1-${randomUUID()}.avro`);
  }

  /** Directory for data files of one partition (`data/<name>=<value>/...`). */
  partitionDir(partitionPath: string): string {
    return partitionPath === '' ? this.dataDir : join(this.dataDir, partitionPath);
  }

  newDeleteFilePath(partitionPath: string): string {
    return join(this.partitionDir(partitionPath), `${randomUUID()}-deletes.parquet`);
  }

  uri(path: string): string {
    return toUri(path);
  }

  /** The latest committed metadata version: version-hint is only a hint, the highest vN that exists wins. */
  async latestVersion(): Promise<number> {
    const hint = Number((await readText(this.versionHintFile))?.trim() ?? '0');
    let version = Number.isInteger(hint) && hint > 0 ? hint : 0;
    if (version > 0 && !(await exists(this.metadataFile(version)))) version = await this.scanVersions();
    while (await exists(this.metadataFile(version + 1))) version += 1;
    return version;
  }

  private async scanVersions(): Promise<number> {
    const names = await fs.readdir(this.metadataDir).catch(() => [] as string[]);
    return Math.max(
      0,
      ...names
        .map((n) => /^v(\d+)\.metadata\.json$/.exec(n)?.[1])
        .filter(Boolean)
        .map(Number),
    );
  }

  async writeVersionHint(version: number): Promise<void> {
    await replaceAtomically(this.versionHintFile, String(version), { durable: false });
  }
}
