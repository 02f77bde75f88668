// The one check of AWS credentials every aws-target command makes before it sends anything (`pnpm lab --target aws`,
// `lab run`, `load`, `query`, and `lab plan|deploy|destroy` before cdktf starts): the AWS SDK's default credential
// chain is asked for credentials, as every client of the lab asks it — environment, shared config and credentials
// files (profiles, IAM Identity Center / SSO, credential_process, assumed roles), web identity, container and
// instance metadata ("Set credentials in Node.js", AWS SDK for JavaScript v3 Developer Guide:
// https://docs.aws.amazon.com/sdk-for-javascript/v3/developer-guide/setting-credentials-node.html). So a profile
// that names no credentials, or an SSO session that expired, is found here, and every command says the same thing.
// Terraform's AWS provider reads the same standard sources.
import { STSClient } from '@aws-sdk/client-sts';
import { CREDENTIALS_HINT, errorHint } from '../error-hints';
import { TargetNotReadyError } from '../errors';
import type { LabTarget } from './lab-target';

export type CredentialsSource = () => Promise<unknown>;

/** The SDK's default chain, exactly as a client built with no credentials resolves it. */
export function defaultCredentialChain(region: string): CredentialsSource {
  const client = new STSClient({ region });
  return () => client.config.credentials();
}

/**
 * Undefined when `source` gives credentials; otherwise the problem and how to give them. An error of the chain
 * other than "none found" (a malformed config file, say) is the problem itself, named.
 */
export async function awsCredentialsProblem(source: CredentialsSource): Promise<string | undefined> {
  try {
    await source();
    return undefined;
  } catch (error) {
    const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    return errorHint(error)
      ? `needs AWS credentials and the AWS SDK's default chain found none (${reason}). ${CREDENTIALS_HINT}`
      : `needs AWS credentials and the AWS SDK's default chain failed (${reason}). ${CREDENTIALS_HINT}`;
  }
}

/** Before a command sends anything to AWS: one message saying how to give credentials, not a failure per call. */
export async function requireAwsCredentials(target: LabTarget): Promise<void> {
  if (target.kind !== 'aws') return;
  await requireCredentialsFrom(() => target.athena.config.credentials());
}

/** The same, for a command with a client of its own (its `config.credentials`: the client's default chain). */
export async function requireCredentialsFrom(source: CredentialsSource): Promise<void> {
  let cause: unknown;
  const problem = await awsCredentialsProblem(() =>
    source().catch((error: unknown) => {
      cause = error;
      throw error;
    }),
  );
  if (problem) throw new TargetNotReadyError(`--target aws ${problem}`, { value: 'credentials', cause });
}
