// A small seeded PRNG (mulberry32): the same seed gives the same flows on every machine and Node version,
// which Math.random cannot promise.
import { InvalidFlowOptionError } from './errors';

export class SeededRandom {
  private state: number;

  constructor(seed: number) {
    if (!Number.isInteger(seed))
      throw new InvalidFlowOptionError(`seed must be an integer, got ${seed}: pass a whole number.`, {
        value: seed,
      });
    this.state = seed >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [min, max] (both inclusive). */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0)
      throw new InvalidFlowOptionError('cannot pick from an empty list: give at least one host.', {
        value: items,
      });
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** Picks by weight; weights need not sum to 1. */
  weighted<T>(items: readonly (readonly [T, number])[]): T {
    const total = items.reduce((sum, [, w]) => sum + w, 0);
    let roll = this.next() * total;
    for (const [item, weight] of items) {
      roll -= weight;
      if (roll < 0) return item;
    }
    return (items[items.length - 1] as readonly [T, number])[0];
  }

  chance(p: number): boolean {
    return this.next() < p;
  }
}
