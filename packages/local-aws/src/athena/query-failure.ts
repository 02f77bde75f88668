// A query Athena accepts and then fails for a reason of its own (not the engine's): the StateChangeReason text and
// the AthenaError category and type (Athena User Guide, "Athena error catalog": category 2 USER; type 234 "Lake
// Formation error", 1000 "User error").
import { LocalAwsError } from '../errors';

export class AthenaQueryFailure extends LocalAwsError {
  override name = 'AthenaQueryFailure';
  readonly state = 'FAILED' as const;
  constructor(
    message: string,
    readonly errorCategory: 1 | 2 | 3,
    readonly errorType: number,
    value?: unknown,
  ) {
    super(message, { value });
  }
}

/** AthenaError.ErrorType for a Lake Formation error. */
export const LAKE_FORMATION_ERROR_TYPE = 234;
/** AthenaError.ErrorType for a user error (a Glue permission the caller lacks). */
export const USER_ERROR_TYPE = 1000;
