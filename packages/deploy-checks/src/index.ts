// @loglake/deploy-checks: the checks Terraform runs through local-exec while it applies or destroys — what Terraform
// alone cannot see or wait for. The stacks run the *-cli.ts entries by path; this face is the destroy confirmation's
// variable, which the lab sets when the user confirmed.
export { CONFIRM_DESTROY_ENV } from './confirm-destroy';
