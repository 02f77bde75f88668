// One `dependency` block, in Terraform: read a producer unit's outputs from its remote state, and stop with a
// message naming the unit to deploy first when they are missing. Mock outputs (Terragrunt's mock_outputs) are
// embedded only when the wrapper announced a command the dependency allows (init/validate/plan by default), are
// used only while the producer has no state, and can never be applied: a guard whose precondition is deferred to
// apply fails there. Every value is a Terraform local, so a plan of the consumer shows real values or the mocks.
import {
  DataTerraformRemoteStateLocal,
  DataTerraformRemoteStateS3,
  TerraformLocal,
  type TerraformRemoteState,
} from 'cdktf';
import { Construct } from 'constructs';
import type * as dataAwsS3Objects from '@cdktf/provider-aws/lib/data-aws-s3-objects';
import type { ResolvedDependency, TfCommand } from './contract';
import { StacksError } from './errors';
import { TerraformData } from './terraform-data';
import { awsLib } from './provider-aws';

const { DataAwsS3Objects } = awsLib<typeof dataAwsS3Objects>('data-aws-s3-objects');

export interface UpstreamOutputsProps {
  readonly dependency: ResolvedDependency;
  /** The command the wrapper announced (LOGLAKE_TF_COMMAND); undefined = strict, as for apply. */
  readonly command: TfCommand | undefined;
  /** Relative path from the stack's terraform working directory to the repository root. */
  readonly repoRoot: string;
}

/** Sentinel the deferred apply-time guard compares against; a terraform_data id never equals it. */
const NEVER = 'mock outputs never reach apply';

export class UpstreamOutputs extends Construct {
  readonly dependency: ResolvedDependency;
  /** True when this synth embedded mock outputs (plan/validate only). */
  readonly mocksEmbedded: boolean;
  /** Every resource that uses these values depends on this guard, so a failed guard stops them. */
  readonly guard: TerraformData;
  readonly remoteState: TerraformRemoteState;
  private readonly values = new Map<string, TerraformLocal>();

  constructor(scope: Construct, id: string, props: UpstreamOutputsProps) {
    super(scope, id);
    const dep = props.dependency;
    this.dependency = dep;
    const alias = dep.name;
    this.mocksEmbedded = props.command !== undefined && dep.mockAllowedCommands.includes(props.command);

    // Has the producer ever written state? Reading a missing state is a hard Terraform error, so probe first.
    let deployed: string;
    const rs = dep.remoteState;
    if (rs.backend === 's3') {
      const probe = new DataAwsS3Objects(this, 'state-probe', {
        bucket: rs.bucket,
        prefix: rs.key,
        maxKeys: 1,
        region: rs.region,
      });
      probe.overrideLogicalId(`${alias}_state_probe`);
      deployed = `contains(${probe.fqn}.keys, "${rs.key}")`;
      this.remoteState = new DataTerraformRemoteStateS3(this, 'state', {
        bucket: rs.bucket,
        key: rs.key,
        region: rs.region,
      });
    } else {
      const statePath = new TerraformLocal(this, 'state-path', `${props.repoRoot}/${rs.path}`);
      statePath.overrideLogicalId(`${alias}_state_path`);
      deployed = `fileexists(local.${alias}_state_path)`;
      this.remoteState = new DataTerraformRemoteStateLocal(this, 'state', {
        path: `\${local.${alias}_state_path}`,
      });
    }
    this.remoteState.overrideLogicalId(alias);
    this.remoteState.addOverride('count', `\${local.${alias}_deployed ? 1 : 0}`);
    new TerraformLocal(this, 'deployed', `\${${deployed}}`).overrideLogicalId(`${alias}_deployed`);
    const outputsExpr = `try(data.terraform_remote_state.${alias}[0].outputs, {})`;
    const keyList = `[${dep.outputs.map((o) => JSON.stringify(o)).join(', ')}]`;
    new TerraformLocal(
      this,
      'missing',
      `\${[for k in ${keyList} : k if !contains(keys(${outputsExpr}), k)]}`,
    ).overrideLogicalId(`${alias}_missing`);

    for (const output of dep.outputs) {
      // Without mocks, "" rather than null: the guard's precondition is what fails, and a null would also fail every
      // template that interpolates the value ("Invalid template interpolation value"), burying its message.
      const fallback = this.mocksEmbedded ? JSON.stringify(dep.mockOutputs[output]) : '""';
      const local = new TerraformLocal(
        this,
        `out-${output}`,
        `\${try(data.terraform_remote_state.${alias}[0].outputs.${output}, ${fallback})}`,
      );
      local.overrideLogicalId(`${alias}_${output}`);
      this.values.set(output, local);
    }

    const deployFirst = `cdktf deploy ${dep.unit} (or pnpm lab deploy)`;
    let preconditions: Array<{ condition: string; errorMessage: string }>;
    if (this.mocksEmbedded) {
      const marker = new TerraformData(this, 'mock-marker', {
        triggersReplace: { synthesized_with_mocks: '${timestamp()}' },
      });
      marker.overrideLogicalId(`${alias}_mock_marker`);
      // Known false at plan only when real outputs exist; with mocks in use it depends on the marker's id, which is
      // unknown until apply — so Terraform defers the check to apply, where it fails.
      preconditions = [
        {
          condition: `\${length(local.${alias}_missing) == 0 || terraform_data.${alias}_mock_marker.id == "${NEVER}"}`,
          errorMessage: `This configuration was synthesized with mock outputs of unit ${dep.unit} (${dep.path}), which has no state with ${dep.outputs.join(', ')} yet. Mocks are for ${dep.mockAllowedCommands.join('/')} only. Deploy ${dep.unit} first: ${deployFirst}.`,
        },
      ];
    } else {
      preconditions = [
        {
          condition: `\${local.${alias}_deployed}`,
          errorMessage: `Unit ${dep.unit} (${dep.path}) has no state at ${rs.backend === 's3' ? `s3://${rs.bucket}/${rs.key}` : rs.path}: deploy it first: ${deployFirst}.`,
        },
        {
          // Only for a state that exists: a missing state is the first condition's message alone.
          condition: `\${!local.${alias}_deployed || length(local.${alias}_missing) == 0}`,
          errorMessage: `Unit ${dep.unit} (${dep.path}) has no output \${join(", ", local.${alias}_missing)} in its state (destroyed, or deployed before that output existed): deploy it first: ${deployFirst}.`,
        },
      ];
    }
    this.guard = new TerraformData(this, 'guard', {
      input: Object.fromEntries(dep.outputs.map((o) => [o, this.get(o)])),
      lifecycle: { precondition: preconditions },
    });
    this.guard.overrideLogicalId(`${alias}_upstream_guard`);
  }

  /** The producer's output as a Terraform expression (a local). */
  get(output: string): string {
    const local = this.values.get(output);
    if (!local)
      throw new StacksError(
        `dependency ${this.dependency.name} does not read output ${output}; add it to the unit's outputs`,
      );
    return local.asString;
  }
}
