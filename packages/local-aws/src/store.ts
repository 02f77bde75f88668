// Durable JSON documents in the data directory for the services' own state (streams, workgroups, query history,
// maintenance settings, policies, sessions). A document is named by a list of names — fixed folders and the stored
// names of the service's resources (`['glue', 'tables', db, table]`) — and lies where the one name → path mapping
// (@loglake/lakehouse's stored paths) puts it: each name one component, never a path of its own. Writes go to a temp
// file then rename, so a crash never leaves half a document. A document that is not JSON reads as absent (the store
// holds only what it wrote; a damaged file is no caller's mistake to answer with a 500).
import { mkdirSync, readFileSync, renameSync, writeFileSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { randomUUID } from 'node:crypto';
import { listNames, namedPath } from '@loglake/lakehouse';

/** A document's name: folders and stored names, each one path component whatever it holds. */
export type StoreKey = readonly string[];

export class JsonStore {
  constructor(readonly root: string) {
    mkdirSync(root, { recursive: true });
  }

  read<T>(key: StoreKey): T | undefined {
    let text: string;
    try {
      text = readFileSync(this.fileOf(key), 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR') return undefined;
      throw error;
    }
    try {
      return JSON.parse(text) as T;
    } catch {
      return undefined;
    }
  }

  write(key: StoreKey, value: unknown): void {
    const file = this.fileOf(key);
    mkdirSync(dirname(file), { recursive: true });
    const temp = `${file}.${randomUUID()}.tmp`;
    writeFileSync(temp, JSON.stringify(value, null, 2));
    renameSync(temp, file);
  }

  delete(key: StoreKey): void {
    rmSync(this.fileOf(key), { force: true });
  }

  /** The names of the documents directly in a folder (`['athena', 'queries']` → query ids). */
  list(folder: StoreKey): string[] {
    return listNames(this.root, folder, '.json');
  }

  private fileOf(key: StoreKey): string {
    return namedPath(this.root, key, '.json');
  }
}
