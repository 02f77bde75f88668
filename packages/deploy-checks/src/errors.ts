// Errors of the checks Terraform runs while it applies or destroys (local-exec). Messages say what to do next.
import { LoglakeError } from '@loglake/errors';

/** The root of this package's errors: the house's one shape, `new XError(message, { cause, value })`. */
export class DeployCheckError extends LoglakeError {
  override name: string = 'DeployCheckError';
}

/** A check's input (an environment variable Terraform passes) is missing or malformed. */
export class DeployCheckInputError extends DeployCheckError {
  override name = 'DeployCheckInputError';
}

/** The account's S3 Tables analytics integration is not in the state the unit's mode expects. */
export class IntegrationStateError extends DeployCheckError {
  override name = 'IntegrationStateError';
}

/** The deployer may not see what the preflight must look at: it is not (yet) a Lake Formation data lake administrator. */
export class DeployerNotAdminError extends DeployCheckError {
  override name = 'DeployerNotAdminError';
}

/** A federated namespace or table did not become visible through the Glue Data Catalog in time. */
export class FederationTimeoutError extends DeployCheckError {
  override name = 'FederationTimeoutError';
}

/** Destroying a region-level unit was not confirmed. */
export class DestroyNotConfirmedError extends DeployCheckError {
  override name = 'DestroyNotConfirmedError';
}
