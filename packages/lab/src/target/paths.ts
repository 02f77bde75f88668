// Where the lab keeps things, relative to the repository: plain values, light to import.
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
export const DEFAULT_LOCAL_DATA_DIR = resolve(REPO_ROOT, '.lab/local');
