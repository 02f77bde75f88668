// @loglake/local-aws/testing: for other packages' tests and benches — the SQL conformance corpus (`pnpm bench sql`)
// and the checks the foreign-client sessions record (units' Terraform lifecycle test).
export { runCorpus } from './athena/corpus/run-corpus';
export { check, Checks } from './foreign-clients/checks';
export { foreignClientsSkipped } from './foreign-clients/skip';
