// Errors of the checks Terraform runs while it applies or destroys (local-exec). Messages say what to do next.
/** What every error here carries besides its message (the house's one error shape). */
export interface DeployCheckErrorOptions {
  cause?: unknown;
  /** The offending value. */
  value?: unknown;
}

export class DeployCheckError extends Error {
  override name: string = 'DeployCheckError';
  readonly value: unknown;
  constructor(message: string, options: DeployCheckErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.value = options.value;
  }
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
