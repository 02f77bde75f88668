// Destroy-time steps Terraform runs for us (cdktf has no hooks): a terraform_data whose destroy-time local-exec
// runs a node script. Placement in the dependency graph decides when it runs.
import type { TerraformStack } from 'cdktf';
import { TerraformResource } from 'cdktf';
import { repoScriptCommand } from './paths';
import { TerraformData } from './terraform-data';
import type { Construct } from 'constructs';

export interface VerifyTeardownProps {
  readonly labId: string;
  readonly region: string;
  readonly checkAttempts: number;
  /** Relative path from the stack's terraform working directory to the repository root. */
  readonly repoRoot: string;
  /** The check to run; defaults to the leftover verifier (tests substitute a harmless command). */
  readonly command?: string;
}

/**
 * The post-destroy check (Terragrunt's after_hook "verify_teardown"). Every other resource of the stack depends on
 * it (see dependOnEverything), so Terraform destroys it last: its destroy-time local-exec runs only after the rest
 * of the stack is gone, and not at all when an earlier destroy failed (run_on_error = false). on_failure defaults to
 * fail, so a lab with leftovers fails the destroy. Because every other unit depends on this unit, the check runs
 * once, after the whole lab is gone.
 */
export function verifyTeardownHook(scope: Construct, id: string, props: VerifyTeardownProps): TerraformData {
  const hook = new TerraformData(scope, id, {
    input: { lab_id: props.labId, region: props.region, check_attempts: String(props.checkAttempts) },
    provisioners: [
      {
        type: 'local-exec',
        when: 'destroy',
        workingDir: props.repoRoot,
        command: props.command ?? repoScriptCommand('scripts/check-leftovers.ts', ['${self.input.lab_id}']),
        environment: { CHECK_ATTEMPTS: '${self.input.check_attempts}', AWS_REGION: '${self.input.region}' },
      },
    ],
  });
  hook.overrideLogicalId('verify_teardown');
  return hook;
}

/** `type.name` as depends_on wants it (no interpolation braces), respecting overridden logical ids. */
export function dependencyRef(resource: TerraformResource): string {
  return `${resource.terraformResourceType}.${resource.friendlyUniqueId}`;
}

export function addDependsOn(resource: TerraformResource, on: readonly TerraformResource[]): void {
  resource.dependsOn = [...new Set([...(resource.dependsOn ?? []), ...on.map(dependencyRef)])];
}

/** Makes every other managed resource of the stack depend on `hook` (data sources stay free, or plan would defer them). */
export function dependOnEverything(
  stack: TerraformStack,
  hook: TerraformResource,
  except: ReadonlyArray<TerraformResource> = [],
): void {
  const skip = new Set<TerraformResource>([hook, ...except]);
  for (const node of stack.node.findAll()) {
    // Data sources are not TerraformResources in cdktf, so they stay out (a dependent data source defers to apply).
    if (!(node instanceof TerraformResource) || skip.has(node)) continue;
    addDependsOn(node, [hook]);
  }
}

export interface DropNamespaceTablesProps {
  readonly tableBucketArn: string;
  readonly namespace: string;
  readonly region: string;
  /** Tables Terraform manages itself in this namespace (left for Terraform to delete). */
  readonly keep: readonly string[];
  readonly repoRoot: string;
  /** Defaults to the teardown package's dropper (tests substitute a local stand-in). */
  readonly command?: string;
}

/**
 * S3 Tables refuses to delete a namespace that still has tables, and the lab's SQL creates tables Terraform does not
 * know. This terraform_data depends on the namespace, so on destroy it goes first and drops the namespace's other
 * tables; then Terraform deletes the namespace. A failure fails the destroy (nothing is silently left).
 */
export function dropNamespaceTablesOnDestroy(
  scope: Construct,
  id: string,
  props: DropNamespaceTablesProps,
): TerraformData {
  return new TerraformData(scope, id, {
    input: {
      table_bucket_arn: props.tableBucketArn,
      namespace: props.namespace,
      region: props.region,
      keep: props.keep.join(','),
    },
    provisioners: [
      {
        type: 'local-exec',
        when: 'destroy',
        workingDir: props.repoRoot,
        command: props.command ?? repoScriptCommand('packages/teardown/src/drop-namespace-tables-cli.ts'),
        environment: {
          TABLE_BUCKET_ARN: '${self.input.table_bucket_arn}',
          NAMESPACE: '${self.input.namespace}',
          KEEP_TABLES: '${self.input.keep}',
          AWS_REGION: '${self.input.region}',
        },
      },
    ],
  });
}
