// The local Firehose buffer interval of the in-process endpoint, as `pnpm lab` and `pnpm load` choose it: short by
// default (so a run is not mostly waiting), "unit" for the unit's own (as on AWS), or a number of seconds.
import { InvalidOptionError } from '../errors';

/**
 * The local Firehose buffer interval the lab and the loader use unless told otherwise: each of the lab's ~20
 * deliveries waits one interval, so the unit's 60 s would make the run mostly waiting (about 20 minutes); commits are
 * cut per delivery either way, so every figure is the same.
 */
export const LOCAL_LAB_BUFFER_INTERVAL_SECONDS = 2;

/** --buffer-interval: seconds, "unit" (the unit's own interval, as on AWS), or the lab's local default. */
export function bufferIntervalFrom(value: string | undefined): { seconds?: number; reason?: string } {
  if (value === 'unit') return {};
  if (value === undefined)
    return {
      seconds: LOCAL_LAB_BUFFER_INTERVAL_SECONDS,
      reason:
        "the lab's local default, so the run is not mostly waiting; --buffer-interval unit waits the unit's interval, as AWS does",
    };
  if (!/^\d+$/.test(value) || Number(value) > 900)
    throw new InvalidOptionError(
      `--buffer-interval ${value} is not 0–900 seconds (Firehose's range) or "unit" (the unit's interval, as on AWS).`,
      { value },
    );
  return { seconds: Number(value) };
}
