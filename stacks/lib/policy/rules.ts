// The lab's policy rules over one stack's resolved resources (the same JSON Terraform receives). Pure functions:
// each returns human-readable violations.
export interface ResourceView {
  readonly type: string;
  readonly id: string;
  readonly attrs: Record<string, unknown>;
}

export interface ProviderView {
  readonly defaultTags: Record<string, string>;
}

export interface PolicyContext {
  readonly namePrefix: string;
  /** Tag keys every resource must carry (through the provider's default_tags). */
  readonly requiredTags: readonly string[];
}

/** A rule's finding: errors fail synth; warnings are printed (e.g. what apply would refuse, during a plan). */
export interface Finding {
  readonly message: string;
  readonly severity: 'error' | 'warning';
}

/** The smallest per-query cutoff the lab's units accept (its workgroups' guard against runaway scans). */
export const ATHENA_MIN_CUTOFF = 10 * 1024 * 1024;

const first = (v: unknown): Record<string, unknown> | undefined =>
  (Array.isArray(v) ? v[0] : v) as Record<string, unknown> | undefined;

const ref = (r: ResourceView, attr: string) => `\${${r.type}.${r.id}.${attr}}`;

export function checkBuckets(resources: readonly ResourceView[]): string[] {
  const out: string[] = [];
  const of = (type: string, bucket: ResourceView) =>
    resources.filter(
      (r) =>
        r.type === type && (r.attrs.bucket === ref(bucket, 'id') || r.attrs.bucket === ref(bucket, 'bucket')),
    );
  for (const b of resources.filter((r) => r.type === 'aws_s3_bucket')) {
    const pab = of('aws_s3_bucket_public_access_block', b)[0]?.attrs;
    if (
      !pab ||
      !['block_public_acls', 'block_public_policy', 'ignore_public_acls', 'restrict_public_buckets'].every(
        (k) => pab[k] === true,
      )
    ) {
      out.push(
        `aws_s3_bucket.${b.id} does not block all public access (add aws_s3_bucket_public_access_block with all four flags true)`,
      );
    }
    const sse = of('aws_s3_bucket_server_side_encryption_configuration', b)[0];
    if (!sse) out.push(`aws_s3_bucket.${b.id} has no server-side encryption configuration`);
    const policies = of('aws_s3_bucket_policy', b).map((p) => parsePolicy(String(p.attrs.policy)));
    const tlsOnly = policies.some((doc) =>
      statements(doc).some(
        (s) =>
          s.Effect === 'Deny' && JSON.stringify(s.Condition ?? {}).includes('"aws:SecureTransport":"false"'),
      ),
    );
    if (!tlsOnly)
      out.push(
        `aws_s3_bucket.${b.id} is not TLS-only (add a bucket policy denying aws:SecureTransport = false)`,
      );
  }
  for (const tb of resources.filter((r) => r.type === 'aws_s3tables_table_bucket')) {
    if (!first(tb.attrs.encryption_configuration)?.sse_algorithm)
      out.push(`aws_s3tables_table_bucket.${tb.id} has no encryption_configuration`);
  }
  return out;
}

interface Statement {
  Effect?: string;
  Action?: string | string[];
  Resource?: string | string[];
  Condition?: unknown;
}

function parsePolicy(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    return undefined;
  }
}

function statements(doc: unknown): Statement[] {
  const s = (doc as { Statement?: Statement | Statement[] } | undefined)?.Statement;
  return s === undefined ? [] : Array.isArray(s) ? s : [s];
}

const list = (v: string | string[] | undefined): string[] =>
  v === undefined ? [] : Array.isArray(v) ? v : [v];
const READ_ONLY = /^[a-z0-9-]+:(Get|List|Describe)[A-Za-z]*$/;

const POLICY_ATTRS: Record<string, string> = {
  aws_iam_role_policy: 'policy',
  aws_iam_policy: 'policy',
  aws_s3_bucket_policy: 'policy',
  aws_sns_topic_policy: 'policy',
};

export function checkIam(resources: readonly ResourceView[]): string[] {
  const out: string[] = [];
  for (const r of resources) {
    const attr = POLICY_ATTRS[r.type];
    if (!attr) continue;
    const doc = parsePolicy(String(r.attrs[attr]));
    if (doc === undefined) {
      out.push(`${r.type}.${r.id}: policy is not literal JSON, so it cannot be checked`);
      continue;
    }
    statements(doc).forEach((s, n) => {
      if (s.Effect !== 'Allow') return;
      const actions = list(s.Action);
      const wild = actions.filter((a) => a === '*' || a.endsWith(':*'));
      if (wild.length > 0)
        out.push(`${r.type}.${r.id} statement ${n} grants wildcard actions ${wild.join(', ')}`);
      if (list(s.Resource).includes('*')) {
        const writes = actions.filter((a) => !READ_ONLY.test(a));
        if (writes.length > 0)
          out.push(
            `${r.type}.${r.id} statement ${n} grants write actions ${writes.join(', ')} on Resource "*"`,
          );
      }
    });
  }
  return out;
}

export function checkTags(
  providers: readonly ProviderView[],
  resources: readonly ResourceView[],
  ctx: PolicyContext,
): string[] {
  if (resources.length === 0) return [];
  const out: string[] = [];
  if (providers.length === 0) out.push('stack has no AWS provider with default_tags');
  for (const p of providers) {
    const missing = ctx.requiredTags.filter((t) => !p.defaultTags[t]);
    if (missing.length > 0) out.push(`AWS provider default_tags lack ${missing.join(', ')}`);
  }
  for (const r of resources) {
    const tags = (r.attrs.tags ?? {}) as Record<string, string>;
    for (const t of ctx.requiredTags) {
      if (tags[t] !== undefined && providers.some((p) => p.defaultTags[t] !== tags[t]))
        out.push(`${r.type}.${r.id} overrides lab tag ${t}`);
    }
  }
  return out;
}

export function checkWorkgroups(resources: readonly ResourceView[]): string[] {
  const out: string[] = [];
  for (const w of resources.filter((r) => r.type === 'aws_athena_workgroup')) {
    const c = first(w.attrs.configuration);
    // A workgroup that does not override client-side settings lets each query choose where its results go; it must at
    // least name a location of its own, so a query that gives none lands in a lab bucket.
    const results = first(c?.result_configuration)?.output_location;
    if (c?.enforce_workgroup_configuration !== true && typeof results !== 'string')
      out.push(
        `aws_athena_workgroup.${w.id} neither enforces its configuration nor sets result_configuration.output_location`,
      );
    const cutoff = c?.bytes_scanned_cutoff_per_query;
    if (typeof cutoff !== 'number' || cutoff < ATHENA_MIN_CUTOFF)
      out.push(`aws_athena_workgroup.${w.id} has no bytes_scanned_cutoff_per_query of at least 10 MiB`);
  }
  return out;
}

/** Named resource types and their name attribute. Namespaces and tables live inside the (prefixed) table bucket. */
const NAME_ATTRS: Record<string, string> = {
  aws_s3tables_table_bucket: 'name',
  aws_s3_bucket: 'bucket',
  aws_iam_role: 'name',
  aws_iam_role_policy: 'name',
  aws_iam_policy: 'name',
  aws_cloudwatch_log_group: 'name',
  aws_kinesis_firehose_delivery_stream: 'name',
  aws_athena_workgroup: 'name',
  aws_sns_topic: 'name',
  aws_lambda_function: 'function_name',
  aws_sfn_state_machine: 'name',
  aws_scheduler_schedule: 'name',
  aws_cloudwatch_metric_alarm: 'alarm_name',
  aws_glue_catalog_database: 'name',
  aws_glue_catalog_table: 'name',
};

export function checkNames(resources: readonly ResourceView[], ctx: PolicyContext): string[] {
  const out: string[] = [];
  const accepted = [ctx.namePrefix, ctx.namePrefix.replaceAll('-', '_')];
  for (const r of resources) {
    const attr = NAME_ATTRS[r.type];
    if (!attr) continue;
    const name = r.attrs[attr] ?? r.attrs[`${attr}_prefix`];
    if (typeof name !== 'string' || !accepted.some((p) => name.includes(p))) {
      out.push(
        `${r.type}.${r.id} is named ${JSON.stringify(name)}, without the lab prefix "${ctx.namePrefix}"`,
      );
    }
  }
  return out;
}

/**
 * The condition keys each service is documented to send when it assumes a role, i.e. the keys AWS's own trust
 * policy examples for that service use. A positive condition (StringEquals, ArnLike, …) on a key the request does not
 * carry evaluates to false, and then the service cannot assume the role at all.
 * - states.amazonaws.com: aws:SourceAccount, aws:SourceArn (Step Functions User Guide, "Cross-service confused
 *   deputy prevention").
 * - scheduler.amazonaws.com: aws:SourceAccount, aws:SourceArn (EventBridge Scheduler User Guide, "Set up the
 *   execution role").
 * - firehose.amazonaws.com: sts:ExternalId (Firehose Developer Guide, "Controlling access": the account id as
 *   external id). Its S3 Tables guide's trust policy has no condition at all.
 * - lakeformation.amazonaws.com, glue.amazonaws.com: none (Lake Formation Developer Guide, "Requirements for roles
 *   used to register locations").
 * - lambda.amazonaws.com: none (Lambda Developer Guide, "Lambda execution role").
 * A service not listed here gets no positive condition until its documentation is checked and it is added.
 */
export const DOCUMENTED_TRUST_CONDITION_KEYS: Readonly<Record<string, readonly string[]>> = {
  'states.amazonaws.com': ['aws:SourceAccount', 'aws:SourceArn'],
  'scheduler.amazonaws.com': ['aws:SourceAccount', 'aws:SourceArn'],
  'firehose.amazonaws.com': ['sts:ExternalId'],
  'lakeformation.amazonaws.com': [],
  'glue.amazonaws.com': [],
  'lambda.amazonaws.com': [],
};

/**
 * Operators that hold when the key is absent: negations, ...IfExists, and Null with true ("the key is absent").
 * Anything else — Null with false included — needs the key in the request.
 */
const holdsWhenAbsent = (operator: string, value: unknown) =>
  operator === 'Null' ? value === true || value === 'true' : /^(StringNot|ArnNot)|IfExists$/.test(operator);

interface TrustStatement extends Statement {
  Principal?: { Service?: string | string[] };
}

export function checkTrustPolicies(resources: readonly ResourceView[]): string[] {
  const out: string[] = [];
  for (const r of resources.filter((x) => x.type === 'aws_iam_role')) {
    const doc = parsePolicy(String(r.attrs.assume_role_policy));
    if (doc === undefined) {
      out.push(`aws_iam_role.${r.id}: assume_role_policy is not literal JSON, so it cannot be checked`);
      continue;
    }
    for (const s of statements(doc) as TrustStatement[]) {
      if (s.Effect !== 'Allow') continue;
      const services = list(s.Principal?.Service);
      const conditions = (s.Condition ?? {}) as Record<string, Record<string, unknown>>;
      for (const [operator, keys] of Object.entries(conditions)) {
        for (const [key, value] of Object.entries(keys)) {
          if (holdsWhenAbsent(operator, value)) continue;
          for (const service of services) {
            const documented = DOCUMENTED_TRUST_CONDITION_KEYS[service];
            if (documented?.includes(key)) continue;
            out.push(
              `aws_iam_role.${r.id} trusts ${service} on condition ${operator} ${key}, a key ${service} is ${documented ? 'not documented to send' : 'not known (stacks/lib/policy/rules.ts) to send'}: the assume-role would be denied; drop the condition${operator === 'Null' ? '' : ` or use ${operator}IfExists`}`,
            );
          }
        }
      }
    }
  }
  return out;
}

/** RFC 2606 / RFC 6761 names that never receive mail. */
const PLACEHOLDER_DOMAIN = /(^|\.)(example\.(com|org|net)|example|test|invalid|localhost)$/i;

/**
 * An e-mail subscription's address must be one that can confirm: SNS sends a confirmation mail and delivers nothing
 * until it is confirmed, so a missing or placeholder address means every alert goes nowhere. Refused for apply;
 * during plan/validate (strict = false) only a warning.
 */
/** What is wrong with an e-mail subscription's address ("has no address", a placeholder), or undefined. */
export function alertAddressProblem(address: unknown): string | undefined {
  const endpoint = typeof address === 'string' ? address.trim() : '';
  const domain = endpoint.split('@')[1] ?? '';
  return endpoint === ''
    ? 'has no address'
    : PLACEHOLDER_DOMAIN.test(domain)
      ? `goes to ${endpoint}, a placeholder domain that never receives mail`
      : undefined;
}

/** The lab policy's strict commands: an apply, and a synth whose command is not known (it might be one). */
export const isStrictCommand = (command: string | undefined): boolean =>
  command === undefined || command === 'apply';

export function checkAlertSubscriptions(resources: readonly ResourceView[], strict: boolean): Finding[] {
  const out: Finding[] = [];
  for (const r of resources.filter((x) => x.type === 'aws_sns_topic_subscription')) {
    if (r.attrs.protocol !== 'email' && r.attrs.protocol !== 'email-json') continue;
    const problem = alertAddressProblem(r.attrs.endpoint);
    if (!problem) continue;
    out.push({
      severity: strict ? 'error' : 'warning',
      message: `aws_sns_topic_subscription.${r.id} ${problem}, so its confirmation mail is never answered and no alert is ever delivered: set the unit's alertEmail (LOGLAKE_ALERT_EMAIL) to a real address${strict ? ' before deploying (cdktf list, synth, diff and destroy are not blocked by this)' : ' before deploying (an apply of this configuration stops at terraform_data.alert_address_guard)'}`,
    });
  }
  return out;
}
