// What to do about errors of other packages that users meet first: recognised by their type (the error's name, as
// the AWS SDK sets it), never by their message text.

/** The credential chain's own errors (@smithy/property-provider): nothing in it gave credentials. */
const NO_CREDENTIALS = new Set(['CredentialsProviderError', 'TokenProviderError']);
/** AWS's answers to credentials it does not accept (STS, and every service's common errors). */
const BAD_CREDENTIALS = new Set([
  'ExpiredToken',
  'ExpiredTokenException',
  'InvalidClientTokenId',
  'UnrecognizedClientException',
  'InvalidSignatureException',
  'SignatureDoesNotMatch',
]);

export const CREDENTIALS_HINT =
  'Give the AWS SDK credentials in one of the standard ways, then run again: a profile ' +
  '(`aws configure --profile <name>`, then `export AWS_PROFILE=<name>`), IAM Identity Center / SSO ' +
  '(`aws configure sso`, then `aws sso login --profile <name>` and `export AWS_PROFILE=<name>`), or environment ' +
  'variables (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, plus AWS_SESSION_TOKEN for temporary ones). ' +
  '`aws sts get-caller-identity` shows whether they work.';

/** A line saying how to fix the error, or undefined when the error's own message is all there is to say. */
export function errorHint(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  if (NO_CREDENTIALS.has(error.name)) return `No AWS credentials were found. ${CREDENTIALS_HINT}`;
  if (BAD_CREDENTIALS.has(error.name))
    return `AWS did not accept the credentials (expired or wrong). ${CREDENTIALS_HINT}`;
  return undefined;
}

/** "<name>: <message>", and the hint when there is one (one line each). */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const hint = errorHint(error);
  return `${error.name}: ${error.message}${hint ? ` — ${hint}` : ''}`;
}
