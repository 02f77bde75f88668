// A figure of the article set beside the same figure measured by the lab, with the rule that decides whether they
// are the same, and — when they are not — one line saying why this run differs. Where the lab itself produces the
// figure (a send schedule, a generator share chosen to match the article), the comparison says so.
import type { TargetKind } from '../target/resources';

export type Verdict = 'same' | 'differs';

export interface Comparison {
  /** Stable id of the figure within its experiment (what tests flip). */
  id: string;
  /** What is compared, e.g. "commits for the main load". */
  figure: string;
  /** The article's figure as it reads (scaled to the lab's size where it depends on it). */
  article: string;
  /** This run's figure. */
  ours: string;
  /** The stated rule that decides same/differs. */
  rule: string;
  verdict: Verdict;
  /** One line: why this run (local or AWS) differs. Present exactly when the verdict is "differs". */
  why?: string;
  /** The figure follows from a choice the lab made (not a measurement alone): which one. */
  labChoice?: string;
}

/** What a comparison may depend on besides the measures. */
export interface CompareEnv {
  readonly target: TargetKind;
  /** Records in the main load (the article's 50,000): figures that grow with the load are scaled by it. */
  readonly records: number;
}

export const ARTICLE_RECORDS = 50_000;

/** A comparison whose verdict is `same`; the why line is kept only when it differs. */
export function compared(
  c: Omit<Comparison, 'verdict' | 'why'> & { same: boolean; why: string },
): Comparison {
  const { same, why, ...rest } = c;
  return { ...rest, verdict: same ? 'same' : 'differs', ...(same ? {} : { why }) };
}

/** Within ±`pct` % of the article's figure. */
export const withinPct = (ours: number, article: number, pct: number) =>
  article === 0 ? ours === 0 : Math.abs(ours - article) / Math.abs(article) <= pct / 100;

/** Rounds to one significant figure ("~1 MB"). */
export const oneSignificant = (n: number) => (n === 0 ? 0 : Number(n.toPrecision(1)));

export const num = (v: number | string | undefined): number => (typeof v === 'number' ? v : Number(v ?? NaN));
export const str = (v: number | string | undefined): string => (v === undefined ? '' : String(v));
