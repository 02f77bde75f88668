// The cdktf app command (cdktf.json `app`) and the way `cdktf synth` runs it: through a shell, in the repo root, with
// CDKTF_OUTDIR and the variables cdktf-cli 0.21 sets. The synth bench and the app-entry test run exactly this, so
// what they measure and prove is what `cdktf synth` does; appCommandFor runs another entry with the same runner.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { UnitsError } from './errors';
import { UNITS_DIR } from './load';

export const REPO_ROOT = join(UNITS_DIR, '..');
/** The app entry cdktf.json must name. */
export const APP_ENTRY = 'units/main.ts';

/** cdktf.json's `app`, checked to run units/main.ts. */
export function appCommand(repoRoot: string = REPO_ROOT): string {
  const file = join(repoRoot, 'cdktf.json');
  const { app } = JSON.parse(readFileSync(file, 'utf8')) as { app?: unknown };
  if (typeof app !== 'string' || !app.split(/\s+/).includes(APP_ENTRY))
    throw new UnitsError(
      `cdktf.json: app is ${JSON.stringify(app)}; it must run ${APP_ENTRY} (e.g. "node --import tsx ${APP_ENTRY}")`,
      { value: app },
    );
  return app;
}

/** The app command with another entry (and arguments) in place of units/main.ts: same runner, other program. */
export function appCommandFor(
  entry: string,
  args: readonly string[] = [],
  repoRoot: string = REPO_ROOT,
): string {
  return appCommand(repoRoot)
    .split(/\s+/)
    .map((word) => (word === APP_ENTRY ? [entry, ...args].join(' ') : word))
    .join(' ');
}

/** The environment `cdktf synth` gives the app (cdktf-cli 0.21: synth-stack), over `base`. */
export function cdktfAppEnv(outdir: string, base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(base).filter(([k]) => !k.startsWith('TF_VAR_')));
  return {
    ...env,
    // cdktf-cli raises the heap limit unless NODE_OPTIONS is already set.
    NODE_OPTIONS: env.NODE_OPTIONS || '--max-old-space-size=4096',
    CDKTF_OUTDIR: outdir,
    CDKTF_CONTINUE_SYNTH_ON_ERROR_ANNOTATIONS: 'true',
    CDKTF_CONTEXT_JSON: JSON.stringify({ cdktfRelativeModules: [] }),
    SYNTH_HCL_OUTPUT: 'false',
  };
}
