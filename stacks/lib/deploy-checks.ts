// The checks Terraform runs for us while it applies or destroys (terraform_data + local-exec, as destroy-hooks.ts):
// what Terraform alone cannot see or wait for. Each runs a CLI of @loglake/deploy-checks from the repository root,
// with its values in the resource's input (a destroy-time provisioner may only read self).
import type { ITerraformDependable, TerraformResource } from 'cdktf';
import type { Construct } from 'constructs';
import { StacksError } from './errors';
import { repoScriptCommand } from './paths';
import { TerraformData } from './terraform-data';

/** Where the check CLIs live, from the repository root (the provisioners' working directory). */
export const DEPLOY_CHECKS_DIR = 'packages/deploy-checks/src';
const tsx = (cli: string) => repoScriptCommand(`${DEPLOY_CHECKS_DIR}/${cli}`);

/**
 * Per resource type, the attribute whose value is new exactly when the resource is replaced (unknown in a plan that
 * replaces it, unchanged by an in-place update): what a `replace_triggered_by` must name. Terraform silently ignores a
 * trigger on an attribute the type does not have (no validate or plan error; it never fires), so a type not listed
 * here is refused at synth rather than guessed. Sources: aws_glue_catalog is a plugin-framework resource with no
 * `id`; its `create_time` is Computed with UseStateForUnknown (internal/service/glue/catalog.go). aws_iam_role's
 * `unique_id` is the role's RoleId, new with every role. The SDKv2 aws_lakeformation_resource's `id` is the
 * registered ARN, known again only after apply. terraform_data's `id` is a fresh UUID per instance.
 */
export const REPLACEMENT_MARKER: Readonly<Record<string, string>> = {
  aws_glue_catalog: 'create_time',
  aws_iam_role: 'unique_id',
  aws_lakeformation_resource: 'id',
  // Namespaces and tables: plugin-framework resources without id; created_at is Computed with UseStateForUnknown
  // (internal/service/s3tables/namespace.go, table.go), so it is unknown exactly when one is created anew.
  aws_s3tables_namespace: 'created_at',
  aws_s3tables_table: 'created_at',
  terraform_data: 'id',
};

/** replace_triggered_by for `resources` (their replacement markers), or nothing when there are none. */
export function replacedWith(
  resources: readonly TerraformResource[] | undefined,
): { lifecycle: { replaceTriggeredBy: string[] } } | Record<string, never> {
  return resources && resources.length > 0
    ? { lifecycle: { replaceTriggeredBy: resources.map(replacementTrigger) } }
    : {};
}

/** `type.name.attribute` for replace_triggered_by: the resource's replacement marker. */
export function replacementTrigger(resource: TerraformResource): string {
  const type = resource.terraformResourceType;
  const attribute = REPLACEMENT_MARKER[type];
  if (!attribute)
    throw new StacksError(
      `a replace_triggered_by on ${type}.${resource.friendlyUniqueId} needs the attribute that changes only when a ${type} is replaced; add ${type} to REPLACEMENT_MARKER (stacks/lib/deploy-checks.ts) from the provider's schema`,
      { value: type },
    );
  return `${type}.${resource.friendlyUniqueId}.${attribute}`;
}

export interface IntegrationPreflightProps {
  readonly mode: 'create' | 'adopt';
  readonly catalogName: string;
  readonly resourceArn: string;
  readonly region: string;
  /** The unit file to point the user at. */
  readonly unitFile: string;
  readonly repoRoot: string;
}

/**
 * Runs once when created, before the integration is created or adopted: stops the apply with a message when the
 * account already has what create mode would create, or lacks what adopt mode needs. Replaced (so run again) when
 * the mode changes.
 */
export function integrationPreflight(
  scope: Construct,
  id: string,
  props: IntegrationPreflightProps,
): TerraformData {
  return new TerraformData(scope, id, {
    input: {
      catalog_name: props.catalogName,
      resource_arn: props.resourceArn,
      region: props.region,
      unit_file: props.unitFile,
    },
    triggersReplace: { mode: props.mode },
    provisioners: [
      {
        type: 'local-exec',
        workingDir: props.repoRoot,
        command: tsx('integration-preflight-cli.ts'),
        environment: {
          MODE: props.mode,
          CATALOG_NAME: '${self.input.catalog_name}',
          RESOURCE_ARN: '${self.input.resource_arn}',
          UNIT_FILE: '${self.input.unit_file}',
          AWS_REGION: '${self.input.region}',
        },
      },
    ],
  });
}

export interface ConfirmDestroyProps {
  readonly unit: string;
  /** One sentence: what destroying the unit does to others. */
  readonly consequence: string;
  readonly repoRoot: string;
  /** Everything the guard protects: it is destroyed before them, and stops the destroy unless confirmed. */
  readonly dependsOn: ITerraformDependable[];
  /**
   * Resources whose replacement is a destroy too (a renamed role, a registration forced new): when one is planned
   * for replacement the guard is replaced first, so its destroy-time check runs before they go. Each one's
   * replacement marker (REPLACEMENT_MARKER) is the trigger, so only a replacement asks, not an in-place update.
   */
  readonly replacedWith?: TerraformResource[];
}

/** A destroy-time guard: the destroy goes on only when LOGLAKE_CONFIRM_DESTROY names the unit. */
export function confirmDestroyGuard(scope: Construct, id: string, props: ConfirmDestroyProps): TerraformData {
  const guard = new TerraformData(scope, id, {
    input: { unit: props.unit, consequence: props.consequence },
    dependsOn: props.dependsOn,
    ...replacedWith(props.replacedWith),
    provisioners: [
      {
        type: 'local-exec',
        when: 'destroy',
        workingDir: props.repoRoot,
        command: tsx('confirm-destroy-cli.ts'),
        environment: { UNIT: '${self.input.unit}', CONSEQUENCE: '${self.input.consequence}' },
      },
    ],
  });
  guard.overrideLogicalId('destroy_guard');
  return guard;
}

export interface WaitForFederationProps {
  /** `<account>:s3tablescatalog/<bucket>`. */
  readonly catalogId: string;
  readonly database: string;
  readonly table?: string;
  readonly region: string;
  readonly timeoutSeconds: number;
  readonly repoRoot: string;
  /** The namespace (and table) this waits for: it is created after them (and runs again when their names change). */
  readonly dependsOn: ITerraformDependable[];
  /** The namespace (and table) whose replacement under the same name must run the wait again. */
  readonly replacedWith?: TerraformResource[];
}

/**
 * Waits, bounded, until a new namespace (and table) is visible through the federated Glue catalog, so the Lake
 * Formation grants that depend on it do not fail with EntityNotFoundException (not retried by the provider).
 */
export function waitForFederation(
  scope: Construct,
  id: string,
  props: WaitForFederationProps,
): TerraformData {
  return new TerraformData(scope, id, {
    input: { region: props.region, timeout_seconds: String(props.timeoutSeconds) },
    triggersReplace: {
      catalog_id: props.catalogId,
      database: props.database,
      ...(props.table ? { table: props.table } : {}),
    },
    dependsOn: props.dependsOn,
    ...replacedWith(props.replacedWith),
    provisioners: [
      {
        type: 'local-exec',
        workingDir: props.repoRoot,
        command: tsx('wait-for-federation-cli.ts'),
        environment: {
          CATALOG_ID: '${self.triggers_replace.catalog_id}',
          DATABASE: '${self.triggers_replace.database}',
          ...(props.table ? { TABLE: '${self.triggers_replace.table}' } : {}),
          TIMEOUT_SECONDS: '${self.input.timeout_seconds}',
          AWS_REGION: '${self.input.region}',
        },
      },
    ],
  });
}
