// Sessions with clients nobody here wrote (the AWS CLI, boto3, Terraform) against the local endpoint: finding them
// on the machine, and recording what each can do (checks.ts). Exported for the Terraform lifecycle test in units/.
export { check, CheckFailed, Checks, NotApplicable, type CheckResult } from './checks';
export { findAwsClis, findBoto3Python, type AwsCli, type Found } from './toolchains';
export { foreignClientsSkipped } from './skip';
