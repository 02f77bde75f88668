// The conformance corpus as other packages' benchmarks run it (`pnpm bench sql`).
export { CORPUS } from './cases';
export { runCorpus, runStatement, type CorpusReport, type CaseResult } from './run-corpus';
export type { CorpusCase, Family } from './case';
