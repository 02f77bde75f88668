// @loglake/stacks/access: the lab's IAM access as synthesized (for the local endpoint's authorization) and the lab
// policy's alert-address rule (for the lab's preflight) — pure, no cdktf.
export { synthesizeAccess, type SynthesizedAccess } from './lib/access/synthesized-access';
export { alertAddressProblem } from './lib/policy/rules';
