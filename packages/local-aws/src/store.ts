// Durable JSON documents in the data directory for the services' own state (streams, workgroups, query history,
// maintenance settings, policies). Writes go to a temp file then rename, so a crash never leaves half a document.
import { mkdirSync, readFileSync, renameSync, writeFileSync, existsSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { randomUUID } from 'node:crypto';

export class JsonStore {
  constructor(readonly root: string) {
    mkdirSync(root, { recursive: true });
  }

  read<T>(key: string): T | undefined {
    const file = this.fileOf(key);
    if (!existsSync(file)) return undefined;
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  }

  write(key: string, value: unknown): void {
    const file = this.fileOf(key);
    mkdirSync(dirname(file), { recursive: true });
    const temp = `${file}.${randomUUID()}.tmp`;
    writeFileSync(temp, JSON.stringify(value, null, 2));
    renameSync(temp, file);
  }

  delete(key: string): void {
    rmSync(this.fileOf(key), { force: true });
  }

  /** Keys directly under a folder key (`athena/queries` → ids). */
  list(folder: string): string[] {
    const dir = join(this.root, folder);
    if (!existsSync(dir)) return [];
    return readdirSync(dir)
      .filter((name) => name.endsWith('.json'))
      .map((name) => name.slice(0, -'.json'.length));
  }

  private fileOf(key: string): string {
    return join(this.root, `${key}.json`);
  }
}
