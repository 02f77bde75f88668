// The lab's default size and waits: plain values, so the CLI can show them in its help without loading the lab.

/** How long "Wait for compaction" polls on AWS for a compaction run after the bursts, by default. */
export const DEFAULT_COMPACTION_WAIT_MS = 10 * 60_000;

export interface LabScale {
  /** Flows in the main load (seed: 50,000). */
  records: number;
  /** Hours the main load spreads over. */
  hours: number;
  bursts: number;
  burstSize: number;
  seed: number;
}

export const FULL_SCALE: LabScale = { records: 50_000, hours: 24, bursts: 10, burstSize: 200, seed: 1 };

/** How long experiments wait on AWS for what it does on its own schedule. */
export interface LabWaits {
  /** aws: how long "Wait for compaction" polls for a compaction run after the bursts. */
  readonly compactionMs: number;
  /**
   * aws: how long the bad-records experiment waits for each thing CloudWatch and Firehose do on their own schedule
   * (the error output, the metric, ALARM, OK): Firehose publishes metrics per minute and CloudWatch evaluates alarms
   * about once a minute, so a few minutes each.
   */
  readonly alarmMs: number;
}

export const DEFAULT_ALARM_WAIT_MS = 10 * 60_000;

export const DEFAULT_WAITS: LabWaits = {
  compactionMs: DEFAULT_COMPACTION_WAIT_MS,
  alarmMs: DEFAULT_ALARM_WAIT_MS,
};
