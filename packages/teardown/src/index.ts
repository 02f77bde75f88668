// @loglake/teardown — the leftover verifier the destroy hook runs, and the namespace emptier for destroys.
export { runCheck, parseAttempts, parseLabId, type CheckIo } from './check';
export { createClients, type TeardownClients } from './clients';
export { dropNamespaceTables, type DropNamespaceTablesInput } from './drop-namespace-tables';
export { TeardownError, TeardownInputError } from './errors';
export { KINDS, type KindLister, type Leftover } from './kinds';
export { formatReport } from './report';
export { belongsToLab, type LabScope } from './scope';
export { backoffDelay, checkOnce, verifyTeardown, type VerifyOptions, type VerifyResult } from './verify';
