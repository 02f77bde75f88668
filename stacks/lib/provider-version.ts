// The AWS provider every stack runs with, and what an older provider is expected to say about the stacks.
//
// One exact version, not a range: with `>= 6.44, < 7` and no lock file every fresh `terraform init` picked whatever 6.x
// was newest that day. 6.66.0 is the release whose argument names the stacks were compared with (the synthesized
// attributes of every resource type against that release's generated bindings, in the AWS deployability review of
// 2026-12-01). No 6.x provider binary is reachable here, so nothing in this repository validates against 6.66.0 itself:
// the validate test runs the machine's mirrored (older) provider. To move to a newer release, change
// AWS_PROVIDER_VERSION, synth, and run `pnpm lab plan` against a sandbox: the README's "Provider version" says how.

/** The exact AWS provider version in every stack's required_providers. */
export const AWS_PROVIDER_VERSION = '6.66.0';

/** aws_glue_catalog, written through cdktf's raw-resource escape hatch, exists from this release on. */
export const GLUE_CATALOG_SINCE = '6.44.0';

/** A `terraform validate` diagnostic, as `terraform validate -json` prints it. */
export interface ValidateDiagnostic {
  readonly severity: 'error' | 'warning';
  readonly summary: string;
  readonly detail?: string;
  readonly address?: string;
}

/** Synthesized Terraform JSON (loosely typed: the harness edits it to stand in for an older provider). */
export type TerraformJson = {
  resource?: Record<string, Record<string, Record<string, unknown>>>;
  data?: Record<string, Record<string, Record<string, unknown>>>;
  output?: Record<string, { value: unknown }>;
  [key: string]: unknown;
};

/**
 * An argument or resource type a provider older than `introducedIn` does not know. A validate run with such a
 * provider reports `matches`; `strip` removes the feature from the JSON so the rest can still be validated.
 */
export interface NewerProviderFeature {
  readonly what: string;
  readonly introducedIn: string;
  /** Where the version comes from (the provider's CHANGELOG entry). */
  readonly source: string;
  matches(d: ValidateDiagnostic): boolean;
  strip(json: TerraformJson): void;
}

const extraneous = (name: string) => (d: ValidateDiagnostic) =>
  d.summary === 'Extraneous JSON object property' &&
  d.detail === `No argument or block type is named "${name}".`;

/** Removes `path` (dotted, through single-block lists) from every resource of `type`. */
function dropPath(type: string, path: readonly string[]) {
  return (json: TerraformJson) => {
    for (const resource of Object.values(json.resource?.[type] ?? {})) {
      let node: Record<string, unknown> | undefined = resource;
      for (const key of path.slice(0, -1)) {
        const next: unknown = node?.[key];
        node = (Array.isArray(next) ? next[0] : next) as Record<string, unknown> | undefined;
      }
      if (node) delete node[path.at(-1)!];
    }
  };
}

/** Removes every resource of `type` and every reference to one (depends_on entries, interpolations). */
function dropResourceType(type: string) {
  return (json: TerraformJson) => {
    if (json.resource) delete json.resource[type];
    const scrub = (value: unknown): unknown => {
      if (typeof value === 'string')
        return value.includes(`${type}.`)
          ? value.replace(new RegExp(`\\$\\{${type}\\.[^}]*\\}`, 'g'), 'stripped')
          : value;
      if (Array.isArray(value))
        return value.filter((v) => !(typeof v === 'string' && v.startsWith(`${type}.`))).map(scrub);
      if (value && typeof value === 'object')
        return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrub(v)]));
      return value;
    };
    for (const key of ['resource', 'output', 'locals', 'data'])
      if (json[key] !== undefined) json[key] = scrub(json[key]) as never;
  };
}

export const NEWER_PROVIDER_FEATURES: readonly NewerProviderFeature[] = [
  {
    // The S3 backend variant (LAB_STATE_BUCKET): each upstream's state probe reads the state bucket in its own region.
    what: 'data.aws_s3_objects.region (the per-resource region argument)',
    introducedIn: '6.0.0',
    source:
      'CHANGELOG 6.0.0: enhanced region support, a `region` argument on every resource and data source (except global ones)',
    matches: extraneous('region'),
    strip: (json) => {
      for (const probe of Object.values(json.data?.aws_s3_objects ?? {})) delete probe.region;
    },
  },
  {
    what: 'aws_s3tables_table.metadata (the Iceberg schema at create)',
    introducedIn: '6.2.0',
    source: 'CHANGELOG 6.2.0: resource/aws_s3tables_table: Add `metadata` argument (#43112)',
    matches: extraneous('metadata'),
    strip: dropPath('aws_s3tables_table', ['metadata']),
  },
  {
    what: 'aws_lakeformation_resource.with_privileged_access',
    introducedIn: '6.4.0',
    source:
      'CHANGELOG 6.4.0: resource/aws_lakeformation_resource: Support `with_privileged_access` argument (#43377)',
    matches: extraneous('with_privileged_access'),
    strip: dropPath('aws_lakeformation_resource', ['with_privileged_access']),
  },
  {
    what: 'aws_athena_workgroup.configuration.managed_query_results_configuration',
    introducedIn: '6.25.0',
    source:
      'CHANGELOG 6.25.0: resource/aws_athena_workgroup: Add `configuration.managed_query_results_configuration` block (#44273)',
    matches: extraneous('managed_query_results_configuration'),
    strip: dropPath('aws_athena_workgroup', ['configuration', 'managed_query_results_configuration']),
  },
  {
    what: 'resource type aws_glue_catalog (the s3tablescatalog federated catalog)',
    introducedIn: GLUE_CATALOG_SINCE,
    source: 'the provider release that added aws_glue_catalog (see stacks/lib/glue-catalog.ts)',
    matches: (d) =>
      d.summary === 'Invalid resource type' &&
      d.detail === 'The provider hashicorp/aws does not support resource type "aws_glue_catalog".',
    strip: dropResourceType('aws_glue_catalog'),
  },
];

/** Semantic version order of `a` and `b` (`1.2.3`). */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < 3; i++) if ((pa[i] ?? 0) !== (pb[i] ?? 0)) return (pa[i] ?? 0) - (pb[i] ?? 0);
  return 0;
}
