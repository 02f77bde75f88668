// @loglake/deploy-checks: the checks Terraform runs through local-exec while it applies or destroys — what Terraform
// alone cannot see or wait for. The stacks reference the *-cli.ts entries by path.
export {
  DeployCheckError,
  DeployCheckInputError,
  DestroyNotConfirmedError,
  FederationTimeoutError,
  IntegrationStateError,
} from './errors';
export { CONFIRM_DESTROY_ENV, confirmDestroy } from './confirm-destroy';
export {
  findIntegration,
  judgeIntegration,
  preflightIntegration,
  type IntegrationMode,
} from './integration-preflight';
export { waitForFederation, type WaitForFederationInput } from './wait-for-federation';
