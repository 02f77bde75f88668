// `terraform validate` of synthesized stacks with whatever Terraform and AWS provider this machine has, offline: a
// provider from a filesystem mirror (Terraform's provider_installation { filesystem_mirror }). The mirror's provider
// may be older than the one the stacks pin; then its diagnostics for the newer arguments are expected
// (NEWER_PROVIDER_FEATURES, each with the release that introduced it): the harness strips each expected feature and
// validates again, so everything else is still checked by the real provider schema. Any other diagnostic is a finding.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';
import {
  compareVersions,
  NEWER_PROVIDER_FEATURES,
  type NewerProviderFeature,
  type TerraformJson,
  type ValidateDiagnostic,
} from '../lib/provider-version';

const run = promisify(execFile);

export interface TerraformToolchain {
  readonly terraform: string;
  /** A directory holding `registry.terraform.io/hashicorp/aws/<version>/<os>_<arch>/`. */
  readonly mirror: string;
  readonly awsVersion: string;
}

/** Where machines commonly keep a provider mirror (Terraform's implied local mirror directories, and /opt). */
export function mirrorCandidates(env: NodeJS.ProcessEnv): string[] {
  return [
    env.LOGLAKE_TF_PROVIDER_MIRROR,
    '/opt/tf-plugins',
    join(homedir(), '.terraform.d', 'plugins'),
    join(homedir(), '.local', 'share', 'terraform', 'plugins'),
    '/usr/local/share/terraform/plugins',
    '/usr/share/terraform/plugins',
  ].filter((p): p is string => Boolean(p));
}

const PLATFORM = `${process.platform}_${process.arch === 'x64' ? 'amd64' : process.arch}`;

function onPath(name: string, pathEnv: string | undefined): string | undefined {
  if (name.includes('/')) return existsSync(name) ? name : undefined;
  for (const dir of (pathEnv ?? '').split(delimiter).filter(Boolean)) {
    if (existsSync(join(dir, name))) return join(dir, name);
  }
  return undefined;
}

/** The newest mirrored hashicorp/aws version for this platform in `mirror`, or undefined. */
export function mirroredAwsVersion(mirror: string): string | undefined {
  const dir = join(mirror, 'registry.terraform.io', 'hashicorp', 'aws');
  if (!existsSync(dir)) return undefined;
  return readdirSync(dir)
    .filter((v) => /^\d+\.\d+\.\d+$/.test(v) && existsSync(join(dir, v, PLATFORM)))
    .sort(compareVersions)
    .at(-1);
}

/** The machine's Terraform and mirrored AWS provider, or why there is none. */
export function findToolchain(
  env: NodeJS.ProcessEnv = process.env,
): TerraformToolchain | { missing: string } {
  const terraform = onPath(env.LOGLAKE_TERRAFORM ?? 'terraform', env.PATH);
  if (!terraform) return { missing: 'no terraform binary on PATH (or LOGLAKE_TERRAFORM)' };
  const candidates = mirrorCandidates(env);
  for (const mirror of candidates) {
    const awsVersion = mirroredAwsVersion(mirror);
    if (awsVersion) return { terraform, mirror, awsVersion };
  }
  return {
    missing: `no hashicorp/aws provider for ${PLATFORM} in a filesystem mirror (looked in ${candidates.join(', ')}; set LOGLAKE_TF_PROVIDER_MIRROR)`,
  };
}

export interface ExpectedFinding {
  readonly feature: NewerProviderFeature;
  readonly diagnostic: ValidateDiagnostic;
}

export interface StackValidation {
  readonly valid: boolean;
  /** Diagnostics explained by the mirrored provider being older than a feature the stacks use. */
  readonly expected: readonly ExpectedFinding[];
  /** Everything else: findings. */
  readonly unexpected: readonly ValidateDiagnostic[];
  readonly runs: number;
}

/** Validates one stack's JSON in `workDir` with the toolchain's provider pinned in place of the stack's pin. */
export async function validateStack(
  source: TerraformJson,
  toolchain: TerraformToolchain,
  workDir: string,
): Promise<StackValidation> {
  const json = structuredClone(source) as TerraformJson & {
    terraform?: { backend?: unknown; required_providers?: { aws?: { version?: string } } };
  };
  // The stacks pin a newer provider than any mirror here may hold; the backend needs credentials.
  if (json.terraform?.required_providers?.aws)
    json.terraform.required_providers.aws.version = toolchain.awsVersion;
  delete json.terraform?.backend;
  mkdirSync(workDir, { recursive: true });
  const cliConfig = join(workDir, 'terraform.rc');
  writeFileSync(
    cliConfig,
    `provider_installation {\n  filesystem_mirror {\n    path    = ${JSON.stringify(toolchain.mirror)}\n    include = ["registry.terraform.io/hashicorp/aws"]\n  }\n}\n`,
  );
  const env = {
    ...process.env,
    TF_CLI_CONFIG_FILE: cliConfig,
    TF_IN_AUTOMATION: '1',
    CHECKPOINT_DISABLE: '1',
    TF_PLUGIN_CACHE_DIR: '',
  };
  const write = () => writeFileSync(join(workDir, 'main.tf.json'), JSON.stringify(json, null, 1));
  write();
  await run(toolchain.terraform, ['init', '-backend=false', '-input=false', '-no-color'], {
    cwd: workDir,
    env,
  });
  const expected: ExpectedFinding[] = [];
  for (let runs = 1; runs <= NEWER_PROVIDER_FEATURES.length + 1; runs++) {
    // validate exits 1 on errors; its JSON is on stdout either way.
    const out = await run(toolchain.terraform, ['validate', '-json', '-no-color'], {
      cwd: workDir,
      env,
      maxBuffer: 16 * 1024 * 1024,
    }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
    const report = JSON.parse(out.stdout) as { valid: boolean; diagnostics: ValidateDiagnostic[] };
    const errors = report.diagnostics.filter((d) => d.severity === 'error');
    if (errors.length === 0) return { valid: report.valid, expected, unexpected: [], runs };
    const older = NEWER_PROVIDER_FEATURES.filter(
      (f) => compareVersions(toolchain.awsVersion, f.introducedIn) < 0,
    );
    const unexpected: ValidateDiagnostic[] = [];
    // A feature stripped in an earlier round that still draws a diagnostic was not the cause: a finding.
    const strippedBefore = new Set(expected.map((e) => e.feature));
    const strip = new Set<NewerProviderFeature>();
    for (const d of errors) {
      const feature = older.find((f) => f.matches(d));
      if (!feature || strippedBefore.has(feature)) unexpected.push(d);
      else {
        expected.push({ feature, diagnostic: d });
        strip.add(feature);
      }
    }
    if (unexpected.length > 0) return { valid: false, expected, unexpected, runs };
    for (const feature of strip) feature.strip(json);
    write();
  }
  return { valid: false, expected, unexpected: [], runs: NEWER_PROVIDER_FEATURES.length + 1 };
}
