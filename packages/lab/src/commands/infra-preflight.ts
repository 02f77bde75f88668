// What `pnpm lab plan|deploy|destroy` can check before it starts cdktf, offline: a Terraform (or OpenTofu) new enough
// for the S3 backend's use_lockfile, the lab's alert address (deploy), and AWS credentials the standard chain would
// find. Every problem is reported at once, each with its fix, so one round of fixes is enough; none of this says the
// credentials work or the account is ready — Terraform and the apply-time checks find that out.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { ResolvedLab } from '@loglake/units';
import { alertAddressProblem } from '@loglake/stacks/access';
import { LabError } from '../errors';

const run = promisify(execFile);

/** use_lockfile (S3-native state locking) arrived in Terraform 1.10 and OpenTofu 1.10. */
export const MIN_TERRAFORM = '1.10.0';

export class InfraPreflightError extends LabError {
  override readonly name = 'InfraPreflightError';
}

export type PreflightCommand = 'plan' | 'deploy' | 'destroy';

export interface PreflightOptions {
  /** The binary on PATH (terraform or tofu), if any. */
  readonly binary: string | undefined;
  /** Its version (`<binary> version -json`); injectable for tests. */
  readonly version?: (binary: string) => Promise<string | undefined>;
  readonly home?: string;
}

const compare = (a: string, b: string) => {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < 3; i++) if ((pa[i] ?? 0) !== (pb[i] ?? 0)) return (pa[i] ?? 0) - (pb[i] ?? 0);
  return 0;
};

/** `terraform version -json` (OpenTofu answers the same way): its terraform_version, or undefined. */
export async function binaryVersion(binary: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  try {
    const { stdout } = await run(binary, ['version', '-json'], {
      env: { ...env, CHECKPOINT_DISABLE: '1' },
      timeout: 30_000,
    });
    const version = (JSON.parse(stdout) as { terraform_version?: unknown }).terraform_version;
    return typeof version === 'string' ? version : undefined;
  } catch {
    return undefined;
  }
}

/** Section names of an AWS shared config or credentials file (`[default]`, `[profile x]`). */
function profilesIn(file: string): Set<string> {
  if (!existsSync(file)) return new Set();
  const names = [...readFileSync(file, 'utf8').matchAll(/^\s*\[\s*([^\]]+?)\s*\]/gm)].map((m) => m[1]!);
  return new Set(names.map((n) => n.replace(/^profile\s+/, '')));
}

/**
 * Whether the SDK's default chain has somewhere to look (AWS SDK and CLI docs, "credential provider chain"): keys in
 * the environment, a web identity token, a container endpoint, or the profile in the shared files. Undefined when it
 * has; otherwise what is missing. Instance metadata cannot be checked offline: an instance role is used through a
 * profile with `credential_source = Ec2InstanceMetadata`.
 */
export function credentialsProblem(env: NodeJS.ProcessEnv, home: string = homedir()): string | undefined {
  if (env.AWS_ACCESS_KEY_ID && !env.AWS_SECRET_ACCESS_KEY)
    return 'AWS_ACCESS_KEY_ID is set but AWS_SECRET_ACCESS_KEY is not: export both (and AWS_SESSION_TOKEN for temporary credentials)';
  if (env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY) return undefined;
  if (env.AWS_WEB_IDENTITY_TOKEN_FILE && env.AWS_ROLE_ARN) return undefined;
  if (env.AWS_CONTAINER_CREDENTIALS_RELATIVE_URI || env.AWS_CONTAINER_CREDENTIALS_FULL_URI) return undefined;
  const profile = env.AWS_PROFILE || env.AWS_DEFAULT_PROFILE || 'default';
  const credentialsFile = env.AWS_SHARED_CREDENTIALS_FILE || join(home, '.aws', 'credentials');
  const configFile = env.AWS_CONFIG_FILE || join(home, '.aws', 'config');
  if (profilesIn(credentialsFile).has(profile) || profilesIn(configFile).has(profile)) return undefined;
  return (
    `no AWS credentials for Terraform to use: none in the environment (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, ` +
    `AWS_WEB_IDENTITY_TOKEN_FILE with AWS_ROLE_ARN, a container credentials endpoint) and no profile "${profile}" in ` +
    `${credentialsFile} or ${configFile}. Sign in to the sandbox account (aws configure, aws sso login, or export ` +
    'credentials; AWS_PROFILE picks a profile; an EC2 instance role is used through a profile with ' +
    'credential_source = Ec2InstanceMetadata)'
  );
}

/** Every problem found, in the order a user fixes them; empty when cdktf may start. */
export async function infraPreflight(
  command: PreflightCommand,
  lab: ResolvedLab,
  units: readonly string[],
  env: NodeJS.ProcessEnv,
  options: PreflightOptions,
): Promise<string[]> {
  const problems: string[] = [];
  const wanted = env.TERRAFORM_BINARY_NAME;
  if (!options.binary) {
    problems.push(
      `no ${wanted ?? 'terraform or tofu'} binary on PATH: install Terraform >= 1.10 or OpenTofu >= 1.10 (the S3 backend uses use_lockfile)` +
        (wanted ? ` or unset TERRAFORM_BINARY_NAME=${wanted}` : ''),
    );
  } else {
    const version = await (options.version ?? ((b) => binaryVersion(b, env)))(options.binary);
    if (!version)
      problems.push(
        `\`${options.binary} version -json\` did not say which version it is: check that ${options.binary} on PATH is Terraform >= 1.10 or OpenTofu >= 1.10`,
      );
    else if (compare(version, MIN_TERRAFORM) < 0)
      problems.push(
        `${options.binary} ${version} is older than ${MIN_TERRAFORM} (the S3 backend's use_lockfile and the removed blocks need it): install Terraform >= 1.10 or OpenTofu >= 1.10`,
      );
  }
  if (command === 'deploy' && units.includes('table-bucket')) {
    const problem = alertAddressProblem(lab.units['table-bucket'].inputs.alertEmail);
    if (problem)
      problems.push(
        `the lab's alert subscription ${problem}: export LOGLAKE_ALERT_EMAIL=<the address that receives the lab's alerts> (confirm the subscription mail after the deploy)`,
      );
  }
  const credentials = credentialsProblem(env, options.home);
  if (credentials) problems.push(credentials);
  return problems;
}

/** The refusal: every problem, numbered, and that nothing ran. */
export function preflightRefusal(
  command: PreflightCommand,
  problems: readonly string[],
): InfraPreflightError {
  const verb = command === 'plan' ? 'planned' : command === 'deploy' ? 'deployed' : 'destroyed';
  return new InfraPreflightError(
    `pnpm lab ${command} did not start cdktf, so nothing was ${verb}. Fix ${problems.length === 1 ? 'this' : `these ${problems.length}`} first:\n` +
      problems.map((p, n) => `  ${n + 1}. ${p}`).join('\n') +
      '\nWithout Terraform or credentials, pnpm lab synth still writes the configuration (cdktf.out/).',
    problems,
  );
}
