// Every experiment, in the order the articles run them.
import { unknownName } from '../cli-support';
import type { Experiment } from './context';
import { PART1 } from './part1';
import { PART2 } from './part2';
import { laptopClient, restEndpoint } from './iceberg-rest';
import { sortOrder } from './sort-order';
import { tagCleanup, undoWindow } from './snapshot-cleanup';
import { PART3 } from './daily-snapshot';
import { badRecords } from './bad-records';
import { analystRole } from './analyst-role';

/**
 * Part 2's "still to come", in the article's order: bad records with a CloudWatch alarm, then the Iceberg half (the
 * undo window closes before the tag builds its own history), then the read-only analyst role.
 */
const PART2_STILL_TO_COME: Experiment[] = [
  badRecords,
  restEndpoint,
  laptopClient,
  sortOrder,
  undoWindow,
  tagCleanup,
  // The last planned edge: a read-only analyst role (the ref and enriched tables exist by now).
  analystRole,
];

export const EXPERIMENTS: readonly Experiment[] = [...PART1, ...PART2, ...PART2_STILL_TO_COME, ...PART3];

export function findExperiments(names: readonly string[]): Experiment[] {
  return names.map((name) => {
    const found = EXPERIMENTS.find((e) => e.name === name);
    if (!found)
      throw unknownName(
        'experiment',
        name,
        EXPERIMENTS.map((e) => e.name),
      );
    return found;
  });
}
