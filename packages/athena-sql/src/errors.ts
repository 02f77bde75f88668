// The errors of loading, rendering and running the SQL in sql/. Each names the offending value; the three query
// errors keep the names the snapshot state machine's Retry and Catch match on (AthenaTransientError is retried).

import { LoglakeError, type LoglakeErrorOptions } from '@loglake/errors';

export type AthenaSqlErrorOptions = LoglakeErrorOptions;

/** The root of this package's errors: the house's one shape, `(message, { cause, value })`. */
export class AthenaSqlError extends LoglakeError {
  override readonly name: string = 'AthenaSqlError';
}

/** A template parameter is undeclared, missing or not of its kind, or a template uses a value nobody supplied. */
export class TemplateParameterError extends AthenaSqlError {
  override readonly name = 'TemplateParameterError';
}

/** Neither the bundle nor the source tree has the sql/ folder. */
export class SqlFolderNotFoundError extends AthenaSqlError {
  override readonly name = 'SqlFolderNotFoundError';
}

/** How a query ended when it did not succeed, as GetQueryExecution reported it. */
export interface QueryFailure {
  queryExecutionId: string | undefined;
  state: string | undefined;
  /** StateChangeReason, else AthenaError.ErrorMessage. */
  reason: string;
  /** AthenaError.ErrorCategory: 1 SYSTEM, 2 USER, 3 OTHER. */
  errorCategory: number | undefined;
  errorType: number | undefined;
  sql: string;
}

/** Athena reported the query FAILED or CANCELLED (or gave it no id); `value` is how it ended. */
export class AthenaQueryFailedError extends AthenaSqlError {
  override readonly name: string = 'AthenaQueryFailedError';
  declare readonly value: QueryFailure | undefined;
  constructor(message: string, options: { cause?: unknown; value?: QueryFailure } = {}) {
    super(message, options);
  }
  get queryExecutionId(): string | undefined {
    return this.value?.queryExecutionId;
  }
  /** Athena's reason, else the message. */
  get reason(): string {
    return this.value?.reason ?? this.message;
  }
}

/** A failed query Athena blames on itself (error category 1, SYSTEM): worth a retry with backoff. */
export class AthenaTransientError extends AthenaQueryFailedError {
  override readonly name = 'AthenaTransientError';
}

/** The query did not finish within the caller's timeout; it was stopped. `value` says which and when. */
export class AthenaQueryTimeoutError extends AthenaSqlError {
  override readonly name = 'AthenaQueryTimeoutError';
  declare readonly value: { queryExecutionId: string; state: string | undefined; timeoutMs: number };
}
