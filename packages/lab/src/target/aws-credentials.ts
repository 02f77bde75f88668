// Before a command sends anything to AWS: the standard credential chain must give credentials. Without them every
// call fails the same way; one message saying how to give them beats a failed row per experiment.
import { CREDENTIALS_HINT, errorHint } from '../error-hints';
import { TargetNotReadyError } from '../errors';
import type { LabTarget } from './lab-target';

export async function requireAwsCredentials(target: LabTarget): Promise<void> {
  if (target.kind !== 'aws') return;
  const provider = target.athena.config.credentials;
  try {
    await provider();
  } catch (error) {
    // The chain's own error type says "nothing gave credentials"; anything else is the chain failing otherwise.
    if (!errorHint(error)) throw error;
    const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    throw new TargetNotReadyError(
      `--target aws needs AWS credentials and the standard chain found none (${reason}). ${CREDENTIALS_HINT}`,
      { value: 'credentials', cause: error },
    );
  }
}
