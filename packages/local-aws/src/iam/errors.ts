// Errors of the IAM evaluator: a policy document it cannot read. What it reads but does not implement is not an
// error here: the evaluator refuses the requests it would apply to (see policy.ts).
import { LocalAwsError } from '../errors';

/** A policy document that is not JSON or breaks IAM's grammar; the message names the document and what is wrong. */
export class PolicyNotUnderstoodError extends LocalAwsError {
  override name = 'PolicyNotUnderstoodError';
}
