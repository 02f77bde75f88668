// IAM policy documents, read into a typed form the evaluator works on (IAM User Guide, "IAM JSON policy elements
// reference"). What the local evaluator does not implement is never guessed at: an element it does not know makes the
// whole document not understood, an operator or a policy variable makes its statement not understood, and a request
// such a document or statement could apply to is refused with a message naming what was not understood.
import { PolicyNotUnderstoodError } from './errors';

export type Effect = 'Allow' | 'Deny';

/** The `Principal` / `NotPrincipal` element: `"*"`, or principals by kind. */
export interface PrincipalSpec {
  readonly any: boolean;
  readonly aws: readonly string[];
  readonly service: readonly string[];
  readonly federated: readonly string[];
  readonly canonicalUser: readonly string[];
}

/** The condition operators the evaluator implements (IAM User Guide, "IAM JSON policy elements: Condition operators"). */
export const CONDITION_OPERATORS = [
  'StringEquals',
  'StringNotEquals',
  'StringEqualsIgnoreCase',
  'StringNotEqualsIgnoreCase',
  'StringLike',
  'StringNotLike',
  'ArnEquals',
  'ArnLike',
  'ArnNotEquals',
  'ArnNotLike',
  'NumericEquals',
  'NumericNotEquals',
  'NumericLessThan',
  'NumericLessThanEquals',
  'NumericGreaterThan',
  'NumericGreaterThanEquals',
  'Bool',
  'Null',
] as const;
export type ConditionOperator = (typeof CONDITION_OPERATORS)[number];

/** One key of one operator: `"StringEquals": { "aws:SourceAccount": ["123456789012"] }`. */
export interface ConditionClause {
  /** As written, e.g. `ForAnyValue:StringLikeIfExists`. */
  readonly written: string;
  readonly operator: ConditionOperator;
  readonly ifExists: boolean;
  readonly set?: 'ForAnyValue' | 'ForAllValues';
  /** Condition keys are not case-sensitive: kept in lower case. */
  readonly key: string;
  readonly values: readonly string[];
}

export interface Statement {
  /** Position in the document (0-based) and Sid, for messages. */
  readonly index: number;
  readonly sid?: string;
  readonly effect: Effect;
  readonly actions?: readonly string[];
  readonly notActions?: readonly string[];
  /** Absent with notResources absent: a trust policy's statement (the role is the resource). */
  readonly resources?: readonly string[];
  readonly notResources?: readonly string[];
  readonly principal?: PrincipalSpec;
  readonly notPrincipal?: PrincipalSpec;
  readonly conditions: readonly ConditionClause[];
  /** Why the statement cannot be evaluated (an operator or a policy variable the evaluator does not implement). */
  readonly notUnderstood?: string;
}

export interface PolicyDocument {
  /** Where the document comes from, as messages name it (`role loglake-01-firehose, policy loglake-01-firehose`). */
  readonly source: string;
  readonly statements: readonly Statement[];
  /** Why the document as a whole cannot be evaluated (an element the evaluator does not know). */
  readonly notUnderstood?: string;
}

const DOCUMENT_ELEMENTS = new Set(['Version', 'Id', 'Statement']);
const STATEMENT_ELEMENTS = new Set([
  'Sid',
  'Effect',
  'Action',
  'NotAction',
  'Resource',
  'NotResource',
  'Principal',
  'NotPrincipal',
  'Condition',
]);
const VERSIONS = new Set(['2012-10-17', '2008-10-17']);

/** A value the evaluator cannot use is a malformed document (AWS would have refused to store it). */
function malformed(source: string, what: string, value: unknown): never {
  throw new PolicyNotUnderstoodError(
    `${source}: ${what} (${JSON.stringify(value)}); fix the policy document (IAM JSON policy grammar).`,
    { value },
  );
}

function strings(source: string, element: string, value: unknown): string[] {
  const list = Array.isArray(value) ? value : [value];
  if (list.length === 0 || list.some((v) => typeof v !== 'string'))
    malformed(source, `${element} must be a string or a list of strings`, value);
  return list as string[];
}

function principalSpec(source: string, element: string, value: unknown): PrincipalSpec {
  if (value === '*') return { any: true, aws: [], service: [], federated: [], canonicalUser: [] };
  if (!value || typeof value !== 'object' || Array.isArray(value))
    malformed(source, `${element} must be "*" or an object of principal kinds`, value);
  const spec = {
    any: false,
    aws: [] as string[],
    service: [] as string[],
    federated: [] as string[],
    canonicalUser: [] as string[],
  };
  for (const [kind, list] of Object.entries(value as Record<string, unknown>)) {
    const values = strings(source, `${element}.${kind}`, list);
    if (kind === 'AWS') spec.aws.push(...values);
    else if (kind === 'Service') spec.service.push(...values);
    else if (kind === 'Federated') spec.federated.push(...values);
    else if (kind === 'CanonicalUser') spec.canonicalUser.push(...values);
    else
      throw new PolicyNotUnderstoodError(
        `${source}: ${element} has principal kind "${kind}", which IAM does not define (AWS, Service, Federated, CanonicalUser).`,
        { value: kind },
      );
  }
  if (spec.aws.includes('*')) spec.any = true;
  return spec;
}

const OPERATOR_RE = /^(?:(ForAnyValue|ForAllValues):)?([A-Za-z]+?)(IfExists)?$/;

/** Reads `Condition`; an operator the evaluator does not implement is returned as the reason, not guessed. */
function conditions(source: string, value: unknown): { clauses: ConditionClause[]; notUnderstood?: string } {
  if (value === undefined) return { clauses: [] };
  if (!value || typeof value !== 'object' || Array.isArray(value))
    malformed(source, 'Condition must be an object of operators', value);
  const clauses: ConditionClause[] = [];
  for (const [written, keys] of Object.entries(value as Record<string, unknown>)) {
    const match = OPERATOR_RE.exec(written);
    const operator = match?.[2] as ConditionOperator | undefined;
    if (!match || !operator || !(CONDITION_OPERATORS as readonly string[]).includes(operator))
      return {
        clauses,
        notUnderstood: `condition operator ${written} is not implemented by the local evaluator (it implements ${CONDITION_OPERATORS.join(', ')}, with IfExists and ForAnyValue/ForAllValues)`,
      };
    if (!keys || typeof keys !== 'object' || Array.isArray(keys))
      malformed(source, `Condition ${written} must be an object of condition keys`, keys);
    for (const [key, raw] of Object.entries(keys as Record<string, unknown>)) {
      const list = Array.isArray(raw) ? raw : [raw];
      if (list.some((v) => !['string', 'number', 'boolean'].includes(typeof v)))
        malformed(source, `Condition ${written} ${key} must be strings, numbers or booleans`, raw);
      const values = list.map(String);
      const variable = values.find((v) => v.includes('${'));
      if (variable)
        return {
          clauses,
          notUnderstood: `policy variable in ${written} ${key} = "${variable}" is not implemented by the local evaluator`,
        };
      clauses.push({
        written,
        operator,
        ifExists: match[3] !== undefined,
        ...(match[1] ? { set: match[1] as 'ForAnyValue' | 'ForAllValues' } : {}),
        key: key.toLowerCase(),
        values,
      });
    }
  }
  return { clauses };
}

function statement(source: string, raw: unknown, index: number): Statement | { unknownElement: string } {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw))
    malformed(source, `Statement ${index} must be an object`, raw);
  const s = raw as Record<string, unknown>;
  const unknown = Object.keys(s).find((k) => !STATEMENT_ELEMENTS.has(k));
  if (unknown) return { unknownElement: unknown };
  const where = `${source} statement ${index}${typeof s.Sid === 'string' ? ` (${s.Sid})` : ''}`;
  if (s.Effect !== 'Allow' && s.Effect !== 'Deny')
    malformed(where, 'Effect must be "Allow" or "Deny"', s.Effect);
  if ((s.Action === undefined) === (s.NotAction === undefined))
    malformed(where, 'a statement needs exactly one of Action and NotAction', {
      Action: s.Action,
      NotAction: s.NotAction,
    });
  if (s.Resource !== undefined && s.NotResource !== undefined)
    malformed(where, 'a statement has Resource or NotResource, not both', s.Resource);
  if (s.Principal !== undefined && s.NotPrincipal !== undefined)
    malformed(where, 'a statement has Principal or NotPrincipal, not both', s.Principal);
  const resources = s.Resource === undefined ? undefined : strings(where, 'Resource', s.Resource);
  const notResources = s.NotResource === undefined ? undefined : strings(where, 'NotResource', s.NotResource);
  const variable = [...(resources ?? []), ...(notResources ?? [])].find((r) => r.includes('${'));
  const cond = conditions(where, s.Condition);
  return {
    index,
    ...(typeof s.Sid === 'string' ? { sid: s.Sid } : {}),
    effect: s.Effect,
    ...(s.Action !== undefined ? { actions: strings(where, 'Action', s.Action) } : {}),
    ...(s.NotAction !== undefined ? { notActions: strings(where, 'NotAction', s.NotAction) } : {}),
    ...(resources ? { resources } : {}),
    ...(notResources ? { notResources } : {}),
    ...(s.Principal !== undefined ? { principal: principalSpec(where, 'Principal', s.Principal) } : {}),
    ...(s.NotPrincipal !== undefined
      ? { notPrincipal: principalSpec(where, 'NotPrincipal', s.NotPrincipal) }
      : {}),
    conditions: cond.clauses,
    ...(variable
      ? {
          notUnderstood: `policy variable in resource "${variable}" is not implemented by the local evaluator`,
        }
      : cond.notUnderstood
        ? { notUnderstood: cond.notUnderstood }
        : {}),
  };
}

/**
 * Reads a policy document (JSON text or the parsed object). Malformed JSON or grammar throws PolicyNotUnderstoodError;
 * an element, operator or policy variable the evaluator does not implement is recorded on the document or statement.
 */
export function parsePolicyDocument(document: unknown, source: string): PolicyDocument {
  let raw = document;
  if (typeof document === 'string') {
    try {
      raw = JSON.parse(document);
    } catch (error) {
      throw new PolicyNotUnderstoodError(`${source}: the policy is not JSON (${(error as Error).message}).`, {
        value: document,
        cause: error,
      });
    }
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw))
    malformed(source, 'a policy document must be a JSON object', raw);
  const doc = raw as Record<string, unknown>;
  const unknown = Object.keys(doc).find((k) => !DOCUMENT_ELEMENTS.has(k));
  if (unknown)
    return {
      source,
      statements: [],
      notUnderstood: `policy element "${unknown}" is not one IAM defines (Version, Id, Statement)`,
    };
  if (doc.Version !== undefined && !VERSIONS.has(String(doc.Version)))
    return {
      source,
      statements: [],
      notUnderstood: `policy Version "${String(doc.Version)}" is not one IAM defines (2012-10-17, 2008-10-17)`,
    };
  if (doc.Statement === undefined) malformed(source, 'a policy document needs Statement', doc);
  const list = Array.isArray(doc.Statement) ? doc.Statement : [doc.Statement];
  const statements: Statement[] = [];
  for (const [index, raw] of list.entries()) {
    const parsed = statement(source, raw, index);
    if ('unknownElement' in parsed)
      return {
        source,
        statements: [],
        notUnderstood: `statement ${index} has element "${parsed.unknownElement}", which is not one IAM defines (${[...STATEMENT_ELEMENTS].join(', ')})`,
      };
    statements.push(parsed);
  }
  return { source, statements };
}
