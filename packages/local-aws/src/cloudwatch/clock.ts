// The time CloudWatch stamps service metrics with and evaluates alarms at: the wall clock, or (an explicit endpoint
// option, off by default) the wall clock plus an offset the lab moves forward, so an alarm's period can pass in a
// second instead of a minute. Never backwards.
import { wireError } from '../model/wire-errors';

export class CloudWatchClock {
  private offsetMs = 0;

  constructor(private readonly adjustable = false) {}

  now(): number {
    return Date.now() + this.offsetMs;
  }

  get isAdjustable(): boolean {
    return this.adjustable;
  }

  /** Moves the clock forward by `seconds`; refused unless the endpoint was started with an adjustable clock. */
  advance(seconds: number): number {
    if (!this.adjustable) {
      throw wireError(
        'cloudwatch',
        'InvalidClockRequest',
        'The CloudWatch clock is the wall clock: start the endpoint with cloudWatchClock "adjustable" ' +
          '(pnpm lab local --adjustable-cloudwatch-clock) to advance it.',
      );
    }
    if (!Number.isFinite(seconds) || seconds <= 0 || seconds > 7 * 86_400) {
      throw wireError(
        'cloudwatch',
        'InvalidClockRequest',
        `advanceSeconds ${seconds} must be a number of seconds in (0, 604800], e.g. 61.`,
      );
    }
    this.offsetMs += Math.round(seconds * 1000);
    return this.now();
  }
}
