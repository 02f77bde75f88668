// Every experiment, in the order the articles run them.
import { UnknownNameError } from '../errors';
import type { Experiment } from './context';
import { PART1 } from './part1';
import { PART2 } from './part2';
import { PART3 } from './daily-snapshot';

export const EXPERIMENTS: readonly Experiment[] = [...PART1, ...PART2, ...PART3];

export function findExperiments(names: readonly string[]): Experiment[] {
  return names.map((name) => {
    const found = EXPERIMENTS.find((e) => e.name === name);
    if (!found) {
      throw new UnknownNameError(
        `No experiment named ${name}. Valid names, in order: ${EXPERIMENTS.map((e) => e.name).join(', ')}.`,
        name,
      );
    }
    return found;
  });
}
