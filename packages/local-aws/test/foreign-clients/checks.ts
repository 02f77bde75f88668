// The checks of a session with a client nobody here wrote (the AWS CLI, boto3, Terraform): every step runs whether
// or not the ones before it passed, so one session counts what a client can and cannot do against the endpoint;
// the test then fails on any failed check, naming each one. A step the client itself cannot make (an older release
// without a service) is recorded as not applicable, with why, and counts neither way.
import { LocalAwsError } from '../../src/errors';
export interface CheckResult {
  readonly name: string;
  readonly outcome: 'passed' | 'failed' | 'not applicable';
  readonly detail?: string;
  readonly ms: number;
}

/** A check's failure, with what was seen. */
export class CheckFailed extends LocalAwsError {
  override name = 'CheckFailed';
}

/** Not a failure: the client release has no such command (said in the summary). */
export class NotApplicable extends LocalAwsError {
  override name = 'NotApplicable';
}

export function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new CheckFailed(message);
}

export class Checks {
  readonly results: CheckResult[] = [];

  constructor(readonly client: string) {}

  async step(name: string, run: () => Promise<void> | void): Promise<void> {
    const started = Date.now();
    try {
      await run();
      this.results.push({ name, outcome: 'passed', ms: Date.now() - started });
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      const outcome = error instanceof NotApplicable ? 'not applicable' : 'failed';
      this.results.push({ name, outcome, detail: detail.slice(0, 2000), ms: Date.now() - started });
    }
  }

  get passed(): number {
    return this.results.filter((r) => r.outcome === 'passed').length;
  }

  get failed(): CheckResult[] {
    return this.results.filter((r) => r.outcome === 'failed');
  }

  /** `<client>: <passed>/<counted> checks passed (<n> not applicable)` and a line per failure. */
  summary(): string {
    const counted = this.results.filter((r) => r.outcome !== 'not applicable');
    const skipped = this.results.length - counted.length;
    return [
      `${this.client}: ${this.passed}/${counted.length} checks passed${skipped ? ` (${skipped} not applicable to this release)` : ''}`,
      ...this.results
        .filter((r) => r.outcome !== 'passed')
        .map((r) => `  ${r.outcome === 'failed' ? 'FAILED' : 'n/a'} ${r.name}: ${r.detail ?? ''}`),
    ].join('\n');
  }
}
