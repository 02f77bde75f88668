// The IAM evaluator: policy documents, the request context, IAM's decision and AWS's denial message.
export { parsePolicyDocument, type PolicyDocument, type Statement, CONDITION_OPERATORS } from './policy';
export { RequestContext } from './conditions';
export {
  evaluate,
  type AuthorizationQuery,
  type ApplicablePolicies,
  type Decision,
  type PolicyType,
} from './evaluate';
export { evaluateAssumeRole, ASSUME_ROLE } from './assume-role';
export { accessDeniedMessage } from './messages';
export { assumedRoleCaller, serviceCaller, principalArnOf, type Caller } from './principals';
export { PolicyNotUnderstoodError } from './errors';
