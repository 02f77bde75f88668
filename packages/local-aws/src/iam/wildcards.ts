// Matching with IAM's wildcards: `*` (any run of characters) and `?` (one character). Actions match case-insensitively
// ("the prefix and the action name are case insensitive"); ARNs match component by component, each of the six
// colon-separated components on its own, case-sensitively (IAM User Guide, "IAM JSON policy elements: Action",
// "IAM JSON policy elements: Resource", and "ArnLike" in "Condition operators").

const cache = new Map<string, RegExp>();

function globRegExp(pattern: string, ignoreCase: boolean): RegExp {
  const key = `${ignoreCase ? 'i' : 's'}${pattern}`;
  let re = cache.get(key);
  if (!re) {
    const body = pattern
      .split('')
      .map((c) => (c === '*' ? '.*' : c === '?' ? '.' : c.replace(/[.+^${}()|[\]\\]/g, '\\$&')))
      .join('');
    re = new RegExp(`^${body}$`, ignoreCase ? 'is' : 's');
    if (cache.size > 10_000) cache.clear();
    cache.set(key, re);
  }
  return re;
}

/** `*` and `?` wildcards over the whole value. */
export function globMatches(pattern: string, value: string, ignoreCase = false): boolean {
  if (pattern === '*') return true;
  if (!pattern.includes('*') && !pattern.includes('?'))
    return ignoreCase ? pattern.toLowerCase() === value.toLowerCase() : pattern === value;
  return globRegExp(pattern, ignoreCase).test(value);
}

/** `s3:Get*` against `s3:GetObject`, case-insensitively; `*` matches every action. */
export function actionMatches(pattern: string, action: string): boolean {
  return globMatches(pattern, action, true);
}

/** arn:partition:service:region:account:resource — the resource component keeps any further colons. */
function arnComponents(arn: string): string[] | undefined {
  const parts = arn.split(':');
  if (parts.length < 6 || parts[0] !== 'arn') return undefined;
  return [...parts.slice(0, 5), parts.slice(5).join(':')];
}

/** A Resource (or ArnLike value) against an ARN: `*` alone matches anything, otherwise component by component. */
export function arnMatches(pattern: string, arn: string): boolean {
  if (pattern === '*') return true;
  const p = arnComponents(pattern);
  const a = arnComponents(arn);
  if (!p || !a) return globMatches(pattern, arn);
  return p.every((component, i) => globMatches(component, a[i] as string));
}
