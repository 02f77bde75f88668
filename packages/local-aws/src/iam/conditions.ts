// The Condition element, evaluated as IAM does (IAM User Guide, "IAM JSON policy elements: Condition operators" and
// "Creating a condition with multiple context keys or values"):
// - several operators in a Condition, and several keys under one operator, must all hold (AND);
// - several values for one key: a positive operator holds when the request value matches any of them (OR); a negated
//   operator (StringNotEquals, ArnNotLike...) holds when it matches none of them (NOR);
// - a key missing from the request: a positive operator is false, a negated one true, ...IfExists true, and Null
//   holds with "true" (the key is absent) and fails with "false";
// - ForAnyValue / ForAllValues compare a multivalued request key as a set: any request value matching, every request
//   value matching. A missing or empty key: ForAllValues "also returns true if there are no context keys in the
//   request" ("Multivalued context key examples"); ForAnyValue returns false, negated operators included ("Single-
//   valued vs. multivalued context keys").
import type { ConditionClause, ConditionOperator } from './policy';
import { arnMatches, globMatches } from './wildcards';

/** The request's condition keys (names case-insensitive), each with one value or a set of values. */
export class RequestContext {
  private readonly values = new Map<string, readonly string[]>();

  constructor(entries: Readonly<Record<string, string | readonly string[] | undefined>> = {}) {
    for (const [key, value] of Object.entries(entries)) {
      if (value === undefined) continue;
      this.values.set(key.toLowerCase(), typeof value === 'string' ? [value] : value);
    }
  }

  get(key: string): readonly string[] | undefined {
    return this.values.get(key.toLowerCase());
  }

  with(entries: Readonly<Record<string, string | readonly string[] | undefined>>): RequestContext {
    const next = new RequestContext();
    for (const [key, value] of this.values) next.values.set(key, value);
    for (const [key, value] of Object.entries(entries)) {
      if (value === undefined) continue;
      next.values.set(key.toLowerCase(), typeof value === 'string' ? [value] : value);
    }
    return next;
  }
}

const NEGATED = new Set<ConditionOperator>([
  'StringNotEquals',
  'StringNotEqualsIgnoreCase',
  'StringNotLike',
  'ArnNotEquals',
  'ArnNotLike',
  'NumericNotEquals',
]);

const number = (text: string): number | undefined => {
  const n = Number(text);
  return text.trim() !== '' && Number.isFinite(n) ? n : undefined;
};

/** One request value against one policy value, with the operator's positive sense (negation is applied outside). */
function matchesOne(operator: ConditionOperator, actual: string, expected: string): boolean {
  switch (operator) {
    case 'StringEquals':
    case 'StringNotEquals':
      return actual === expected;
    case 'StringEqualsIgnoreCase':
    case 'StringNotEqualsIgnoreCase':
      return actual.toLowerCase() === expected.toLowerCase();
    case 'StringLike':
    case 'StringNotLike':
      return globMatches(expected, actual);
    case 'ArnEquals':
    case 'ArnLike':
    case 'ArnNotEquals':
    case 'ArnNotLike':
      return arnMatches(expected, actual);
    case 'Bool':
      return actual.toLowerCase() === expected.toLowerCase();
    case 'Null':
      return false;
    default: {
      const a = number(actual);
      const e = number(expected);
      if (a === undefined || e === undefined) return false;
      if (operator === 'NumericEquals' || operator === 'NumericNotEquals') return a === e;
      if (operator === 'NumericLessThan') return a < e;
      if (operator === 'NumericLessThanEquals') return a <= e;
      if (operator === 'NumericGreaterThan') return a > e;
      return a >= e;
    }
  }
}

/** A single request value against the clause's values: OR for positive operators, NOR for negated ones. */
function valueHolds(clause: ConditionClause, actual: string): boolean {
  const any = clause.values.some((expected) => matchesOne(clause.operator, actual, expected));
  return NEGATED.has(clause.operator) ? !any : any;
}

function clauseHolds(clause: ConditionClause, context: RequestContext): boolean {
  const actual = context.get(clause.key);
  const missing = actual === undefined || actual.length === 0;
  if (clause.operator === 'Null') {
    const wantsAbsent = clause.values.some((v) => v.toLowerCase() === 'true');
    return wantsAbsent ? missing : !missing;
  }
  if (clause.set === 'ForAllValues') return missing || actual.every((value) => valueHolds(clause, value));
  if (missing) return clause.ifExists || (clause.set !== 'ForAnyValue' && NEGATED.has(clause.operator));
  if (clause.set === 'ForAnyValue') return actual.some((value) => valueHolds(clause, value));
  // A single-valued key (the usual case); a multivalued one without a set operator matches if any value does.
  return actual.some((value) => valueHolds(clause, value));
}

/** Every clause must hold. */
export function conditionsHold(clauses: readonly ConditionClause[], context: RequestContext): boolean {
  return clauses.every((clause) => clauseHolds(clause, context));
}
