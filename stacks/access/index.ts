// @loglake/stacks/access: the lab's IAM access read from its synthesized stacks (roles, policies, bucket policies,
// Lake Formation grants), for the local endpoint's authorization, and the lab policy's alert-address rule, for the
// lab's preflight. It builds the whole app to read it, so it sits beside app.ts, not in the shared constructs (lib/).
export { synthesizeAccess, type SynthesizedAccess } from './synthesized-access';
export { alertAddressProblem } from '../lib/policy/rules';
