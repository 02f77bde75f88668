// The one reader of the environment Terraform hands a check (local-exec `environment`, from self.input).
import { DeployCheckInputError } from './errors';

export function requiredEnv(env: NodeJS.ProcessEnv, name: string, what: string): string {
  const value = env[name];
  if (value === undefined || value.trim() === '')
    throw new DeployCheckInputError(
      `${name} is not set (${what}); Terraform passes it from the terraform_data input — run the check through cdktf deploy/destroy, or set it yourself`,
      { value: name },
    );
  return value.trim();
}

export function positiveSeconds(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 3600)
    throw new DeployCheckInputError(`${name}="${raw}" must be a whole number of seconds from 1 to 3600`, {
      value: raw,
    });
  return n;
}

/** The region of a resource ARN (`arn:<partition>:<service>:<region>:…`), or undefined. */
export function regionOfArn(arn: string): string | undefined {
  return arn.split(':')[3] || undefined;
}
