// The lab's access model from its synthesized stacks: roles, policies, bucket policies, Lake Formation grants.
export {
  readSynthesizedAccess,
  synthesizeAccess,
  type SynthesizedAccess,
  type SynthesizedGrant,
  type SynthesizedResourcePolicy,
  type SynthesizedRole,
} from './synthesized-access';
export {
  TerraformExpressions,
  UnresolvedReferenceError,
  type AccessValues,
  type SynthesizedStack,
} from './terraform-expressions';
