// Bundles each Lambda entry with esbuild into its own directory (index.mjs + the SQL templates it renders), ready
// for a cdktf TerraformAsset (archive). The AWS SDK is bundled too, pinned at the workspace's version, instead of
// trusting whatever the runtime ships. Deterministic: same sources → same bytes → same asset hash.
import { buildSync } from 'esbuild';
import { copyFileSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const HANDLERS = {
  resolveWatermark: 'resolve-watermark',
  buildSnapshot: 'build-snapshot',
} as const;
export type HandlerName = keyof typeof HANDLERS;

const SRC = fileURLToPath(new URL('./handlers/', import.meta.url));
const SQL = fileURLToPath(new URL('../../../sql/snapshots/', import.meta.url));

// nunjucks is CommonJS and requires node built-ins: give the ESM bundle a real `require`.
const BANNER =
  "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);";

export interface BundleResult {
  handler: HandlerName;
  directory: string;
  entry: string;
  bytes: number;
}

export function bundleHandler(handler: HandlerName, outRoot: string): BundleResult {
  const directory = join(outRoot, HANDLERS[handler]);
  rmSync(directory, { recursive: true, force: true });
  mkdirSync(join(directory, 'sql', 'snapshots'), { recursive: true });
  const result = buildSync({
    entryPoints: [join(SRC, `${HANDLERS[handler]}.ts`)],
    outfile: join(directory, 'index.mjs'),
    bundle: true,
    platform: 'node',
    target: 'node22',
    format: 'esm',
    banner: { js: BANNER },
    // Optional watch-mode dependency of nunjucks, never loaded by a Lambda.
    external: ['chokidar', 'fsevents'],
    legalComments: 'none',
    metafile: true,
    logLevel: 'silent',
  });
  for (const file of readdirSync(SQL)) {
    if (file.endsWith('.sql.njk')) copyFileSync(join(SQL, file), join(directory, 'sql', 'snapshots', file));
  }
  const bytes = Object.values(result.metafile?.outputs ?? {}).reduce((sum, o) => sum + o.bytes, 0);
  return { handler, directory, entry: 'index.handler', bytes };
}

export function bundleHandlers(outRoot: string): Record<HandlerName, BundleResult> {
  return {
    resolveWatermark: bundleHandler('resolveWatermark', outRoot),
    buildSnapshot: bundleHandler('buildSnapshot', outRoot),
  };
}
