// The Terraform references in synthesized stacks, resolved to the values they would have once applied in one
// account: the caller identity, a resource's ARN or name (as AWS forms them from its arguments), a dependency's
// output read through remote state (resolved in the producer's stack), a local. Only what the access model needs is
// resolved, on demand; anything else — a function, an attribute AWS generates (a table's id), an unknown resource
// type — stops with a message naming the expression, where it is and what to do: the model is never guessed.
import { StacksError } from '../lib/errors';

/** One synthesized stack's JSON (cdk.tf.json), the parts the resolver reads. */
export interface SynthesizedStack {
  readonly provider?: { readonly aws?: ReadonlyArray<{ readonly region?: string }> };
  readonly resource?: Readonly<Record<string, Readonly<Record<string, Readonly<Record<string, unknown>>>>>>;
  readonly locals?: Readonly<Record<string, unknown>>;
  readonly output?: Readonly<Record<string, { readonly value: unknown }>>;
}

/** The values of one account the references resolve to. */
export interface AccessValues {
  readonly account: string;
  /** The principal that deploys (what `aws_iam_session_context.issuer_arn` of the caller is). */
  readonly deployerArn: string;
  readonly partition?: string;
}

/** A reference that cannot be resolved: the model would have to guess it. */
export class UnresolvedReferenceError extends StacksError {
  override name = 'UnresolvedReferenceError';
}

type Attributes = Readonly<Record<string, unknown>>;
type AttributeRule = (attrs: Attributes, at: ResolveSite) => string;

export interface ResolveSite {
  readonly stack: string;
  readonly region: string;
  readonly values: AccessValues;
  /** Resolves an argument of the same resource (it may itself hold references). */
  readonly arg: (name: string) => string;
}

const arn = (at: ResolveSite, service: string, resource: string) =>
  `arn:${at.values.partition ?? 'aws'}:${service}:${at.region}:${at.values.account}:${resource}`;

/** How AWS forms each attribute the stacks reference, from the resource's own arguments. */
const ATTRIBUTES: Readonly<Record<string, Readonly<Record<string, AttributeRule>>>> = {
  aws_iam_role: {
    arn: (_, at) =>
      `arn:${at.values.partition ?? 'aws'}:iam::${at.values.account}:role${pathOf(at)}${at.arg('name')}`,
    id: (_, at) => at.arg('name'),
    name: (_, at) => at.arg('name'),
  },
  aws_s3_bucket: {
    arn: (_, at) => `arn:${at.values.partition ?? 'aws'}:s3:::${at.arg('bucket')}`,
    id: (_, at) => at.arg('bucket'),
    bucket: (_, at) => at.arg('bucket'),
  },
  aws_cloudwatch_log_group: {
    arn: (_, at) => arn(at, 'logs', `log-group:${at.arg('name')}`),
    name: (_, at) => at.arg('name'),
  },
  aws_lambda_function: {
    arn: (_, at) => arn(at, 'lambda', `function:${at.arg('function_name')}`),
    function_name: (_, at) => at.arg('function_name'),
  },
  aws_sns_topic: {
    arn: (_, at) => arn(at, 'sns', at.arg('name')),
    id: (_, at) => arn(at, 'sns', at.arg('name')),
    name: (_, at) => at.arg('name'),
  },
  aws_sfn_state_machine: {
    arn: (_, at) => arn(at, 'states', `stateMachine:${at.arg('name')}`),
    name: (_, at) => at.arg('name'),
  },
  aws_athena_workgroup: {
    arn: (_, at) => arn(at, 'athena', `workgroup/${at.arg('name')}`),
    id: (_, at) => at.arg('name'),
    name: (_, at) => at.arg('name'),
  },
  aws_glue_catalog_database: {
    arn: (_, at) => arn(at, 'glue', `database/${at.arg('name')}`),
    name: (_, at) => at.arg('name'),
  },
  aws_kinesis_firehose_delivery_stream: {
    arn: (_, at) => arn(at, 'firehose', `deliverystream/${at.arg('name')}`),
    name: (_, at) => at.arg('name'),
  },
  aws_s3tables_table_bucket: {
    arn: (_, at) => arn(at, 's3tables', `bucket/${at.arg('name')}`),
    name: (_, at) => at.arg('name'),
  },
  aws_s3tables_namespace: { namespace: (_, at) => at.arg('namespace') },
  aws_s3tables_table: { name: (_, at) => at.arg('name'), namespace: (_, at) => at.arg('namespace') },
  aws_glue_catalog: { name: (_, at) => at.arg('name') },
};

function pathOf(at: ResolveSite): string {
  try {
    return at.arg('path');
  } catch {
    return '/';
  }
}

const DATA_SOURCES: Readonly<Record<string, (values: AccessValues, attr: string) => string | undefined>> = {
  aws_caller_identity: (v, attr) =>
    attr === 'account_id' ? v.account : attr === 'arn' ? v.deployerArn : undefined,
  aws_iam_session_context: (v, attr) => (attr === 'issuer_arn' ? v.deployerArn : undefined),
  aws_partition: (v, attr) => (attr === 'partition' ? (v.partition ?? 'aws') : undefined),
};

/** `try(data.terraform_remote_state.<alias>[0].outputs.<output>, <fallback>)`: an upstream unit's output. */
const REMOTE_OUTPUT =
  /^try\(data\.terraform_remote_state\.([A-Za-z0-9_]+)\[0\]\.outputs\.([A-Za-z0-9_]+), .*\)$/s;

export class TerraformExpressions {
  constructor(
    private readonly stacks: Readonly<Record<string, SynthesizedStack>>,
    /** The producer unit each stack's dependency alias names (`table_bucket` → `table-bucket`). */
    private readonly dependencies: Readonly<Record<string, Readonly<Record<string, string>>>>,
    private readonly values: AccessValues,
  ) {}

  /** A value with `${...}` interpolations, resolved; `where` names it in a failure. */
  resolve(stack: string, value: unknown, where: string, seen: readonly string[] = []): string {
    if (typeof value !== 'string')
      throw new UnresolvedReferenceError(
        `${stack} ${where}: expected a string, found ${JSON.stringify(value)}`,
        { value },
      );
    let out = '';
    let rest = value;
    for (;;) {
      const start = rest.indexOf('${');
      if (start < 0) return out + rest;
      const end = closing(rest, start + 2);
      if (end < 0) throw this.unresolved(stack, where, rest, 'an unterminated interpolation');
      out += rest.slice(0, start) + this.expression(stack, rest.slice(start + 2, end).trim(), where, seen);
      rest = rest.slice(end + 1);
    }
  }

  /** A stack's output, resolved in that stack. */
  output(stack: string, name: string, seen: readonly string[] = []): string {
    const value = this.stacks[stack]?.output?.[name]?.value;
    if (value === undefined)
      throw new UnresolvedReferenceError(
        `stack ${stack} has no output ${name}; add it to its unit's outputs`,
        { value: name },
      );
    return this.resolve(stack, value, `output ${name}`, seen);
  }

  regionOf(stack: string): string {
    const region = this.stacks[stack]?.provider?.aws?.[0]?.region;
    if (!region)
      throw new UnresolvedReferenceError(`stack ${stack} has no AWS provider region`, { value: stack });
    return region;
  }

  private expression(stack: string, expr: string, where: string, seen: readonly string[]): string {
    const key = `${stack}:${expr}`;
    if (seen.includes(key))
      throw this.unresolved(stack, where, expr, `a reference cycle (${[...seen, key].join(' → ')})`);
    const next = [...seen, key];
    const data = /^data\.([a-z0-9_]+)\.[A-Za-z0-9_-]+\.([a-z0-9_]+)$/.exec(expr);
    if (data) {
      const value = DATA_SOURCES[data[1] as string]?.(this.values, data[2] as string);
      if (value === undefined)
        throw this.unresolved(stack, where, expr, `data source attribute ${data[1]}.${data[2]}`);
      return value;
    }
    const local = /^local\.([A-Za-z0-9_-]+)$/.exec(expr);
    if (local) return this.local(stack, local[1] as string, where, next);
    const resource = /^([a-z0-9_]+)\.([A-Za-z0-9_-]+)\.([a-z0-9_]+)$/.exec(expr);
    if (resource)
      return this.attribute(
        stack,
        resource[1] as string,
        resource[2] as string,
        resource[3] as string,
        where,
        next,
      );
    throw this.unresolved(stack, where, expr, 'an expression that is not a plain reference');
  }

  private local(stack: string, name: string, where: string, seen: readonly string[]): string {
    const value = this.stacks[stack]?.locals?.[name];
    if (value === undefined)
      throw this.unresolved(stack, where, `local.${name}`, 'a local the stack does not define');
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    const remote = /^\$\{(.*)\}$/s.exec(text)?.[1];
    const upstream = remote ? REMOTE_OUTPUT.exec(remote.trim()) : undefined;
    if (upstream) {
      const [, alias, output] = upstream as unknown as [string, string, string];
      const producer = this.dependencies[stack]?.[alias];
      if (!producer)
        throw this.unresolved(
          stack,
          where,
          `local.${name}`,
          `dependency "${alias}", which the unit does not declare`,
        );
      return this.output(producer, output, seen);
    }
    return this.resolve(stack, value, `local.${name}`, seen);
  }

  private attribute(
    stack: string,
    type: string,
    id: string,
    attr: string,
    where: string,
    seen: readonly string[],
  ): string {
    const attrs = this.stacks[stack]?.resource?.[type]?.[id];
    if (!attrs)
      throw this.unresolved(stack, where, `${type}.${id}.${attr}`, 'a resource the stack does not define');
    const rule = ATTRIBUTES[type]?.[attr];
    if (!rule)
      throw this.unresolved(
        stack,
        where,
        `${type}.${id}.${attr}`,
        `attribute ${attr} of ${type}, which AWS generates or the resolver does not know`,
      );
    return rule(attrs, {
      stack,
      region: this.regionOf(stack),
      values: this.values,
      arg: (name) => {
        if (attrs[name] === undefined)
          throw this.unresolved(
            stack,
            where,
            `${type}.${id}.${name}`,
            'an argument the resource does not set',
          );
        return this.resolve(stack, attrs[name], `${type}.${id}.${name}`, seen);
      },
    });
  }

  private unresolved(stack: string, where: string, expr: string, what: string): UnresolvedReferenceError {
    return new UnresolvedReferenceError(
      `stack ${stack}, ${where}: cannot resolve \${${expr}} (${what}) without guessing; reference an argument the stack sets, or teach stacks/access/terraform-expressions.ts how AWS forms it`,
      { value: expr },
    );
  }
}

/** Index of the `}` closing an interpolation opened before `from` (nested braces counted, strings skipped). */
function closing(text: string, from: number): number {
  let depth = 0;
  let quoted = false;
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '\\') i++;
      else if (c === '"') quoted = false;
    } else if (c === '"') quoted = true;
    else if (c === '{') depth++;
    else if (c === '}') {
      if (depth === 0) return i;
      depth--;
    }
  }
  return -1;
}
