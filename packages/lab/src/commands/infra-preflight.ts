// What `pnpm lab plan|deploy|destroy` can check before it starts cdktf, offline: a Terraform (or OpenTofu) new enough
// for the S3 backend's use_lockfile, the lab's alert address (deploy), and AWS credentials from the AWS SDK's default
// chain (target/aws-credentials.ts, the check every aws-target command makes). Every problem is reported at once, each with its fix, so one round of fixes is enough; none of this says the
// credentials work or the account is ready — Terraform and the apply-time checks find that out.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { ResolvedLab } from '@loglake/units';
import { alertAddressProblem } from '@loglake/stacks/access';
import { LabError } from '../errors';
import {
  awsCredentialsProblem,
  defaultCredentialChain,
  type CredentialsSource,
} from '../target/aws-credentials';

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
  /** Where credentials come from (default: the AWS SDK's default chain, as every aws-target command checks). */
  readonly credentials?: CredentialsSource;
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
  const region = env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? lab.units['table-bucket'].region;
  const credentials = await awsCredentialsProblem(options.credentials ?? defaultCredentialChain(region));
  if (credentials) problems.push(`Terraform ${credentials}`);
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
    { value: problems },
  );
}
