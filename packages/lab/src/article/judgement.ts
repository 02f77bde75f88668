// How the lab judges one experiment's row: its figures beside the article's (comparisons) and the lab's own checks
// (what must hold for the row to mean anything: every record accepted, one commit per DELETE…). Both are pure
// functions of the row's measures, so each can be fed a contradicting measurement in a test (article.test.ts).
import type { Comparison, CompareEnv } from './comparison';

export type Measures = Readonly<Record<string, number | string>>;

export interface Judgement {
  comparisons: Comparison[];
  checks: Record<string, boolean>;
}

export interface ArticleRow {
  /** The article's "Result" cell for this experiment, as it reads (or what it says is still to come). */
  readonly article: string;
  /** Where the article's figures come from. */
  readonly source: 'Part 1' | 'Part 2' | 'Part 2, still to come' | 'the snapshots case study';
  /** The figures compared and the lab's checks; none for a row the article gives no figure for. */
  readonly judge?: (m: Measures, env: CompareEnv) => Judgement;
}
